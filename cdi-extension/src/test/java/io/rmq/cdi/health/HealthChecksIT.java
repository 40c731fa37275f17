package io.rmq.cdi.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Outgoing;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.smallrye.health.AsyncHealthCheckFactory;
import io.smallrye.health.SmallRyeHealth;
import io.smallrye.health.SmallRyeHealthReporter;
import io.smallrye.health.registry.HealthRegistries;
import io.smallrye.mutiny.Multi;
import io.smallrye.reactive.messaging.health.HealthReport;
import io.smallrye.reactive.messaging.providers.extension.HealthCenter;
import io.rmq.cdi.RedisRmqExtension;
import io.rmq.connector.RedisRmqConnector;
import io.rmq.testing.WeldApp;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;

/**
 * The connector's health in SmallRye Reactive Messaging on Weld SE with the CDI extension, against a
 * real Redis that the tests stop and start again, read the two ways an application's runtime reads
 * it: the MicroProfile Health checks, evaluated by SmallRye Health ({@link SmallRyeHealthReporter}, as
 * it serves {@code /health/ready}), and SmallRye Reactive Messaging's {@link HealthCenter}, which
 * asks the connector's {@code HealthReporter}. Every wait is for a state, never a fixed time.
 */
@RedisTest
class HealthChecksIT {

    private static final String RMQ = RedisRmqConnector.CONNECTOR_NAME;
    /** Generous upper bound of every wait, never an expected duration. */
    private static final Duration WAIT = Duration.ofSeconds(30);

    private RedisTestServer redis;
    private WeldApp app;

    @BeforeEach
    void setUp(RedisTestServer redis) {
        this.redis = redis;
    }

    @AfterEach
    void tearDown() {
        if (app != null) {
            app.close();
        }
    }

    /** Consumes the channel "in". */
    @ApplicationScoped
    public static class Consumer {
        @Incoming("in")
        public void consume(String payload) {
        }
    }

    /** Feeds the outgoing channel "broken" from a stream that fails at once. */
    @ApplicationScoped
    public static class BrokenSource {
        @Outgoing("broken")
        public Multi<String> source() {
            return Multi.createFrom().failure(new IllegalStateException("the source broke"));
        }
    }

    /** An application with an incoming channel "in" and the given beans, the extension and SmallRye Health. */
    private WeldApp.Builder app(Class<?>... beans) {
        return WeldApp.builder()
                .extension(new RedisRmqExtension())
                .beans(SmallRyeHealthReporter.class, AsyncHealthCheckFactory.class, HealthRegistries.class)
                .beans(Consumer.class).beans(beans)
                .config("mp.messaging.connector." + RMQ + ".redis-uri", redis.uri())
                .incoming("in", RMQ, "topic", "orders", "topic-type", "FIXED_TIME", "poll-interval", 500,
                        "shutdown-timeout", 1_000);
    }

    // ---- reading the checks

    /** The {@code smallrye-redis-rmq} check in one of SmallRye Health's answers. */
    private static JsonObject ourCheck(SmallRyeHealth health) {
        return health.getPayload().getJsonArray("checks").stream()
                .map(JsonValue::asJsonObject)
                .filter(check -> RMQ.equals(check.getString("name")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no check named " + RMQ + " in " + health.getPayload()));
    }

    private static String status(JsonObject check) {
        return check.getString("status");
    }

    private static Map<String, String> data(JsonObject check) {
        return check.getJsonObject("data").entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> ((JsonString) e.getValue()).getString()));
    }

    private SmallRyeHealthReporter health() {
        return app.get(SmallRyeHealthReporter.class);
    }

    private HealthCenter healthCenter() {
        return app.get(HealthCenter.class);
    }

    /** SmallRye Reactive Messaging's view: channel name to its entry. */
    private static Map<String, HealthReport.ChannelInfo> channels(HealthReport report) {
        return report.getChannels().stream()
                .collect(Collectors.toMap(HealthReport.ChannelInfo::getChannel, Function.identity(), (a, b) -> a));
    }

