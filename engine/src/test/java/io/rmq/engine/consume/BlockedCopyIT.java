package io.rmq.engine.consume;

import static io.rmq.engine.EngineFixture.bytes;
import static io.rmq.engine.EngineFixture.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.lettuce.core.RedisClient;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.rmq.engine.EngineFixture;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.redis.RedisScript;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.topic.SlotKeys;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisExtension;
import io.rmq.testing.redis.RedisTestServer;

/**
 * A copy sent while its twin is being consumed waits in the store queue; the pop that leaves it behind records it
 * in the slot's blocked hash, and the twin's commit (through commit.lua, or the plain way) publishes the wake notice that ends the consumers' sleep (they
 * poll only every 10 minutes here), so the copy is delivered at once.
 */
@ExtendWith(RedisExtension.class)
class BlockedCopyIT {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private EngineFixture fx;
    private RmqEngine client;
    private RedisClient listener;

    @BeforeEach
    void setUp(RedisTestServer redis) {
        fx = new EngineFixture(redis.uri());
        client = fx.client();
        listener = RedisClient.create(redis.uri());
    }

    @AfterEach
    void tearDown() throws Exception {
        fx.close();
        listener.shutdown();
    }

    @Test
    void theTwinsCommitWakesTheConsumersForTheCopyAPopLeftBehind() throws Exception {
        theTwinsCommitWakesTheConsumers("twins", false);
    }

    @Test
    void aPlainCommitOfTheTwinWakesThemToo() throws Exception {
        theTwinsCommitWakesTheConsumers("plain-twins", true);
    }

    /**
     * With {@code plain}, one message is consumed first, so that the slot's keys are checked by a commit.lua call
     * and the twin's commit goes the plain way (a ZREM, then committed.lua, which publishes the notice).
     */
    private void theTwinsCommitWakesTheConsumers(String topic, boolean plain) throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition(topic, 1, TopicType.FIXED_TIME));
        SlotKeys slot = keys.slot(0);
        String blocked = slot.blocked();
        TopicProducer producer = client.producer(keys);
        EngineFixture.Recorder r = fx.consume(client, keys, ConsumerOptions.builder().retryBackoff(Duration.ZERO)
                .pollInterval(Duration.ofMinutes(10)).shutdownTimeout(Duration.ofMillis(300)).build());
        r.consumer.request(100);
        fx.awaitWakeSubscription(keys, WAIT);
        if (plain) {
            producer.sendAt(bytes("checked"), Instant.now(), null).toCompletableFuture().join();
            r.next(WAIT).commit();
            await().atMost(WAIT).until(() -> fx.inQueues(keys) == 0);
        }
        List<String> notices = new CopyOnWriteArrayList<>();
        try (StatefulRedisPubSubConnection<String, String> sub = listener.connectPubSub()) {
            sub.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    notices.add(message);
                }
            });
            sub.sync().subscribe(keys.wakeChannel());

            producer.sendAt(bytes("order-1"), Instant.now(), null).toCompletableFuture().join();
            Delivery twin = r.next(WAIT);
            assertThat(text(twin)).isEqualTo("order-1");
            // its send wakes the consumer, whose pop leaves it behind the twin in flight and records it
            producer.sendAt(bytes("order-1"), Instant.now(), null).toCompletableFuture().join();
            await().atMost(WAIT).until(() -> "1".equals(fx.redis().hget(blocked, "order-1")));
            assertThat(r.received).as("one copy in the consumers' hands at a time").isEmpty();
            notices.clear();
            fx.redis().scriptFlush(); // from here on, a script is loaded only if it is called

            twin.commit();

            Delivery copy = r.next(WAIT);
            assertThat(copy).as("the copy, delivered once its twin is committed").isNotNull();
            assertThat(text(copy)).isEqualTo("order-1");
            // the consumer may have been woken, and have popped the copy, before this listener got the notice
            await().atMost(WAIT).untilAsserted(() -> assertThat(notices).as("the commit's wake notice").contains("0:0"));
            assertThat(fx.redis().scriptExists(RedisScript.COMMITTED.sha(), RedisScript.COMMIT.sha()))
                    .as("committed.lua ran (plain), commit.lua did not; or the other way round")
                    .containsExactly(plain, !plain);
            copy.commit();
            await().atMost(WAIT).until(() -> fx.inQueues(keys) == 0);
            assertThat(fx.redis().exists(blocked)).as("no entry left behind").isZero();
        }
    }
}
