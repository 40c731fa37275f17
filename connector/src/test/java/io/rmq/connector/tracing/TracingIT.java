package io.rmq.connector.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.api.sync.RedisCommands;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.rmq.connector.RedisRmqConnector;
import io.rmq.testing.WeldApp;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;

/**
 * Tracing on SmallRye Reactive Messaging and Weld, with an in-memory span exporter, against a real Redis: a send and
 * its delivery joined in one trace through the context stored in Redis; a delivery that merged 50 sends links them
 * (or the bound, with the count); a retry links the attempt before it; with tracing off nothing is stored.
 */
@RedisTest
class TracingIT {

    private static final String RMQ = RedisRmqConnector.CONNECTOR_NAME;
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final AtomicInteger TOPICS = new AtomicInteger();

    private String uri;
    private RedisCommands<String, String> redis;
    private WeldApp app;
    private String topic;

    @BeforeEach
    void setUp(RedisTestServer server, RedisConnections connections) {
        uri = server.uri();
        redis = connections.sync();
        topic = "traced-" + TOPICS.incrementAndGet();
    }

    @AfterEach
    void tearDown() {
        if (app != null) {
            app.close();
        }
    }

    /** An application whose two channels share the topic, with these attributes on both. */
    private WeldApp start(long timeRange, Object... attributes) {
        List<Object> out = new ArrayList<>(List.of("topic", topic, "topic-type", "RANGE_MERGE", "slot-amount", 1,
                "time-range", timeRange));
        List<Object> in = new ArrayList<>(List.of("topic", topic, "topic-type", "RANGE_MERGE", "slot-amount", 1,
                "retry-backoff", 0, "poll-interval", 200));
        out.addAll(List.of(attributes));
        in.addAll(List.of(attributes));
        app = WeldApp.builder()
                .beans(RedisRmqConnector.class, TracedBeans.Sender.class, TracedBeans.Consumer.class, TracedBeans.Telemetry.class)
                .config("mp.messaging.connector." + RMQ + ".redis-uri", uri)
                .outgoing("out", RMQ, out.toArray())
                .incoming("in", RMQ, in.toArray())
                .start();
        return app;
    }

    private void send(String... payloads) throws Exception {
        TracedBeans.Sender sender = app.get(TracedBeans.Sender.class);
        List<CompletableFuture<Void>> sends = new ArrayList<>();
        for (String p : payloads) {
            sends.add(sender.send(p));
        }
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
    }

    private List<SpanData> spans(SpanKind kind) {
        return app.get(TracedBeans.Telemetry.class).exporter().getFinishedSpanItems().stream()
                .filter(s -> s.getKind() == kind).toList();
    }

    /** The process spans once {@code count} have ended. */
    private List<SpanData> awaitProcessSpans(int count) {
        await().atMost(WAIT).until(() -> spans(SpanKind.CONSUMER).size() >= count);
        return spans(SpanKind.CONSUMER);
    }

    private String traceKey() {
        return "trace{" + topic + "_0}";
    }

    @Test
    void aSendAndItsDeliveryAreOneTraceJoinedThroughRedis() throws Exception {
        start(1000);
        send("one");
        assertThat(redis.hlen(traceKey())).as("the send's context, stored beside the pending message").isEqualTo(1);

        SpanData process = awaitProcessSpans(1).get(0);
        SpanData sendSpan = spans(SpanKind.PRODUCER).get(0);
        assertThat(sendSpan.getName()).isEqualTo("send " + topic);
        assertThat(sendSpan.getAttributes().get(AttributeKey.stringKey("messaging.system"))).isEqualTo("redis-rmq");
        assertThat(sendSpan.getAttributes().get(AttributeKey.stringKey("messaging.destination.name"))).isEqualTo(topic);
        assertThat(sendSpan.getAttributes().get(AttributeKey.stringKey("messaging.operation.type"))).isEqualTo("send");
        assertThat(sendSpan.getAttributes().get(AttributeKey.longKey("rmq.slot"))).isZero();
        assertThat(sendSpan.getAttributes().get(AttributeKey.stringKey("rmq.topic.type"))).isEqualTo("RANGE_MERGE");

        assertThat(process.getName()).isEqualTo("process " + topic);
        assertThat(process.getTraceId()).isEqualTo(sendSpan.getTraceId());
        assertThat(process.getParentSpanId()).isEqualTo(sendSpan.getSpanId());
        assertThat(process.getAttributes().get(AttributeKey.stringKey("messaging.operation.type"))).isEqualTo("process");
        assertThat(process.getAttributes().get(AttributeKey.longKey("rmq.attempt"))).isEqualTo(1);
        assertThat(process.getAttributes().get(AttributeKey.longKey("rmq.merged_sends"))).isEqualTo(1);
        assertThat(process.getAttributes().get(AttributeKey.stringKey("rmq.outcome"))).isEqualTo("ack");
        await().atMost(WAIT).until(() -> redis.exists(traceKey()) == 0);
    }

