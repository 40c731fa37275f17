package io.rmq.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rmq.testing.IdleCost;
import io.rmq.testing.RedisProcess;

/**
 * What an idle channel costs Redis: a consumer of an empty 16-slot topic, with default settings, on a
 * {@code redis-server} of the test's own that nothing else talks to. After the consumer has settled
 * (its first pops, sweeps and liveness checks done), it counts {@code total_commands_processed} of
 * {@code INFO stats} (commands run inside scripts included) over a window, less the test's own
 * {@code INFO} calls, and asserts at most one command per second. The same for a connector channel: {@code IdleChannelCostIT}. Prints {@code IDLE COST ...}.
 */
class IdleCostIT {

    static final int SLOTS = 16;
    /** Covers the first pop of every slot, the first sweep and the first liveness checks. */
    static final Duration SETTLE = Duration.ofSeconds(12);
    /**
     * Long enough that the periodic checks (every 2 to 60 s) average out: at the bound, 60 commands;
     * the idle channel costs about half that.
     */
    static final Duration WINDOW = Duration.ofSeconds(60);

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
}
