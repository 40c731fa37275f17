package io.rmq.examples.quarkus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.rmq.testing.redis.EmbeddedRedis;

/**
 * The connector in Quarkus's own operations endpoints, on the packaged example started as a process:
 * every channel in the "SmallRye Reactive Messaging" health checks ({@code /q/health/*}, through
 * {@code rmq-quarkus-health}'s health reporter), and the connector's meters in {@code /q/metrics} (Micrometer's
 * Prometheus registry). The Redis is the test's own, given with {@code RMQ_REDIS_URI}, so that the test
 * can stop it and start it again on the same port.
 */
class HealthAndMetricsIT {

    private static final String CHANNELS_CHECK = "SmallRye Reactive Messaging - readiness check";
    private static final String[] CHANNELS = {"tasks", "tasks-out", "price-refresh", "price-refresh-out",
            "order-timeouts", "order-timeouts-out", "stock-reports", "stock-reports-out"};

    @Test
    void everyChannelIsInQuarkusHealthChecksAndReadinessFollowsRedis() {
        try (EmbeddedRedis redis = EmbeddedRedis.start();
             PackagedApp app = PackagedApp.start("health", Map.of(EmbeddedRedis.EXTERNAL_URI, redis.uri())).awaitListening()) {
            await().atMost(PackagedApp.WAIT).untilAsserted(() -> assertThat(app.call("GET", "/q/health/ready", null).statusCode()).isEqualTo(200));
            String ready = app.call("GET", "/q/health/ready", null).body();
            assertThat(ready).contains(CHANNELS_CHECK);
            for (String channel : CHANNELS) {
                assertThat(ready).as("readiness lists channel %s as OK", channel).containsPattern(
                        "\"" + Pattern.quote(channel) + "\"\\s*:\\s*\"\\[OK\\] - (incoming|outgoing), topic ");
            }
            assertThat(app.call("GET", "/q/health/started", null).statusCode()).isEqualTo(200);

            redis.stop();
            await().atMost(PackagedApp.WAIT).untilAsserted(() -> {
                HttpResponse<String> down = app.call("GET", "/q/health/ready", null);
                assertThat(down.statusCode()).as("readiness while Redis is down").isEqualTo(503);
                assertThat(down.body()).containsPattern("\"tasks\"\\s*:\\s*\"\\[KO\\] - incoming, topic tasks, ");
            });
            assertThat(app.call("GET", "/q/health/live", null).statusCode())
                    .as("liveness stays UP during an outage: restarting the application would not bring Redis back").isEqualTo(200);

            redis.restart();
            await().atMost(PackagedApp.WAIT).untilAsserted(() -> assertThat(app.call("GET", "/q/health/ready", null).statusCode())
                    .as("readiness once Redis is back").isEqualTo(200));
        }
    }

    @Test
    void theConnectorsMetersAreInQuarkusMetricsEndpoint() {
        try (EmbeddedRedis redis = EmbeddedRedis.start();
             PackagedApp app = PackagedApp.start("metrics", Map.of(EmbeddedRedis.EXTERNAL_URI, redis.uri())).awaitListening()) {
            assertThat(app.call("POST", "/api/tasks?priority=5", "measure me").statusCode()).isEqualTo(202);
            await().atMost(PackagedApp.WAIT).untilAsserted(() -> {
                String metrics = app.call("GET", "/q/metrics", null).body();
                assertThat(sample(metrics, "rmq_messages_sent_total", "tasks-out")).as("sent by tasks-out").isEqualTo(1.0);
                assertThat(sample(metrics, "rmq_messages_acked_total", "tasks")).as("acked by tasks").isEqualTo(1.0);
            });
            String metrics = app.call("GET", "/q/metrics", null).body();
            assertThat(metrics).contains("rmq_queue_pending{").contains("rmq_processing_duration_seconds_count{");
            assertThat(app.output()).contains("RMQ-1050 The connector's metrics are published through Micrometer");
        }
    }

    /** The value of {@code name}'s sample for {@code channel} in Prometheus text, or -1 when absent. */
    private static double sample(String metrics, String name, String channel) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{[^}]*channel=\"" + Pattern.quote(channel)
                + "\"[^}]*} (\\S+)$").matcher(metrics);
        return m.find() ? Double.parseDouble(m.group(1)) : -1;
    }
}