    private void awaitReadiness(String status) {
        await().atMost(WAIT).untilAsserted(() -> assertThat(status(ourCheck(health().getReadiness()))).isEqualTo(status));
    }

    // ---- the tests

    @Test
    void everyCheckIsUpWhileRedisAnswersAndReadinessIsDownWhileItIsStopped() {
        app = app().outgoing("out", RMQ, "topic", "orders", "topic-type", "FIXED_TIME").start();

        awaitReadiness("UP");
        JsonObject readiness = ourCheck(health().getReadiness());
        assertThat(data(readiness)).containsOnly(
                Map.entry("in", "incoming, topic orders, UP"),
                Map.entry("out", "outgoing, topic orders, UP"));
        assertThat(status(ourCheck(health().getLiveness()))).isEqualTo("UP");
        assertThat(status(ourCheck(health().getStartup()))).isEqualTo("UP");
        assertThat(health().getReadiness().isDown()).isFalse();
        assertThat(channels(healthCenter().getReadiness()))
                .hasEntrySatisfying("in", c -> assertThat(c.isOk()).isTrue())
                .hasEntrySatisfying("out", c -> assertThat(c.isOk()).isTrue());

        redis.stop();

        awaitReadiness("DOWN");
        assertThat(data(ourCheck(health().getReadiness()))).containsOnly(
                Map.entry("in", "incoming, topic orders, REDIS_UNREACHABLE"),
                Map.entry("out", "outgoing, topic orders, REDIS_UNREACHABLE"));
        assertThat(health().getReadiness().isDown()).as("the application's readiness").isTrue();
        assertThat(status(ourCheck(health().getLiveness()))).as("liveness").isEqualTo("UP");
        assertThat(status(ourCheck(health().getStartup()))).as("startup").isEqualTo("UP");
        assertThat(healthCenter().getReadiness().isOk()).isFalse();
        assertThat(channels(healthCenter().getReadiness()).get("in").getMessage())
                .isEqualTo("incoming, topic orders, REDIS_UNREACHABLE");
        assertThat(healthCenter().getLiveness().isOk()).isTrue();

        redis.start();

        awaitReadiness("UP");
        assertThat(healthCenter().getReadiness().isOk()).isTrue();
    }

    @Test
    void startupIsDownUntilEveryChannelHasReachedRedisOnce() {
        redis.stop();
        app = app().start();

        JsonObject startup = ourCheck(health().getStartup());
        assertThat(status(startup)).isEqualTo("DOWN");
        assertThat(data(startup)).containsOnly(Map.entry("in", "incoming, topic orders, CONNECTING"));
        assertThat(healthCenter().getStartup().isOk()).isFalse();
        assertThat(status(ourCheck(health().getReadiness()))).isEqualTo("DOWN");
        assertThat(status(ourCheck(health().getLiveness()))).isEqualTo("UP");

        redis.start();

        await().atMost(WAIT).untilAsserted(() -> assertThat(status(ourCheck(health().getStartup()))).isEqualTo("UP"));
        awaitReadiness("UP");
        assertThat(healthCenter().getStartup().isOk()).isTrue();
    }

    @Test
    void livenessIsDownOnceAChannelHasFailedForGood() {
        app = app(BrokenSource.class).outgoing("broken", RMQ, "topic", "orders", "topic-type", "FIXED_TIME").start();

        await().atMost(WAIT).untilAsserted(() -> assertThat(status(ourCheck(health().getLiveness()))).isEqualTo("DOWN"));
        assertThat(data(ourCheck(health().getLiveness()))).containsOnly(
                Map.entry("in", "incoming, topic orders, UP"),
                Map.entry("broken", "outgoing, topic orders, FAILED: the source broke"));
        assertThat(status(ourCheck(health().getReadiness()))).isEqualTo("DOWN");
        assertThat(channels(healthCenter().getLiveness()))
                .hasEntrySatisfying("broken", c -> assertThat(c.isOk()).isFalse())
                .hasEntrySatisfying("in", c -> assertThat(c.isOk()).isTrue());
    }
}
