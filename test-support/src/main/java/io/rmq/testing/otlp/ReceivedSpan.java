package io.rmq.testing.otlp;

import java.util.List;
import java.util.Map;

/**
 * A span as an OTLP exporter sent it to an {@link OtlpReceiver}: ids in lower-case hex as in the W3C
 * {@code traceparent}, attribute values as Java values ({@code String}, {@code Boolean}, {@code Long},
 * {@code Double}, {@code List} for arrays, {@code Map} for key-value lists, {@code byte[]}).
 *
 * @param service the {@code service.name} of the exporting resource, or {@code null}
 * @param name the span's name
 * @param kind {@code INTERNAL}, {@code SERVER}, {@code CLIENT}, {@code PRODUCER}, {@code CONSUMER} or
 *        {@code UNSPECIFIED}
 * @param traceId the trace id, 32 hex digits
 * @param spanId the span id, 16 hex digits
 * @param parentSpanId the parent span's id, or the empty string for a root span
 * @param status {@code UNSET}, {@code OK} or {@code ERROR}
 * @param attributes the span's attributes, in their exported order
 * @param links the span's links, in their exported order
 */
public record ReceivedSpan(String service, String name, String kind, String traceId, String spanId,
        String parentSpanId, String status, Map<String, Object> attributes, List<ReceivedLink> links) {

    /** Whether the span has no parent. */
    public boolean root() {
        return parentSpanId.isEmpty();
    }

    /** The attribute {@code key} as exported, or {@code null}. */
    public Object attribute(String key) {
        return attributes.get(key);
    }

    /** The integer attribute {@code key}, or {@code null}. */
    public Long longAttribute(String key) {
        Object value = attributes.get(key);
        return value instanceof Number n ? n.longValue() : null;
    }

    /** The string attribute {@code key}, or {@code null}. */
    public String stringAttribute(String key) {
        Object value = attributes.get(key);
        return value == null ? null : value.toString();
    }

    /** The links whose attribute {@code key} is {@code value}. */
    public List<ReceivedLink> linksWith(String key, String value) {
        return links.stream().filter(l -> value.equals(l.attribute(key))).toList();
    }
}
