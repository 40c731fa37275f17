package io.rmq.engine.scripts;

import static io.rmq.testing.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
 * {@code flow_acquire.lua} against a real Redis: the limiter's answers are checked by the permits they hand out
 * and the waits they announce, with the real clock's progress during the test allowed for by reading Redis's
 * {@code TIME} around the calls; no assertion depends on how fast the test runs.
 */
@RedisTest
class FlowAcquireScriptIT {

    private static final TopicKeys TOPIC = new TopicKeys(new TopicDefinition("orders", 4, TopicType.PRIORITY));

    private RedisCommands<String, String> sync;
    private TopicScripts scripts;

    @BeforeEach
    void setUp(RedisConnections redis) {
        this.sync = redis.sync();
        ScriptRunner runner = new ScriptRunner(redis.binary().async());
        this.scripts = new TopicScripts(() -> runner, TOPIC);
    }

    @Test
    void withoutALimitGrantsEverythingAtOnceAndWritesNothing() {
        FlowGrant grant = acquire(500, 0, 0);

        assertThat(grant).isEqualTo(new FlowGrant(0, 500, 0, -1));
        assertThat(grant.limited()).isFalse();
        assertThat(sync.exists(TOPIC.flow())).isZero();
    }

    @Test
    void grantsABurstAtOnceThenSpacesPermitsByTheRate() {
        limit(2, 4, 7); // 2/s: one permit every 500 ms, 4 at once

        FlowGrant burst = acquire(10, 0, 0);
        FlowGrant next = acquire(1, 0, 0);

        assertThat(burst).isEqualTo(new FlowGrant(7, 4, 0, 2));
        assertThat(next.granted()).isEqualTo(1);
        assertThat(next.waitMillis()).isBetween(1L, 500L);
        assertThat(sync.hget(TOPIC.flow(), "tat")).isNotNull();
    }

    @Test
    void keepsTheRateOverManyReservations() {
        int rate = 50;
        int burst = 10;
        limit(rate, burst, 1);
        long before = redisMillis();

        int permits = 0;
        int usableWithinOneSecond = 0;
        long lastWait = 0;
        for (int call = 0; call < 40; call++) {
            FlowGrant grant = acquire(5, 0, 1);
            permits += grant.granted();
            lastWait = grant.waitMillis();
            if (grant.waitMillis() <= 1000) {
                usableWithinOneSecond += grant.granted();
            }
        }
        long elapsed = redisMillis() - before;

        // 200 permits: the bucket's 10 at once, the other 190 at 50/s: the last usable 3.8 s after the first call
        assertThat(permits).isEqualTo(200);
        assertThat(lastWait).isBetween(3800 - elapsed - 1, 3800L + 1);
        assertThat(usableWithinOneSecond).isBetween(burst + rate - 5, burst + rate + 5 + (int) (elapsed * rate / 1000));
    }

    @Test
    void unusedPermitsOfTheSameGenerationAreGivenBack() {
        limit(2, 4, 3);
        acquire(4, 0, 0);
        acquire(1, 0, 0); // the bucket is empty and one permit owed: tat is 2.5 s ahead

        FlowGrant refunded = acquire(1, 2, 3); // two of those permits were not used

        assertThat(refunded.waitMillis()).isZero();
    }

    @Test
    void permitsOfAnotherGenerationAreNotGivenBack() {
        limit(2, 4, 3);
        acquire(4, 0, 0);
        acquire(1, 0, 0);

        FlowGrant refused = acquire(1, 2, 2); // taken under generation 2, the limit is at 3 now

        assertThat(refused.waitMillis()).isBetween(500L, 1000L);
    }

    @Test
    void refusesToReserveLessThanOnePermit() {
        limit(2, 4, 1);

        assertThatThrownBy(() -> acquire(0, 0, 0)).hasStackTraceContaining("RMQ_BAD_VALUE");
    }

    private void limit(int rate, int burst, long gen) {
        sync.hset(TOPIC.flow(), Map.of("rate", Integer.toString(rate), "burst", Integer.toString(burst),
                "gen", Long.toString(gen)));
    }

    private FlowGrant acquire(int permits, int refund, long refundGen) {
        return await(scripts.flowAcquire(permits, refund, refundGen));
    }

    private long redisMillis() {
        java.util.List<String> time = sync.time();
        return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    }
}
