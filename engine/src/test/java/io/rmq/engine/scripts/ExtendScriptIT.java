package io.rmq.engine.scripts;

import static io.rmq.testing.Bytes.utf8Array;
import static io.rmq.testing.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.engine.redis.RedisScript;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.topic.SlotKeys;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;

/** {@code extend.lua}: pushing back prepare deadlines, against a real Redis. */
@RedisTest
class ExtendScriptIT {

    private static final TopicKeys TOPIC = new TopicKeys(new TopicDefinition("price", 8, TopicType.FIXED_TIME));
    private static final SlotKeys KEYS = TOPIC.slot(3);
    private static final long TIMEOUT = 30_000;

    private RedisConnections redis;
    private RedisCommands<String, String> sync;
    private ScriptRunner scripts;

    @BeforeEach
    void setUp(RedisConnections redis) {
        this.redis = redis;
        this.sync = redis.sync();
        this.scripts = new ScriptRunner(redis.binary().async());
    }

    @Test
    void pushesTheDeadlinesToNowPlusTimeoutAndReturnsTheCount() {
        sync.zadd(KEYS.prepare(), 1_000.0, "a");
        sync.zadd(KEYS.prepare(), 2_000.0, "b");
        sync.zadd(KEYS.prepare(), 3_000.0, "untouched");

        long before = redis.redisTimeMillis();
        long extended = extend(TIMEOUT, "a", "b");
        long after = redis.redisTimeMillis();

        assertThat(extended).isEqualTo(2);
        assertThat(sync.zscore(KEYS.prepare(), "a")).isBetween(before + TIMEOUT + 0.0, after + TIMEOUT + 0.0);
        assertThat(sync.zscore(KEYS.prepare(), "b")).isEqualTo(sync.zscore(KEYS.prepare(), "a"));
        assertThat(sync.zscore(KEYS.prepare(), "untouched")).isEqualTo(3_000.0);
    }

    @Test
    void doesNotAddBackMembersNoLongerInThePrepareQueue() {
        sync.zadd(KEYS.prepare(), 1_000.0, "held");
        sync.zadd(KEYS.store(), 5.0, "rolled-back");

        long extended = extend(TIMEOUT, "held", "committed", "rolled-back");

        assertThat(extended).isEqualTo(1);
        assertThat(sync.zrange(KEYS.prepare(), 0, -1)).containsExactly("held");
        assertThat(sync.zscore(KEYS.store(), "rolled-back")).isEqualTo(5.0);
    }

    @Test
    void extendingNothingReturnsZero() {
        assertThat(extend(TIMEOUT)).isZero();
        assertThat(sync.exists(KEYS.prepare())).isZero();
    }

    private long extend(long timeout, String... members) {
        byte[][] args = utf8Array(Stream.concat(Stream.of(Long.toString(timeout)), Stream.of(members)).toArray(String[]::new));
        Long extended = await(scripts.run(RedisScript.EXTEND, utf8Array(KEYS.prepare()), args));
        return extended;
    }
}
