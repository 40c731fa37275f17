package io.rmq.engine.scripts;

import static io.rmq.testing.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.scripts.TopicScripts.FlowGrant;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;

/**
 * The adaptive slow-down in {@code flow_acquire.lua} ({@code lib/adaptive.lua}) against a real Redis. The hash's
 * window is set to 1 ms so that every call after the first closes a window: the steps are checked call by call,
 * without waiting for the clock.
 */
@RedisTest
class AdaptiveScriptIT {

    private static final TopicKeys TOPIC = new TopicKeys(new TopicDefinition("adaptive", 2, TopicType.PRIORITY));

    private RedisCommands<String, String> sync;
    private TopicScripts scripts;

    @BeforeEach
    void setUp(RedisConnections redis) {
        this.sync = redis.sync();
        ScriptRunner runner = new ScriptRunner(redis.binary().async());
        this.scripts = new TopicScripts(() -> runner, TOPIC);
        sync.hset(TOPIC.flow(), Map.of("gen", "1", "rate", "100", "a.window", "1", "a.min", "10"));
    }

    @Test
    void failuresHalveTheRateDownToTheFloorAndSuccessesBringItBack() {
        acquire(0, 20); // opens the first window
        FlowGrant first = acquireAfterAWindow(0, 20);
        assertThat(first.rate()).isEqualTo(50.0);
        assertThat(sync.hget(TOPIC.flow(), "a.reason")).startsWith("failures 100% > 50%");
        assertThat(sync.hget(TOPIC.flow(), "a.ceiling")).isEqualTo("100");

        for (int i = 0; i < 6; i++) {
            acquireAfterAWindow(0, 20);
        }
        assertThat(acquireAfterAWindow(0, 20).rate()).as("held at the floor").isEqualTo(10.0);

        double rate = 10;
        for (int i = 0; i < 8; i++) {
            double next = acquireAfterAWindow(20, 0).rate();
            assertThat(next).as("additive increase by a tenth of the ceiling").isEqualTo(rate + 10);
            rate = next;
        }
        assertThat(acquireAfterAWindow(20, 0).rate()).as("back at the limit").isEqualTo(100.0);
        assertThat(sync.hget(TOPIC.flow(), "a.reason")).startsWith("recovered");
        assertThat(sync.hexists(TOPIC.flow(), "a.rate")).isFalse();
    }

    @Test
    void aRatioBetweenHalfTheThresholdAndTheThresholdHoldsTheRate() {
        acquire(0, 20);
        assertThat(acquireAfterAWindow(0, 20).rate()).isEqualTo(50.0);
        assertThat(acquireAfterAWindow(12, 8).rate()).as("40 % failed: held").isEqualTo(50.0);
    }

    @Test
    void aWindowWithTooFewOutcomesIsExtendedUntilItHasEnough() {
        acquire(0, 5);
        assertThat(acquireAfterAWindow(0, 4).rate()).as("9 outcomes: no decision").isEqualTo(100.0);
        assertThat(acquireAfterAWindow(0, 1).rate()).as("10 outcomes").isEqualTo(50.0);
    }

    @Test
    void withoutALimitTheSlowDownStartsFromTheRateDelivered() {
        sync.hdel(TOPIC.flow(), "rate");
        FlowGrant open = acquire(0, 0);
        assertThat(open.limited()).isFalse();
        FlowGrant slowed = acquireAfterAWindow(0, 20);
        assertThat(slowed.limited()).isTrue();
        assertThat(sync.hget(TOPIC.flow(), "a.reason")).startsWith("failures 100%");
    }

    @Test
    void withoutTheCallersSettingsOrAOnTheOutcomesChangeNothing() {
        await(scripts.flowAcquire(1, 0, 1, 0, 20, -1, 0));
        sleepPastTheWindow();
        FlowGrant grant = await(scripts.flowAcquire(1, 0, 1, 0, 20, -1, 0));
        assertThat(grant.rate()).isEqualTo(100.0);
        assertThat(sync.hkeys(TOPIC.flow())).noneMatch(f -> f.startsWith("a.") && !f.equals("a.window") && !f.equals("a.min"));
    }

    private FlowGrant acquire(long acked, long failed) {
        return await(scripts.flowAcquire(1, 0, 1, acked, failed, 0.5, 10));
    }

    private FlowGrant acquireAfterAWindow(long acked, long failed) {
        sleepPastTheWindow();
        return acquire(acked, failed);
    }

    /** The window is 1 ms of Redis's clock: waits until Redis's clock has moved on by 2 ms. */
    private void sleepPastTheWindow() {
        long start = redisMillis();
        while (redisMillis() < start + 2) {
            Thread.onSpinWait();
        }
    }

    private long redisMillis() {
        java.util.List<String> time = sync.time();
        return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    }
}
