package io.rmq.testing.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.google.protobuf.ByteString;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;

/** The receiver decodes what an OTLP/HTTP exporter posts, and refuses what it cannot read. */
class OtlpReceiverTest {

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String OTHER_TRACE = "0af7651916cd43dd8448eb211c80319c";

    private final OtlpReceiver receiver = OtlpReceiver.start();
    private final HttpClient client = HttpClient.newHttpClient();

    @AfterEach
    void close() {
        receiver.close();
    }

    @Test
    void keepsTheSpansOfAnExportWithTheirParentLinksAndAttributes() throws Exception {
        HttpResponse<byte[]> response = post(request().toByteArray(), "application/x-protobuf", false);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(receiver.endpoint()).startsWith("http://127.0.0.1:");
        List<ReceivedSpan> spans = receiver.awaitSpans(s -> s.name().equals("process orders"), 1);
        ReceivedSpan span = spans.get(0);
        assertThat(span.service()).isEqualTo("shop");
        assertThat(span.kind()).isEqualTo("CONSUMER");
        assertThat(span.traceId()).isEqualTo(TRACE);
        assertThat(span.spanId()).isEqualTo("00f067aa0ba902b7");
        assertThat(span.parentSpanId()).isEqualTo("b7ad6b7169203331");
        assertThat(span.root()).isFalse();
        assertThat(span.status()).isEqualTo("ERROR");
        assertThat(span.stringAttribute("messaging.system")).isEqualTo("redis-rmq");
        assertThat(span.longAttribute("rmq.attempt")).isEqualTo(2);
        assertThat(span.attribute("rmq.flags")).isEqualTo(List.of(true, 1.5));
        assertThat(span.links()).singleElement().satisfies(link -> {
            assertThat(link.traceId()).isEqualTo(OTHER_TRACE);
            assertThat(link.spanId()).isEqualTo("53995c3f42cd8ad8");
            assertThat(link.attribute("rmq.link")).isEqualTo("send");
        });
        assertThat(span.linksWith("rmq.link", "send")).hasSize(1);
        assertThat(receiver.exports()).isEqualTo(1);
    }

    @Test
    void readsAGzipCompressedExport() throws Exception {
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(zipped)) {
            gzip.write(request().toByteArray());
        }
        assertThat(post(zipped.toByteArray(), "application/x-protobuf", true).statusCode()).isEqualTo(200);
        assertThat(receiver.spans()).hasSize(1);
    }

    @Test
    void refusesOtherContentTypesAndBrokenMessagesAndKeepsNothing() throws Exception {
        assertThat(post("{}".getBytes(), "application/json", false).statusCode()).isEqualTo(415);
        assertThat(post(new byte[] {(byte) 0xff, 1, 2}, "application/x-protobuf", false).statusCode()).isEqualTo(400);
        receiver.clear();
        assertThat(receiver.spans()).isEmpty();
        assertThat(receiver.exports()).isZero();
    }

    private HttpResponse<byte[]> post(byte[] body, String type, boolean gzip) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(receiver.tracesEndpoint()))
                .header("Content-Type", type)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (gzip) {
            request.header("Content-Encoding", "gzip");
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static ExportTraceServiceRequest request() {
        Span span = Span.newBuilder()
                .setName("process orders")
                .setKind(Span.SpanKind.SPAN_KIND_CONSUMER)
                .setTraceId(bytes(TRACE))
                .setSpanId(bytes("00f067aa0ba902b7"))
                .setParentSpanId(bytes("b7ad6b7169203331"))
                .setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_ERROR))
                .addAttributes(kv("messaging.system", AnyValue.newBuilder().setStringValue("redis-rmq")))
                .addAttributes(kv("rmq.attempt", AnyValue.newBuilder().setIntValue(2)))
                .addAttributes(kv("rmq.flags", AnyValue.newBuilder().setArrayValue(
                        io.opentelemetry.proto.common.v1.ArrayValue.newBuilder()
                                .addValues(AnyValue.newBuilder().setBoolValue(true))
                                .addValues(AnyValue.newBuilder().setDoubleValue(1.5)))))
                .addLinks(Span.Link.newBuilder().setTraceId(bytes(OTHER_TRACE)).setSpanId(bytes("53995c3f42cd8ad8"))
                        .addAttributes(kv("rmq.link", AnyValue.newBuilder().setStringValue("send"))))
                .build();
        return ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(ResourceSpans.newBuilder()
                        .setResource(Resource.newBuilder()
                                .addAttributes(kv("service.name", AnyValue.newBuilder().setStringValue("shop"))))
                        .addScopeSpans(ScopeSpans.newBuilder().addSpans(span)))
                .build();
    }

    private static KeyValue kv(String key, AnyValue.Builder value) {
        return KeyValue.newBuilder().setKey(key).setValue(value).build();
    }

    private static ByteString bytes(String hex) {
        return ByteString.copyFrom(HexFormat.of().parseHex(hex));
    }
}
