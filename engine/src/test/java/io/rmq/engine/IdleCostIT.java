package io.rmq.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.CommandStats;
import io.rmq.testing.redis.IdleCost;
import io.rmq.testing.redis.RedisProcess;

/**
 * What an idle channel costs Redis: a consumer of an empty 16-slot topic, with default settings, on a
 * {@code redis-server} of the test's own that nothing else talks to. After the consumer has settled
 * (its first pops, sweeps and liveness checks done), it counts {@code total_commands_processed} of
 * {@code INFO stats} (commands run inside scripts included) over a window, less the test's own
 * {@code INFO} calls, and asserts at most one command per second (the same for a connector channel:
 * {@code IdleChannelCostIT}). Prints {@code IDLE COST ...}.
 *
 * <p>And what an idle consumer still does: a message written without a wake notice is found by the safety
 * poll, a member a crashed consumer left in a prepare queue is rolled back by the sweeper.
 */
class IdleCostIT {

    private static final int SLOTS = 16;
    /** Covers the first pop of every slot, the first sweep and the first liveness checks. */
    private static final Duration SETTLE = Duration.ofSeconds(12);
    /**
     * Long enough that the periodic checks (every 2 to 60 s) average out: at the bound, 60 commands;
     * the idle channel costs about half that.
     */
    private static final Duration WINDOW = Duration.ofSeconds(60);

    @Test
    void anIdleEngineConsumerCostsAtMostOneCommandPerSecond(@TempDir Path dir) throws Exception {
        try (RedisProcess redis = RedisProcess.start(dir, List.of(), false);
                RmqEngine engine = new RmqEngine("redis://" + redis.address()).start()) {
            engine.ready().toCompletableFuture().join();
            TopicKeys keys = EngineFixture.register(engine, new TopicDefinition("idle", SLOTS, TopicType.FIXED_TIME));
            TopicConsumer consumer = engine.consumer(keys, ConsumerOptions.builder().build(), "idle");
            consumer.start(d -> d.commit());
            consumer.request(Long.MAX_VALUE);
            double perSecond = IdleCost.measure(redis, SETTLE, WINDOW, "engine consumer, " + SLOTS + " slots");
            assertThat(perSecond).isLessThanOrEqualTo(1.0);
            consumer.close();
        }
    }

    @Test
    void aMessageWrittenWithoutAWakeNoticeToAnIdleSlotIsFoundByTheSafetyPoll(@TempDir Path dir) throws Exception {
        try (RedisProcess redis = RedisProcess.start(dir, List.of(), false);
                RmqEngine engine = new RmqEngine("redis://" + redis.address()).start()) {
            engine.ready().toCompletableFuture().join();
            TopicKeys keys = EngineFixture.register(engine, new TopicDefinition("quiet", SLOTS, TopicType.FIXED_TIME));
            BlockingQueue<Delivery> got = new LinkedBlockingQueue<>();
            TopicConsumer consumer = committing(engine, keys,
                    ConsumerOptions.builder().pollInterval(Duration.ofMillis(200)).build(), got);
            await("the idle slots' first safety poll").atMost(Duration.ofSeconds(10))
                    .until(() -> commandCalls(redis, "exists") > 0);

            redis.cli("ZADD", keys.slot(7).store(), "0", "written-by-hand"); // publishes no wake notice

            Delivery d = next(got, "written-by-hand");
            assertThat(d.slot()).isEqualTo(7);
            consumer.close();
        }
    }

    @Test
    void aMemberLeftInAPrepareQueueOfAnIdleTopicIsStillRolledBackAtItsDeadline(@TempDir Path dir) throws Exception {
        try (RedisProcess redis = RedisProcess.start(dir, List.of(), false);
                RmqEngine engine = new RmqEngine("redis://" + redis.address()).start()) {
            engine.ready().toCompletableFuture().join();
            TopicKeys keys = EngineFixture.register(engine, new TopicDefinition("left", SLOTS, TopicType.FIXED_TIME));
            BlockingQueue<Delivery> got = new LinkedBlockingQueue<>();
            TopicConsumer consumer = committing(engine, keys,
                    ConsumerOptions.builder().prepareTimeout(Duration.ofSeconds(1)).build(), got);
            await("the first sweep").atMost(Duration.ofSeconds(10)).until(() -> commandCalls(redis, "exists") > 0);

            // what a consumer that crashed after its pop leaves behind: a member whose deadline has passed
            redis.cli("ZADD", keys.slot(5).prepare(), "0", "left-by-a-crashed-consumer");

            Delivery d = next(got, "left-by-a-crashed-consumer");
            assertThat(d.attempt()).isEqualTo(2);
            consumer.close();
        }
    }

    /** A started consumer with unbounded demand that records and commits what it gets. */
    private static TopicConsumer committing(RmqEngine engine, TopicKeys keys, ConsumerOptions options,
            BlockingQueue<Delivery> got) {
        TopicConsumer consumer = engine.consumer(keys, options, keys.topic().name());
        consumer.start(d -> {
            got.add(d);
            d.commit();
        });
        consumer.request(Long.MAX_VALUE);
        return consumer;
    }

    private static Delivery next(BlockingQueue<Delivery> got, String content) throws InterruptedException {
        Delivery d = got.poll(10, TimeUnit.SECONDS);
        assertThat(d).as("a delivery within 10 s").isNotNull();
        assertThat(new String(d.content(), StandardCharsets.UTF_8)).isEqualTo(content);
        return d;
    }

    /** How many times Redis ran a command ({@code INFO commandstats}), scripts' calls included. */
    private static long commandCalls(RedisProcess redis, String command) {
        return CommandStats.calls(redis.cli("INFO", "commandstats"), command);
    }
}
