package io.rmq.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.rmq.testing.WeldApp;
import io.rmq.testing.redis.PlainRedis;
import io.rmq.testing.redis.RedisExtension;
import io.rmq.testing.redis.RedisTestServer;

/**
 * Expiry through the connector on Weld SE: the metadata's {@code withExpiresAt}/{@code withTimeToLive}, the outgoing
 * {@code time-to-live} default and the incoming {@code expired-to-dead}.
 */
@ExtendWith(RedisExtension.class)
class MessageExpiryChannelIT {

    private static final String RMQ = RedisRmqConnector.CONNECTOR_NAME;
    private static final Duration WAIT = Duration.ofSeconds(15);

    private String uri;
    private PlainRedis plain;
    private WeldApp app;

    @BeforeEach
    void setUp(RedisTestServer redis) {
        uri = redis.uri();
        plain = PlainRedis.connect(uri, false);
    }

    @AfterEach
    void tearDown() {
        if (app != null) {
            app.close();
        }
        plain.close();
    }

    private RedisClusterCommands<String, String> redis() {
        return plain.commands();
    }

    @Test
    void expiredMessagesAreNeverDeliveredAndGoToTheDeadQueueWhenTheChannelSaysSo() throws Exception {
        app = WeldApp.builder().beans(RedisRmqConnector.class).beans(ConnectorBeans.Sender.class, ConnectorBeans.Receiver.class)
                .config("mp.messaging.connector." + RMQ + ".redis-uri", uri)
                .outgoing("out", RMQ, "topic", "reminders", "topic-type", "FIXED_TIME", "slot-amount", 1,
                        "time-to-live", 200)
                .incoming("in", RMQ, "topic", "reminders", "topic-type", "FIXED_TIME", "slot-amount", 1,
                        "poll-interval", 500, "expired-to-dead", "true", "prepare-timeout", 1000)
                .start();
        ConnectorBeans.Sender sender = app.get(ConnectorBeans.Sender.class);
        Instant now = Instant.now();
        // the channel's time to live (200 ms) ends before it is due
        sender.send("by-default", OutgoingRmqMetadata.builder().withDeliverAt(now.plusMillis(1_500)).build())
                .toCompletableFuture().get(10, TimeUnit.SECONDS);
        sender.send("already-expired", OutgoingRmqMetadata.builder().withExpiresAt(now.minusSeconds(60)).build())
                .toCompletableFuture().get(10, TimeUnit.SECONDS);
        sender.send("lives-longer", OutgoingRmqMetadata.builder().withDeliverAt(now.plusMillis(500))
                .withTimeToLive(Duration.ofMinutes(5)).build()).toCompletableFuture().get(10, TimeUnit.SECONDS);

        ConnectorBeans.Receiver receiver = app.get(ConnectorBeans.Receiver.class);
        await().atMost(WAIT).until(() -> redis().zcard("dead{reminders_0}") == 2);
        await().atMost(WAIT).until(() -> receiver.payloads().size() == 1);
        assertThat(receiver.payloads()).containsExactly("lives-longer");
        assertThat(redis().zrange("dead{reminders_0}", 0, -1)).containsExactlyInAnyOrder("by-default", "already-expired");
        assertThat(redis().hget("failures{reminders_0}", "by-default")).endsWith("\texpired");
        assertThat(redis().hget("counters{reminders_0}", "expired")).isEqualTo("2");
        await().atMost(WAIT).until(() -> redis().exists("reminders_0", "prepare{reminders_0}", "expiry{reminders_0}",
                "held-expiry{reminders_0}") == 0);
    }
}
