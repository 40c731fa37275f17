package io.rmq.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rmq.engine.admin.RmqAdmin;
import io.rmq.testing.WeldApp;
import io.rmq.engine.schedule.ScheduleInfo;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;

/**
 * A schedule declared on an outgoing channel is recorded when the application starts and run by it: one message
 * a tick reaches the incoming channel, scored with its tick time; operators see it in the admin API.
 */
@RedisTest
class ScheduledChannelIT {

    private static final String RMQ = RedisRmqConnector.CONNECTOR_NAME;
    private WeldApp app;

    @AfterEach
    void tearDown() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void aDeclaredScheduleSendsOneMessageATick(RedisTestServer redis) {
        String prefix = "chan" + System.nanoTime() + ":";
        app = WeldApp.builder().beans(RedisRmqConnector.class).beans(ConnectorBeans.Sender.class, ConnectorBeans.Receiver.class)
                .config("mp.messaging.connector." + RMQ + ".redis-uri", redis.uri())
                .outgoing("out", RMQ, "topic", "beats", "topic-type", "FIXED_TIME", "slot-amount", 2, "key-prefix", prefix,
                        "schedules.heartbeat.every", "PT1S", "schedules.heartbeat.payload", "beat",
                        "schedules.heartbeat.missed", "catch-up")
                .incoming("in", RMQ, "topic", "beats", "topic-type", "FIXED_TIME", "slot-amount", 2, "key-prefix", prefix,
                        "shutdown-timeout", 2000)
                .start();
        ConnectorBeans.Receiver receiver = app.get(ConnectorBeans.Receiver.class);
        await().atMost(Duration.ofSeconds(20)).until(() -> receiver.payloads().size() >= 3);

        List<Double> ticks = receiver.metadata().stream().map(IncomingRmqMetadata::getScore).toList();
        assertThat(receiver.payloads()).containsOnly("beat");
        assertThat(ticks).doesNotHaveDuplicates().allSatisfy(t -> assertThat(t % 1000).isZero());
        try (RmqAdmin admin = RmqAdmin.connect(redis.uri())) {
            List<ScheduleInfo> schedules = admin.schedules(prefix);
            assertThat(schedules).singleElement().satisfies(s -> {
                assertThat(s.definition().name()).isEqualTo("heartbeat");
                assertThat(s.definition().timing().describe()).isEqualTo("every=PT1S");
                assertThat(s.lastTick()).isPresent();
            });
        }
    }
}
