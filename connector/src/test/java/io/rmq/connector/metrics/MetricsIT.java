package io.rmq.connector.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.annotation.RegistryType;
import org.eclipse.microprofile.reactive.messaging.spi.ConnectorLiteral;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.api.sync.RedisCommands;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.smallrye.metrics.legacyapi.LegacyMetricsExtension;
import io.rmq.connector.RedisRmqConnector;
import io.rmq.engine.settlement.EngineEvents;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.WeldApp;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;

/**
 * The connector's metrics on SmallRye Reactive Messaging and Weld, against a real Redis: exact counts
 * after a known workload, in Micrometer, OpenTelemetry and MicroProfile Metrics (SmallRye Metrics) at once,
 * and nothing bound where the application has no metrics library.
 *
 * <p>The workload: 100 sends to a {@code RANGE_MERGE} topic, 60 distinct contents and 40 duplicates of
 * pending ones (60 stored, 40 merged); the consumer nacks every delivery of 3 of them ({@code max-retries=2}:
 * 3 deliveries each, 9 nacks, 3 dead) and the first delivery of a fourth (1 nack); one message left in the
 * prepare queue by a consumer that died is rolled back at its deadline (1 redelivered) and then acked.
 * So 68 deliveries, 58 acks, 10 nacks.
 */
@RedisTest
@SuppressWarnings("deprecation") // @RegistryType: the qualifier of the application registry's producer without an injection point
class MetricsIT {

    private static final String RMQ = RedisRmqConnector.CONNECTOR_NAME;
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** SmallRye Metrics keeps one application registry per JVM: each test uses a topic of its own. */
    private static final AtomicInteger TOPICS = new AtomicInteger();

    private String uri;
    private RedisCommands<String, String> redis;
    private WeldApp app;
    private String topic;

    @BeforeEach
    void setUp(RedisTestServer server, RedisConnections connections) {
        uri = server.uri();
        redis = connections.sync();
        topic = "metered-" + TOPICS.incrementAndGet();
    }

    @AfterEach
    void tearDown() {
        if (app != null) {
            app.close();
        }
    }

    private WeldApp.Builder app(Class<?>... beans) {
        return WeldApp.builder().beans(RedisRmqConnector.class, MeteredBeans.Sender.class, MeteredBeans.Consumer.class)
                .beans(beans)
                .config("mp.messaging.connector." + RMQ + ".redis-uri", uri)
                .outgoing("out", RMQ, "topic", topic, "topic-type", "RANGE_MERGE", "slot-amount", 1,
                        "time-range", 2000)
                .incoming("in", RMQ, "topic", topic, "topic-type", "RANGE_MERGE", "slot-amount", 1,
                        "max-retries", 2, "retry-backoff", 0, "prepare-timeout", 1000, "poll-interval", 200);
    }

    /** Runs the workload and waits until every message is settled. */
    private void runWorkload() throws Exception {
        MeteredBeans.Sender sender = app.get(MeteredBeans.Sender.class);
        List<CompletableFuture<Void>> sends = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            String kind = i < 3 ? "poison-" : i == 3 ? "flaky-" : "fine-";
            sends.add(sender.send(kind + i));
        }
        for (int i = 0; i < 40; i++) {
            String kind = i < 3 ? "poison-" : i == 3 ? "flaky-" : "fine-";
            sends.add(sender.send(kind + i)); // pending for 2 s: merges
        }
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
        // what a consumer that popped a message and died leaves behind: past its deadline already
        redis.zadd("prepare{" + topic + "_0}", (double) (System.currentTimeMillis() - 1), "abandoned");

