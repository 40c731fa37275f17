package io.rmq.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.WeldApp;
import io.rmq.testing.redis.PlainRedis;
import io.rmq.testing.redis.RedisExtension;
import io.rmq.testing.redis.RedisTestServer;

/**
 * Limits per key through SmallRye Reactive Messaging: an outgoing channel with {@code key-concurrency} records each
 * message's flow key, and an incoming channel with {@code key-concurrency=1} delivers every message.
 */
@ExtendWith(RedisExtension.class)
class KeyLimitsChannelIT {

    private static final String RMQ = RedisRmqConnector.CONNECTOR_NAME;
    private static final Duration WAIT = Duration.ofSeconds(15);

    private WeldApp app;

    @AfterEach
    void tearDown() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void flowKeysAreRecordedBySendersAndEveryMessageIsDelivered(RedisTestServer redis) throws Exception {
        app = WeldApp.builder().beans(RedisRmqConnector.class, ConnectorBeans.Sender.class, ConnectorBeans.Receiver.class)
                .config("mp.messaging.connector." + RMQ + ".redis-uri", redis.uri())
                .outgoing("out", RMQ, "topic", "keyed", "topic-type", "FIXED_TIME", "slot-amount", 1, "key-concurrency", 1)
                .incoming("in", RMQ, "topic", "keyed", "topic-type", "FIXED_TIME", "slot-amount", 1, "poll-interval", 500,
                        "key-concurrency", 1)
                .start();
        ConnectorBeans.Sender sender = app.get(ConnectorBeans.Sender.class);
        TopicDefinition topic = new TopicDefinition("keyed", 1, TopicType.FIXED_TIME);
        try (RmqAdmin admin = RmqAdmin.connect(redis.uri())) {
            // paused while sending, so that order-7's three messages are all due before the first pop
            admin.pause(topic);
            Instant due = Instant.now().minusSeconds(1);
            for (String payload : new String[] {"order-7 created", "order-7 paid", "order-7 shipped"}) {
                sender.send(payload, OutgoingRmqMetadata.builder().withDeliverAt(due).withFlowKey("order-7").build())
                        .toCompletableFuture().get(10, TimeUnit.SECONDS);
            }
            sender.send("order-8 created", OutgoingRmqMetadata.builder().withDeliverAt(due).withSlotBasis("order-8")
                    .build()).toCompletableFuture().get(10, TimeUnit.SECONDS);
            admin.resume(topic);
        }

        ConnectorBeans.Receiver receiver = app.get(ConnectorBeans.Receiver.class);
        await().atMost(WAIT).until(() -> receiver.payloads().size() == 4);
        assertThat(receiver.payloads()).containsExactlyInAnyOrder("order-7 created", "order-7 paid", "order-7 shipped",
                "order-8 created");
        assertThat(receiver.metadata()).extracting(m -> m.getFlowKey().orElse(null))
                .containsExactlyInAnyOrder("order-7", "order-7", "order-7", "order-8");
        try (PlainRedis plain = PlainRedis.connect(redis.uri(), false)) {
            await().atMost(WAIT).until(() -> plain.commands().zcard("prepare{keyed_0}") == 0);
            assertThat(plain.commands().hlen("flowkey{keyed_0}")).as("keys forgotten with their messages").isZero();
            assertThat(plain.commands().hget("counters{keyed_0}", "parked")).as("order-7's later messages waited")
                    .isNotNull();
        }
    }
}
