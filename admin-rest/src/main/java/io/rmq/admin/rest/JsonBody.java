package io.rmq.admin.rest;

import static io.rmq.admin.rest.i18n.AdminRestMessages.msg;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * A request body read strictly: a JSON object whose members are all known to the operation (a
 * misspelt {@code "dryrun"} must fail, not purge for real), with typed getters that say what was
 * expected. Every problem is an {@link IllegalArgumentException} the resource answers with 400.
 * Immutable.
 */
final class JsonBody {

    /** The most items an array of a body may hold: {@value}. */
    static final int MAX_ITEMS = 1000;

    private final JsonObject object;

    private JsonBody(JsonObject object) {
        this.object = object;
    }

    /**
     * Reads {@code text} strictly ({@link StrictJson}); an absent or blank body is an empty object.
     *
     * @param known the members the operation knows, in the order the error message lists them
     */
    static JsonBody parse(String text, List<String> known) {
        JsonObject object = JsonValue.EMPTY_JSON_OBJECT;
        if (text != null && !text.isBlank()) {
            JsonValue value = StrictJson.read(text);
            if (value.getValueType() != JsonValue.ValueType.OBJECT) {
                throw msg.notAJsonObject("it is " + value.getValueType().name().toLowerCase(Locale.ROOT));
            }
            object = value.asJsonObject();
        }
        for (String member : object.keySet()) {
            if (!known.contains(member)) {
                throw msg.unknownMember(member, known);
            }
        }
        return new JsonBody(object);
    }

    /** Which of {@code members} the body has (with a non-null value), in the order given. */
    List<String> present(List<String> members) {
        return members.stream().filter(this::has).toList();
    }

    boolean has(String member) {
        return object.containsKey(member) && object.get(member).getValueType() != JsonValue.ValueType.NULL;
    }

    /** Whether the body gives {@code member} as {@code null} (in a partial update: remove the setting). */
    boolean isNull(String member) {
        return object.containsKey(member) && object.get(member).getValueType() == JsonValue.ValueType.NULL;
    }

    /** A number member above 0 and below 10<sup>15</sup>, if present. */
    Optional<Double> positive(String member) {
        if (!has(member)) {
            return Optional.empty();
        }
        if (object.get(member) instanceof JsonNumber n) {
            double d = n.bigDecimalValue().doubleValue();
            if (d > 0 && d < 1e15) {
                return Optional.of(d);
            }
        }
        throw msg.wrongType(member, "a number above 0 and below 10^15");
    }

    /** A string member, if present. */
    Optional<String> string(String member) {
        if (!has(member)) {
            return Optional.empty();
        }
        if (object.get(member) instanceof JsonString s) {
            return Optional.of(s.getString());
        }
        throw msg.wrongType(member, "a string");
    }

    /** A string member that, when present, is not empty. */
    Optional<String> nonEmptyString(String member) {
        Optional<String> value = string(member);
        if (value.isPresent() && value.get().isEmpty()) {
            throw msg.empty(member);
        }
        return value;
    }

    /** A boolean member, {@code absent} when missing. */
    boolean bool(String member, boolean absent) {
        if (!has(member)) {
            return absent;
        }
        JsonValue value = object.get(member);
        if (value.getValueType() == JsonValue.ValueType.TRUE) {
            return true;
        }
        if (value.getValueType() == JsonValue.ValueType.FALSE) {
            return false;
        }
        throw msg.wrongType(member, "true or false");
    }

    /** A whole-number member from {@code min} to {@code max}, {@code absent} when missing. */
    int integer(String member, int absent, int min, int max) {
        if (!has(member)) {
            return absent;
        }
        JsonValue value = object.get(member);
        if (value instanceof JsonNumber n && n.isIntegral()
                && n.bigIntegerValue().bitLength() < 32
                && n.intValue() >= min && n.intValue() <= max) {
            return n.intValue();
        }
        throw msg.outOfRange(member, value.toString(), min, max);
    }

    /** A non-empty array of non-empty strings, if present. */
    Optional<List<String>> strings(String member) {
        if (!has(member)) {
            return Optional.empty();
        }
        if (!(object.get(member) instanceof JsonArray array) || array.isEmpty()) {
            throw msg.wrongType(member, "a non-empty array of strings");
        }
        if (array.size() > MAX_ITEMS) {
            throw msg.tooManyItems(member, MAX_ITEMS, array.size());
        }
        List<String> out = new ArrayList<>(array.size());
        for (JsonValue item : array) {
            if (!(item instanceof JsonString s) || s.getString().isEmpty()) {
                throw msg.wrongType(member, "a non-empty array of non-empty strings");
            }
            out.add(s.getString());
        }
        return Optional.of(out);
    }

    /** Decodes standard Base64 (RFC 4648, with or without padding). */
    static byte[] base64(String member, String value) {
        try {
            return Base64.getDecoder().decode(value);
        } catch (IllegalArgumentException e) {
            throw msg.notBase64(member, value);
        }
    }
}
