package io.rmq.testing.otlp;

import java.util.Map;

/**
 * A link of a {@link ReceivedSpan}, as exported.
 *
 * @param traceId the linked span's trace id, 32 lower-case hex digits
 * @param spanId the linked span's id, 16 lower-case hex digits
 * @param attributes the link's attributes (values as in {@link ReceivedSpan#attributes()})
 */
public record ReceivedLink(String traceId, String spanId, Map<String, Object> attributes) {

    /** The string attribute {@code key}, or {@code null}. */
    public String attribute(String key) {
        Object value = attributes.get(key);
        return value == null ? null : value.toString();
    }
}
