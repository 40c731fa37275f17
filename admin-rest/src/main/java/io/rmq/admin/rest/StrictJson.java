package io.rmq.admin.rest;

import static io.rmq.admin.rest.i18n.AdminRestMessages.msg;

import java.io.StringReader;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParser;

/**
 * Reads a request body as JSON strictly, before anything is built of it: one value and nothing after it,
 * no member twice in an object (a lenient reader lets the last win, so that {@code "dryRun":true,"dryRun":false}
 * would run for real), at most {@value #MAX_DEPTH} levels of arrays and objects, no number longer than
 * {@value #MAX_NUMBER_CHARS} characters (converting a million digits takes long), and no unpaired UTF-16
 * surrogate in a text (it could not be encoded as UTF-8, and would become {@code ?}, which selects other
 * messages). Every problem is an {@link IllegalArgumentException} (400). Stateless.
 */
final class StrictJson {

    /** The deepest nesting of arrays and objects a body may have: {@value}. */
    static final int MAX_DEPTH = 8;

    /** The longest number a body may hold, in characters: {@value} (a longer one is out of any range). */
    static final int MAX_NUMBER_CHARS = 32;

    private StrictJson() {
    }

    /** The value {@code text} holds, after checking it. */
    static JsonValue read(String text) {
        try (JsonParser parser = Json.createParser(new StringReader(text))) {
            check(parser);
        } catch (JsonException e) {
            throw msg.notAJsonObject(e.getMessage());
        }
        try (JsonParser parser = Json.createParser(new StringReader(text))) {
            parser.next();
            return parser.getValue();
        }
    }

    private static void check(JsonParser parser) {
        Deque<Set<String>> objects = new ArrayDeque<>();
        int depth = 0;
        do {
            switch (parser.next()) {
                case START_OBJECT -> {
                    objects.push(new HashSet<>());
                    depth = deeper(depth);
                }
                case START_ARRAY -> {
                    objects.push(Set.of());
                    depth = deeper(depth);
                }
                case END_OBJECT, END_ARRAY -> {
                    objects.pop();
                    depth--;
                }
                case KEY_NAME -> {
                    String key = checked(parser.getString());
                    if (!objects.peek().add(key)) {
                        throw msg.duplicateMember(key);
                    }
                }
                case VALUE_STRING -> checked(parser.getString());
                case VALUE_NUMBER -> {
                    if (parser.getString().length() > MAX_NUMBER_CHARS) {
                        throw msg.numberTooLong(MAX_NUMBER_CHARS);
                    }
                }
                default -> {
                    // true, false, null: read as they are
                }
            }
        } while (depth > 0);
        if (parser.hasNext()) {
            throw msg.trailingContent();
        }
    }

    private static int deeper(int depth) {
        if (depth >= MAX_DEPTH) {
            throw msg.tooDeep(MAX_DEPTH);
        }
        return depth + 1;
    }

    private static String checked(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw msg.unpairedSurrogate();
            }
        }
        return text;
    }
}
