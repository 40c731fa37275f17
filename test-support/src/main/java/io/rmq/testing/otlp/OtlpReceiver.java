package io.rmq.testing.otlp;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.zip.GZIPInputStream;

import com.google.protobuf.InvalidProtocolBufferException;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;

/**
 * An OTLP/HTTP trace receiver for tests: a JDK HTTP server on a free loopback port that accepts the exports of an
 * OpenTelemetry SDK ({@code POST /v1/traces}, {@code application/x-protobuf}, optionally gzip-compressed), keeps
 * every span it is sent, and lets a test wait for the spans it expects. Point the exporter at {@link #endpoint()}
 * with the protocol {@code http/protobuf} (for example {@code otel.exporter.otlp.endpoint},
 * {@code otel.exporter.otlp.protocol=http/protobuf}).
 *
 * <p>Answers {@code 415} to any other content type: the OTLP exporters of Java (the SDK, Open Liberty's
 * {@code mpTelemetry}, Quarkus) send protobuf only. Needs {@code io.opentelemetry.proto:opentelemetry-proto} and
 * {@code com.google.protobuf:protobuf-java} on the class path (optional dependencies of this module). Thread-safe.
 *
 * <pre>{@code
 * try (OtlpReceiver receiver = OtlpReceiver.start()) {
 *     // configure the SDK with receiver.endpoint(), run the application
 *     List<ReceivedSpan> sends = receiver.awaitSpans(s -> s.name().startsWith("send "), 3);
 * }
 * }</pre>
 */
public final class OtlpReceiver implements AutoCloseable {

    /** The path an OTLP/HTTP exporter posts spans to. */
    public static final String TRACES_PATH = "/v1/traces";
    /** How long {@link #awaitSpans} waits by default. */
    public static final Duration DEFAULT_WAIT = Duration.ofSeconds(30);

    private static final String PROTOBUF = "application/x-protobuf";
    private static final AtomicInteger THREADS = new AtomicInteger();

    private final HttpServer server;
    private final ExecutorService executor;
    private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();
    private final AtomicInteger exports = new AtomicInteger();

    private OtlpReceiver(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /** A receiver listening on a free port of the loopback interface. */
    public static OtlpReceiver start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "otlp-receiver-" + THREADS.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
            OtlpReceiver receiver = new OtlpReceiver(server, executor);
            server.createContext("/", receiver::handle);
            server.setExecutor(executor);
            server.start();
            return receiver;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the OTLP receiver's port on the loopback interface", e);
        }
    }

    /** The base URL to give an exporter as its OTLP endpoint: {@code http://127.0.0.1:<port>}. */
    public String endpoint() {
        InetSocketAddress address = server.getAddress();
        return "http://" + address.getAddress().getHostAddress() + ":" + address.getPort();
    }

    /** The full URL of the traces path, for exporters that take it ({@code ..._TRACES_ENDPOINT}). */
    public String tracesEndpoint() {
        return endpoint() + TRACES_PATH;
    }

    /** Every span received so far, in the order received. */
    public List<ReceivedSpan> spans() {
        return List.copyOf(spans);
    }

    /** The spans received so far that match {@code filter}. */
    public List<ReceivedSpan> spans(Predicate<ReceivedSpan> filter) {
        return spans.stream().filter(filter).toList();
    }

    /** How many export requests were accepted. */
    public int exports() {
        return exports.get();
    }

    /** Waits (at most {@link #DEFAULT_WAIT}) until {@code count} spans matching {@code filter} were received. */
    public List<ReceivedSpan> awaitSpans(Predicate<ReceivedSpan> filter, int count) {
        return awaitSpans(filter, count, DEFAULT_WAIT);
    }

    /** Waits (at most {@code atMost}) until {@code count} spans matching {@code filter} were received; returns them all. */
    public List<ReceivedSpan> awaitSpans(Predicate<ReceivedSpan> filter, int count, Duration atMost) {
        await("%d spans matching the filter at the OTLP receiver %s".formatted(count, endpoint()))
                .atMost(atMost).until(() -> spans(filter).size() >= count);
        return spans(filter);
    }

    /** Forgets the spans received so far. */
    public void clear() {
        spans.clear();
    }

    /** Stops listening and releases the port. */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!"POST".equals(exchange.getRequestMethod()) || !exchange.getRequestURI().getPath().endsWith(TRACES_PATH)) {
                answer(exchange, 404, "text/plain", "only POST " + TRACES_PATH);
                return;
            }
            String type = exchange.getRequestHeaders().getFirst("Content-Type");
            if (type == null || !type.startsWith(PROTOBUF)) {
                answer(exchange, 415, "text/plain", "only " + PROTOBUF + " is accepted, not " + type);
                return;
            }
            ExportTraceServiceRequest request;
            try (InputStream body = body(exchange)) {
                request = ExportTraceServiceRequest.parseFrom(body);
            } catch (InvalidProtocolBufferException e) {
                answer(exchange, 400, "text/plain", "not an ExportTraceServiceRequest: " + e.getMessage());
                return;
            }
            spans.addAll(OtlpSpans.of(request));
            exports.incrementAndGet();
            exchange.getResponseHeaders().set("Content-Type", PROTOBUF);
            byte[] ok = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            exchange.sendResponseHeaders(200, ok.length == 0 ? -1 : ok.length);
            if (ok.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(ok);
                }
            }
        }
    }

    private static InputStream body(HttpExchange exchange) throws IOException {
        InputStream body = exchange.getRequestBody();
        return "gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))
                ? new GZIPInputStream(body) : body;
    }

    private static void answer(HttpExchange exchange, int status, String type, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
