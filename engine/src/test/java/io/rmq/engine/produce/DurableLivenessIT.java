package io.rmq.engine.produce;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rmq.engine.RmqEngine;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.redis.RmqClient;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.LogRecorder;
import io.rmq.testing.faults.FaultProxy;
import io.rmq.testing.redis.RedisProcess;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;

/**
 * A durable producer's connection of its own that goes half-open (the network forgets it without closing
 * it) is found by its {@code PING}, closed (RMQ-0170) and replaced by Lettuce's reconnection: durable sends
 * are confirmed again, and consumed, within a bounded time, instead of timing out for ever.
 */
@RedisTest
class DurableLivenessIT {

    private static final TopicDefinition TOPIC = new TopicDefinition("durable-live", 4, TopicType.PRIORITY);

    /**
     * Two checks of {@link RmqClient#LIVENESS_INTERVAL}, the {@code PING}'s command timeout, a reconnection, and
     * a send's own command timeout if it was written on the silent connection just before it was closed.
     */
    private static final Duration REPLACED_WITHIN = RmqClient.LIVENESS_INTERVAL.multipliedBy(2)
            .plus(RedisAccess.DEFAULT_COMMAND_TIMEOUT.multipliedBy(2)).plusSeconds(10);

    @Test
    void aSilencedDurableConnectionIsReplacedAndDurableSendsAreConfirmedAndConsumedAgain(RedisTestServer redis,
            @TempDir Path dir) throws Exception {
        try (RedisProcess replica = RedisProcess.start(dir, List.of("replicaof " + RedisProcess.HOST + " " + redis.port()),
                false);
                FaultProxy proxy = FaultProxy.to(redis.port());
                LogRecorder log = LogRecorder.record(EngineLogging.LOGGER_NAME);
                RmqEngine engine = new RmqEngine("redis://" + proxy.address()).start()) {
            Awaitility.await("the replica in sync").atMost(Duration.ofSeconds(30)).until(replica::replicaInSyncOrMaster);
            TopicKeys keys = engine.registerTopic(TOPIC).toCompletableFuture().get(30, TimeUnit.SECONDS);
            TopicProducer producer = engine.producer(keys,
                    ProducerOptions.builder().durableReplicas(1).durabilityTimeout(Duration.ofSeconds(2)).build());
            BlockingQueue<String> consumed = new LinkedBlockingQueue<>();
            TopicConsumer consumer = engine.consumer(keys, ConsumerOptions.builder().build(), "live");
            consumer.start(d -> {
                consumed.add(new String(d.content(), StandardCharsets.UTF_8));
                d.commit();
            });
            consumer.request(Long.MAX_VALUE);
            assertThat(producer.sendWithPriority(bytes("before"), 1, null).toCompletableFuture()
                    .get(30, TimeUnit.SECONDS).stored()).isTrue();
            assertThat(consumed.poll(30, TimeUnit.SECONDS)).isEqualTo("before");

            proxy.silence(); // every connection open now, the durable one included, carries nothing any more

            String confirmed = SendsResume.awaitStored(producer, REPLACED_WITHIN);
            assertThat(log.messagesContaining("RMQ-0170")).anySatisfy(m -> assertThat(m)
                    .startsWith("RMQ-0170 The durable send connection to Redis at redis://" + proxy.address()
                            + " did not answer a PING within the command timeout (10000 ms)"));
            Awaitility.await("the confirmed send consumed").atMost(REPLACED_WITHIN)
                    .until(() -> consumed.contains(confirmed));
            consumer.close();
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
