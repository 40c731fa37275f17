package io.rmq.connector.config;

import java.util.Locale;
import java.util.Optional;

/**
 * How an incoming channel without a codec turns a message's content bytes into its payload
 * (attribute {@code payload-type}).
 */
public enum PayloadType {
    /** The content decoded as UTF-8 into a {@link String}. The default. */
    STRING,
    /** The content as a {@code byte[]}, unchanged. */
    BYTES;

    /** The attribute value naming this type: {@code string} or {@code bytes}. */
    public String attributeValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The type an attribute value names, ignoring case and surrounding blanks. */
    public static Optional<PayloadType> fromAttributeValue(String value) {
        String wanted = value.trim();
        for (PayloadType type : values()) {
            if (type.name().equalsIgnoreCase(wanted)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }
}