    @Test
    void aDeliveryThatMerged50SendsLinksEachOfThem() throws Exception {
        start(1500, "tracing-max-links", 64);
        send(fifty("hot"));
        SpanData process = awaitProcessSpans(1).get(0);
        List<SpanData> sends = spans(SpanKind.PRODUCER);
        assertThat(sends).hasSize(50);
        assertThat(process.getLinks()).hasSize(50).extracting(l -> l.getSpanContext().getSpanId())
                .containsExactlyInAnyOrderElementsOf(sends.stream().map(SpanData::getSpanId).toList());
        assertThat(process.getLinks()).allMatch(l -> "send".equals(l.getAttributes().get(AttributeKey.stringKey("rmq.link"))));
        assertThat(process.getAttributes().get(AttributeKey.longKey("rmq.merged_sends"))).isEqualTo(50);
        assertThat(process.getParentSpanId()).as("a merged delivery starts a trace of its own")
                .isEqualTo(io.opentelemetry.api.trace.SpanId.getInvalid());
        TraceDiagram.render(app.get(TracedBeans.Telemetry.class).exporter().getFinishedSpanItems(),
                Path.of("target", "tracing", "merged-delivery.png"));
    }

    @Test
    void beyondTheBoundADeliveryLinksTheFirstSendsAndCountsThemAll() throws Exception {
        start(1500);
        send(fifty("hot"));
        SpanData process = awaitProcessSpans(1).get(0);
        assertThat(process.getLinks()).as("tracing-max-links, 32 by default").hasSize(32);
        assertThat(process.getAttributes().get(AttributeKey.longKey("rmq.merged_sends"))).isEqualTo(50);
    }

    @Test
    void aRetryLinksTheAttemptBeforeIt() throws Exception {
        start(100);
        send("flaky-1");
        await().atMost(WAIT).until(() -> app.get(TracedBeans.Consumer.class).acked().contains("flaky-1"));
        List<SpanData> process = awaitProcessSpans(2);
        SpanData first = process.stream().filter(s -> s.getAttributes().get(AttributeKey.longKey("rmq.attempt")) == 1)
                .findFirst().orElseThrow();
        SpanData second = process.stream().filter(s -> s.getAttributes().get(AttributeKey.longKey("rmq.attempt")) == 2)
                .findFirst().orElseThrow();
        assertThat(first.getAttributes().get(AttributeKey.stringKey("rmq.outcome"))).isEqualTo("retry");
        assertThat(first.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(second.getAttributes().get(AttributeKey.stringKey("rmq.outcome"))).isEqualTo("ack");
        assertThat(second.getParentSpanId()).as("still the send's child").isEqualTo(first.getParentSpanId());
        List<LinkData> attempts = second.getLinks().stream()
                .filter(l -> "previous-attempt".equals(l.getAttributes().get(AttributeKey.stringKey("rmq.link")))).toList();
        assertThat(attempts).singleElement().satisfies(l -> assertThat(l.getSpanContext().getSpanId()).isEqualTo(first.getSpanId()));
        await().atMost(WAIT).until(() -> redis.exists(traceKey()) == 0);
    }

    @Test
    void withTracingOffNothingIsStoredInRedisAndNoSpanIsMade() throws Exception {
        start(1000, "tracing-enabled", false);
        send("quiet", "quiet");
        assertThat(redis.zcard(topic + "_0")).as("pending").isEqualTo(1);
        assertThat(redis.exists(traceKey())).isZero();
        await().atMost(WAIT).until(() -> app.get(TracedBeans.Consumer.class).acked().contains("quiet"));
        assertThat(redis.exists(traceKey())).isZero();
        assertThat(app.get(TracedBeans.Telemetry.class).exporter().getFinishedSpanItems()).isEmpty();
    }

    private static String[] fifty(String payload) {
        String[] p = new String[50];
        java.util.Arrays.fill(p, payload);
        return p;
    }
}
