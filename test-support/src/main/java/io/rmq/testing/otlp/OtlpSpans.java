package io.rmq.testing.otlp;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.google.protobuf.ByteString;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;

/** Turns an OTLP {@code ExportTraceServiceRequest} into {@link ReceivedSpan}s. Stateless. */
final class OtlpSpans {

    private static final HexFormat HEX = HexFormat.of();

    private OtlpSpans() {
    }

    /** The spans of one export request, in their order in it. */
    static List<ReceivedSpan> of(ExportTraceServiceRequest request) {
        List<ReceivedSpan> spans = new ArrayList<>();
        for (ResourceSpans resourceSpans : request.getResourceSpansList()) {
            String service = serviceName(resourceSpans.getResource());
            for (ScopeSpans scope : resourceSpans.getScopeSpansList()) {
                for (Span span : scope.getSpansList()) {
                    spans.add(span(service, span));
                }
            }
        }
        return spans;
    }

    private static ReceivedSpan span(String service, Span span) {
        List<ReceivedLink> links = span.getLinksList().stream()
                .map(l -> new ReceivedLink(hex(l.getTraceId()), hex(l.getSpanId()), attributes(l.getAttributesList())))
                .toList();
        return new ReceivedSpan(service, span.getName(), span.getKind().name().substring("SPAN_KIND_".length()),
                hex(span.getTraceId()), hex(span.getSpanId()), hex(span.getParentSpanId()),
                span.getStatus().getCode().name().substring("STATUS_CODE_".length()),
                attributes(span.getAttributesList()), links);
    }

    private static String serviceName(Resource resource) {
        Object name = attributes(resource.getAttributesList()).get("service.name");
        return name == null ? null : name.toString();
    }

    private static Map<String, Object> attributes(List<KeyValue> keyValues) {
        Map<String, Object> attributes = new LinkedHashMap<>();
        keyValues.forEach(kv -> attributes.put(kv.getKey(), value(kv.getValue())));
        return Collections.unmodifiableMap(attributes);
    }

    private static Object value(AnyValue value) {
        return switch (value.getValueCase()) {
            case STRING_VALUE -> value.getStringValue();
            case BOOL_VALUE -> value.getBoolValue();
            case INT_VALUE -> value.getIntValue();
            case DOUBLE_VALUE -> value.getDoubleValue();
            case ARRAY_VALUE -> value.getArrayValue().getValuesList().stream().map(OtlpSpans::value).toList();
            case KVLIST_VALUE -> attributes(value.getKvlistValue().getValuesList());
            case BYTES_VALUE -> value.getBytesValue().toByteArray();
            case VALUE_NOT_SET -> null;
        };
    }

    private static String hex(ByteString bytes) {
        return HEX.formatHex(bytes.toByteArray());
    }
}
