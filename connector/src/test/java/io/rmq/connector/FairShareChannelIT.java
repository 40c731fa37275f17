package io.rmq.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
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
 * Fair share through the connector on Weld SE: the metadata's {@code withTenant}, the outgoing {@code tenant-from-key}
 * and the incoming {@code fair-share} and {@code tenant-weights}.
 */
@ExtendWith(RedisExtension.class)
class FairShareChannelIT {

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
    void tenantsFromTheMetadataOrTheKeyWaitInTheirQueuesAndAreAllDelivered() throws Exception {
        app = WeldApp.builder().beans(RedisRmqConnector.class).beans(ConnectorBeans.Sender.class, ConnectorBeans.Receiver.class)
                .config("mp.messaging.connector." + RMQ + ".redis-uri", uri)
                .outgoing("out", RMQ, "topic", "jobs", "topic-type", "PRIORITY", "slot-amount", 1, "priority", 1,
                        "tenant-from-key", "^([^:]+):")
                .incoming("in", RMQ, "topic", "jobs", "topic-type", "PRIORITY", "slot-amount", 1,
                        "poll-interval", 500, "fair-share", "true", "tenant-weights", "acme:3,globex:1")
                .start();
        ConnectorBeans.Sender sender = app.get(ConnectorBeans.Sender.class);
        sender.send("by-metadata", OutgoingRmqMetadata.builder().withTenant("globex").build())
                .toCompletableFuture().get(10, TimeUnit.SECONDS);
        sender.send("by-key", OutgoingRmqMetadata.builder().withSlotBasis("acme:order-1").build())
                .toCompletableFuture().get(10, TimeUnit.SECONDS);
        sender.send("plain", OutgoingRmqMetadata.builder().build()).toCompletableFuture().get(10, TimeUnit.SECONDS);

        ConnectorBeans.Receiver receiver = app.get(ConnectorBeans.Receiver.class);
        await().atMost(WAIT).until(() -> receiver.payloads().size() == 3);
        assertThat(receiver.payloads()).containsExactlyInAnyOrder("by-metadata", "by-key", "plain");
        assertThat(redis().hget("counters{jobs_0}", "sent")).isEqualTo("3");
        await().atMost(WAIT).until(() -> redis().exists("jobs_0", "tq:acme{jobs_0}", "tq:globex{jobs_0}",
                "prepare{jobs_0}", "tenant{jobs_0}") == 0);
    }
}