        MeteredBeans.Consumer consumer = app.get(MeteredBeans.Consumer.class);
        await().atMost(WAIT).until(() -> consumer.received().size() == 68
                && redis.zcard("dead{" + topic + "_0}") == 3
                && redis.zcard(topic + "_0") == 0 && redis.zcard("prepare{" + topic + "_0}") == 0);
    }

    @Test
    void countsAreExactInMicrometerOpenTelemetryAndMicroProfileMetricsAtOnce() throws Exception {
        app = app(MeteredBeans.MicrometerRegistry.class, MeteredBeans.Telemetry.class)
                .extension(new LegacyMetricsExtension()).start();
        runWorkload();
        // as the admin endpoints tell a requeue: through the EngineEvents bean the connector produces
        app.get(EngineEvents.class).requeued(new TopicDefinition(topic, 1, TopicType.RANGE_MERGE), 2);

        Map<String, Long> expectedPerChannel = Map.of("rmq.messages.sent", 60L, "rmq.messages.merged", 40L);
        Map<String, Long> expectedIncoming = Map.of("rmq.messages.delivered", 68L, "rmq.messages.acked", 58L,
                "rmq.messages.nacked", 10L);
        Map<String, Long> expectedPerTopic = Map.of("rmq.messages.redelivered", 1L, "rmq.messages.dead", 3L,
                "rmq.messages.requeued", 2L);
        Map<String, Double> expectedGauges = Map.of("rmq.queue.pending", 0.0, "rmq.queue.due", 0.0,
                "rmq.queue.oldest.due.age", 0.0, "rmq.queue.inflight", 0.0, "rmq.queue.dead", 3.0);

        // Micrometer
        MeterRegistry micrometer = app.get(MeterRegistry.class);
        // the last ack may still be on its way to the counter when the consumer's list is complete
        await().atMost(WAIT).until(() -> micrometer.get("rmq.messages.acked").tags("channel", "in").counter().count() == 58);
        expectedPerChannel.forEach((name, n) -> assertThat(micrometer.get(name).tags("topic", topic, "channel", "out")
                .counter().count()).as(name).isEqualTo(n.doubleValue()));
        expectedIncoming.forEach((name, n) -> assertThat(micrometer.get(name).tags("topic", topic, "channel", "in")
                .counter().count()).as(name).isEqualTo(n.doubleValue()));
        expectedPerTopic.forEach((name, n) -> assertThat(micrometer.get(name).tags("topic", topic).counter().count())
                .as(name).isEqualTo(n.doubleValue()));
        assertThat(micrometer.get("rmq.processing.duration").tags("channel", "in").timer().count()).isEqualTo(68);
        assertThat(micrometer.get("rmq.delivery.lateness").tags("channel", "in").timer().count()).isEqualTo(68);
        // a gauge shows no value (NaN) until the topic's first read from Redis is back: on a loaded machine that
        // read may take longer than a gauge waits for it
        await().atMost(WAIT).untilAsserted(() -> expectedGauges.forEach((name, v) -> assertThat(
                micrometer.get(name).tags("topic", topic).gauge().value()).as(name).isEqualTo(v)));

        // OpenTelemetry
        InMemoryMetricReader otel = app.get(MeteredBeans.Telemetry.class).reader();
        Map<String, MetricData> collected = new java.util.HashMap<>();
        otel.collectAllMetrics().forEach(m -> collected.put(m.getName(), m));
        Attributes out = Attributes.of(AttributeKey.stringKey("topic"), topic, AttributeKey.stringKey("channel"), "out");
        Attributes in = Attributes.of(AttributeKey.stringKey("topic"), topic, AttributeKey.stringKey("channel"), "in");
        Attributes perTopic = Attributes.of(AttributeKey.stringKey("topic"), topic);
        expectedPerChannel.forEach((name, n) -> assertThat(sum(collected.get(name), out)).as(name).isEqualTo(n));
        expectedIncoming.forEach((name, n) -> assertThat(sum(collected.get(name), in)).as(name).isEqualTo(n));
        expectedPerTopic.forEach((name, n) -> assertThat(sum(collected.get(name), perTopic)).as(name).isEqualTo(n));
        assertThat(collected.get("rmq.processing.duration").getHistogramData().getPoints())
                .filteredOn(p -> p.getAttributes().equals(in)).singleElement()
                .satisfies(p -> assertThat(p.getCount()).isEqualTo(68));
        assertThat(collected.get("rmq.queue.dead").getDoubleGaugeData().getPoints())
                .filteredOn(p -> p.getAttributes().equals(perTopic)).singleElement()
                .satisfies(p -> assertThat(p.getValue()).isEqualTo(3.0));

        // MicroProfile Metrics (SmallRye Metrics)
        MetricRegistry mp = app.container().select(MetricRegistry.class, new RegistryTypeApplication()).get();
        expectedPerChannel.forEach((name, n) -> assertThat(mp.getCounter(id(name, "out")).getCount()).as(name).isEqualTo(n));
        expectedIncoming.forEach((name, n) -> assertThat(mp.getCounter(id(name, "in")).getCount()).as(name).isEqualTo(n));
        expectedPerTopic.forEach((name, n) -> assertThat(mp.getCounter(id(name, null)).getCount()).as(name).isEqualTo(n));
        assertThat(mp.getTimer(id("rmq.processing.duration", "in")).getCount()).isEqualTo(68);
        expectedGauges.forEach((name, v) -> assertThat(mp.getGauge(id(name, null)).getValue().doubleValue())
                .as(name).isEqualTo(v));

        // stopping the application removes the gauges and ends the gauges' thread and Redis connection
        app.close();
        app = null;
        assertThat(micrometer.find("rmq.queue.pending").gauges()).isEmpty();
        assertThat(mp.getGauge(id("rmq.queue.pending", null))).isNull();
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().equals(TopicStateReader.THREAD_NAME));
        // the test's own connection alone; a failure lists the others (their last command and age tell whose)
        await().atMost(WAIT).untilAsserted(() -> assertThat(redis.clientList().lines())
                .as("Redis connections left open after the application closed").hasSize(1));
    }

    @Test
    void theFlowMetersShowTheLimitTheRateAndTheWaits() throws Exception {
        app = app(MeteredBeans.MicrometerRegistry.class)
                .config("mp.messaging.incoming.in.rate-limit", "20/s")
                .config("mp.messaging.incoming.in.rate-limit-burst", "1").start();
        MeteredBeans.Sender sender = app.get(MeteredBeans.Sender.class);
        List<CompletableFuture<Void>> sends = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            sends.add(sender.send("fine-" + i));
        }
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
        await().atMost(WAIT).until(() -> app.get(MeteredBeans.Consumer.class).received().size() == 10);

        MeterRegistry micrometer = app.get(MeterRegistry.class);
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(micrometer.get("rmq.flow.limit").tags("topic", topic).gauge().value()).isEqualTo(20.0);
            assertThat(micrometer.get("rmq.flow.rate").tags("topic", topic).gauge().value()).isEqualTo(20.0);
        });
        // ten messages due together, one permit every 50 ms: the channel waited for most of them
        assertThat(micrometer.get("rmq.flow.throttled").tags("topic", topic, "channel", "in").timer().count())
                .isPositive();
        assertThat(connector().channelSnapshots()).allSatisfy(c -> assertThat(c.isAlive()).isTrue());
    }

    @Test
    void withoutAMetricsLibraryNothingIsBoundAndMessagesFlow() throws Exception {
        app = app().start();
        app.get(MeteredBeans.Sender.class).send("fine-1").get(10, TimeUnit.SECONDS);
        await().atMost(WAIT).until(() -> app.get(MeteredBeans.Consumer.class).received().size() == 1);
        assertThat(connector().metrics().isEnabled()).isFalse();
    }

    @Test
    void theSettingLimitsTheLibraries() throws Exception {
        app = app(MeteredBeans.MicrometerRegistry.class, MeteredBeans.Telemetry.class)
                .config("mp.messaging.connector." + RMQ + ".metrics", "micrometer").start();
        app.get(MeteredBeans.Sender.class).send("fine-1").get(10, TimeUnit.SECONDS);
        assertThat(app.get(MeterRegistry.class).get("rmq.messages.sent").tags("topic", topic).counter().count())
                .isEqualTo(1.0);
        assertThat(app.get(MeteredBeans.Telemetry.class).reader().collectAllMetrics()).isEmpty();
    }

    /** The connector bean, as an application injects it: {@code @Inject @Connector("smallrye-redis-rmq")}. */
    private RedisRmqConnector connector() {
        return app.container().select(RedisRmqConnector.class, ConnectorLiteral.of(RMQ)).get();
    }

    private MetricID id(String name, String channel) {
        return channel == null ? new MetricID(name, new Tag("topic", topic))
                : new MetricID(name, new Tag("topic", topic), new Tag("channel", channel));
    }

    private static long sum(MetricData metric, Attributes attributes) {
        assertThat(metric).as("an OpenTelemetry metric").isNotNull();
        return metric.getLongSumData().getPoints().stream().filter(p -> p.getAttributes().equals(attributes))
                .mapToLong(p -> p.getValue()).sum();
    }

    @SuppressWarnings("all")
    private static final class RegistryTypeApplication extends jakarta.enterprise.util.AnnotationLiteral<RegistryType>
            implements RegistryType {
        @Override
        public MetricRegistry.Type type() {
            return MetricRegistry.Type.APPLICATION;
        }
    }
}
