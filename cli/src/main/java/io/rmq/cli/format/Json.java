package io.rmq.cli.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import io.rmq.cli.i18n.CliMessages;

/**
 * The {@code --json} output: one indented JSON document per command, written by Jackson from the
 * command's report record (its components, in order; {@code null} values are written as
 * {@code null}, so every documented field is always there). Thread-safe.
 */
public final class Json {

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private Json() {
    }

    /** The value as a JSON document. */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            // reports are plain records of strings, numbers, booleans and lists
            throw CliMessages.ex.notJson(value.getClass().getSimpleName(), e);
        }
    }
}
