package io.rmq.engine.scripts;

import static io.rmq.testing.Bytes.utf8Array;
import static io.rmq.testing.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.engine.redis.RedisScript;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.topic.SlotKeys;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.ChannelRecorder;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;

/** {@code release.lua}: prefetched members go back unharmed, against a real Redis. */
@RedisTest
class ReleaseScriptIT {

    private static final int SLOT = 2;
    private static final TopicKeys TOPIC = new TopicKeys(new TopicDefinition("tasks", 4, TopicType.PRIORITY));
    private static final SlotKeys KEYS = TOPIC.slot(SLOT);

    private RedisCommands<String, String> sync;
    private ScriptRunner scripts;
    private ChannelRecorder wakes;

    @BeforeEach
    void setUp(RedisConnections redis) {
        this.sync = redis.sync();
        this.scripts = new ScriptRunner(redis.binary().async());
        this.wakes = redis.record(TOPIC.wakeChannel());
    }

    @Test
    void returnsMembersWithTheScoreTheyWerePoppedWithAndCountsNoAttempt() {
        inFlight("a", "b");
        sync.hset(KEYS.attempts(), "a", "2");
        sync.hset(KEYS.origin(), "a", "7.5");

        long released = release("a", "7.5", "b", "-3");

        assertThat(released).isEqualTo(2);
        assertThat(sync.zcard(KEYS.prepare())).isZero();
        assertThat(sync.zscore(KEYS.store(), "a")).isEqualTo(7.5);
        assertThat(sync.zscore(KEYS.store(), "b")).isEqualTo(-3.0);
        assertThat(sync.hget(KEYS.attempts(), "a")).isEqualTo("2");
        assertThat(sync.hlen(KEYS.origin())).isZero();
        assertThat(wakes.drain()).containsExactly(SLOT + ":0");
    }

    @Test
    void aPendingCopyStandsAndTheReleasedOneMergesIntoIt() {
        inFlight("a");
        sync.zadd(KEYS.store(), 99.0, "a");

        long released = release("a", "1");

        assertThat(released).isEqualTo(1);
        assertThat(sync.zscore(KEYS.store(), "a")).isEqualTo(99.0);
        assertThat(sync.zcard(KEYS.prepare())).isZero();
    }

    @Test
    void skipsMembersNoLongerInThePrepareQueueAndDoesNotWakeForNothing() {
        long released = release("gone", "5");

        assertThat(released).isZero();
        assertThat(sync.exists(KEYS.store())).isZero();
        assertThat(wakes.drain()).isEmpty();
    }

    private void inFlight(String... members) {
        for (String member : members) {
            sync.zadd(KEYS.prepare(), 1_000.0, member);
        }
    }

    private long release(String... pairs) {
        List<String> args = new ArrayList<>(List.of(TOPIC.wakeChannel(), Integer.toString(SLOT)));
        args.addAll(List.of(pairs));
        Long released = await(scripts.run(RedisScript.RELEASE, utf8Array(KEYS.store(), KEYS.prepare(), KEYS.origin()),
                utf8Array(args.toArray(String[]::new))));
        return released;
    }
}
