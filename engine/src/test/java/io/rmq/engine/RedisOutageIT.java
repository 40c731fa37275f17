package io.rmq.engine;

import static io.rmq.engine.EngineFixture.bytes;
import static io.rmq.engine.EngineFixture.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisException;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.redis.RedisUnavailableException;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.LogRecorder;
import io.rmq.testing.redis.RedisExtension;
import io.rmq.testing.redis.RedisTestServer;

/** Redis down at start, restarted, or dropping connections: clients reconnect and lose nothing they accepted. */
@ExtendWith(RedisExtension.class)
class RedisOutageIT {

    private static final Duration WAIT = Duration.ofSeconds(20);

    private RedisTestServer redis;
    private EngineFixture fx;

    @BeforeEach
    void setUp(RedisTestServer redis) {
        this.redis = redis;
        this.fx = new EngineFixture(redis.uri());
    }

    @AfterEach
    void tearDown() throws Exception {
        redis.start();
        fx.close();
    }

    private static ConsumerOptions options() {
        return ConsumerOptions.builder().pollInterval(Duration.ofMillis(200)).shutdownTimeout(Duration.ofMillis(200)).build();
    }

    @Test
    void aClientStartedWhileRedisIsDownConnectsOnceItIsUp() throws Exception {
        redis.stop();
        RmqEngine client = new RmqEngine(redis.uri()).start();
        try {
            TopicDefinition topic = new TopicDefinition("late", 1, TopicType.FIXED_TIME);
            CompletionStage<TopicKeys> registered = client.registerTopic(topic);
            assertThat(client.firstConnectionAttempt().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS))
                    .as("whether the first connection attempt succeeded").isFalse();
            assertThat(registered.toCompletableFuture()).isNotDone();
            assertThat(client.isConnected()).isFalse();
            TopicProducer producer = client.producer(new TopicKeys(topic));
            assertThatThrownBy(() -> producer.sendAt(bytes("x"), Instant.now(), null).toCompletableFuture().join())
                    .hasRootCauseInstanceOf(RedisUnavailableException.class)
                    .hasMessageContaining("has not been reached yet");

            redis.start();
            TopicKeys keys = registered.toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
            EngineFixture.Recorder r = fx.consume(client, keys, options());
            r.consumer.request(1);
            producer.sendAt(bytes("after-start"), Instant.now(), null).toCompletableFuture().join();
            assertThat(text(r.next(WAIT))).isEqualTo("after-start");
        } finally {
            client.close();
        }
    }

    @Test
    void aConsumerResumesAfterRedisRestarts() throws Exception {
        RmqEngine client = fx.client();
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("restart", 2, TopicType.PRIORITY));
        EngineFixture.Recorder r = fx.consume(client, keys, options());
        r.consumer.request(10);
        TopicProducer producer = client.producer(keys);
        producer.sendWithPriority(bytes("before"), 1, null).toCompletableFuture().join();
        r.next(WAIT).commit();

        redis.stop();
        await().atMost(WAIT).until(() -> !client.isConnected());
        assertThatThrownBy(() -> producer.sendWithPriority(bytes("during"), 1, null).toCompletableFuture().join())
                .isInstanceOf(CompletionException.class)
                .hasRootCauseInstanceOf(RedisException.class)
                .hasRootCauseMessage("Currently not connected. Commands are rejected.");
        redis.start(); // an empty server: scripts must be loaded again
        await().atMost(WAIT).until(client::isConnected);

        await().atMost(WAIT).ignoreExceptions().until(() ->
                producer.sendWithPriority(bytes("after"), 1, null).toCompletableFuture().join().stored());
        Delivery d = r.next(WAIT);
        assertThat(text(d)).isEqualTo("after");
        d.commit();
        await().atMost(WAIT).until(() -> fx.redis().zcard(keys.slot(d.slot()).prepare()) == 0);
    }

    @Test
    void droppedConnectionsAreReestablishedAndWakeNoticesResume() throws Exception {
        RmqEngine client = fx.client();
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("dropped", 1, TopicType.FIXED_TIME));
        EngineFixture.Recorder r = fx.consume(client, keys,
                ConsumerOptions.builder().pollInterval(Duration.ofMinutes(10)).shutdownTimeout(Duration.ofMillis(200)).build());
        r.consumer.request(10);
        fx.awaitWakeSubscription(keys, WAIT);
        try (LogRecorder log = LogRecorder.record("io.rmq")) {
            fx.redis().clientKill(KillArgs.Builder.typeNormal().skipme());
            fx.redis().clientKill(KillArgs.Builder.typePubsub());
            log.await("about the reconnection", m -> m.startsWith("RMQ-0004"), 1, WAIT);
        }
        fx.awaitWakeSubscription(keys, WAIT); // the killed subscription is gone: this one is the client's new one
        client.producer(keys).sendAt(bytes("timed"), Instant.now().plusMillis(300), null).toCompletableFuture().join();
        assertThat(text(r.next(WAIT))).isEqualTo("timed");
    }
}
