package io.rmq.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.testing.WeldApp;
import io.rmq.testing.redis.PlainRedis;
import io.rmq.testing.redis.RedisExtension;
import io.rmq.testing.redis.RedisTestServer;

/**
 * Priority aging through the connector on Weld SE: {@code priority-aging} on the outgoing channel ages the scores it
 * writes, from the topic's epoch; on the incoming channel the metadata reports each message's priority beside its
 * aged score, and the send times of what it commits are forgotten.
 */
@ExtendWith(RedisExtension.class)
class PriorityAgingChannelIT {

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

    @Test
    void agedMessagesCarryTheirPriorityAndLeaveNoSendTimeBehind() throws Exception {
        app = WeldApp.builder().beans(RedisRmqConnector.class).beans(ConnectorBeans.Sender.class, ConnectorBeans.Receiver.class)
                .config("mp.messaging.connector." + RMQ + ".redis-uri", uri)
                .outgoing("out", RMQ, "topic", "bids", "topic-type", "PRIORITY", "slot-amount", 1,
                        "priority-aging", "1/s")
                .incoming("in", RMQ, "topic", "bids", "topic-type", "PRIORITY", "slot-amount", 1,
                        "priority-aging", "1/s", "poll-interval", 500)
                .start();
        ConnectorBeans.Sender sender = app.get(ConnectorBeans.Sender.class);
        for (int i = 0; i < 10; i++) {
            sender.send("bid-" + i, OutgoingRmqMetadata.builder().withPriority(i).build())
                    .toCompletableFuture().get(10, TimeUnit.SECONDS);
        }

        ConnectorBeans.Receiver receiver = app.get(ConnectorBeans.Receiver.class);
        await().atMost(WAIT).until(() -> receiver.payloads().size() == 10);
        assertThat(plain.commands().hget("flow{bids}", "aging.epoch")).isNotNull();
        for (int i = 0; i < 10; i++) {
            IncomingRmqMetadata metadata = receiver.metadata().get(receiver.payloads().indexOf("bid-" + i));
            assertThat(metadata.getPriority()).as("bid-" + i).isCloseTo(i, within(1e-6));
            assertThat(metadata.getScore()).as("bid-" + i).isLessThanOrEqualTo(metadata.getPriority());
        }
        await().atMost(WAIT).until(() -> plain.commands().exists("since{bids_0}", "prepare{bids_0}") == 0);
    }
}
