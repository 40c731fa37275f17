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
import io.rmq.testing.redis.ChannelRecorder;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;

/**
 * The plain commit: a {@code ZREM} of the members from the prepare queue, then {@code committed.lua} (no member
 * given) and, when it asks, {@code commit_forget.lua} with the members; against a real Redis. Each case ends where
 * {@code commit.lua} would have left the slot.
 */
@RedisTest
class PlainCommitScriptsIT {

    private static final int SLOT = 2;
    private static final TopicKeys TOPIC = new TopicKeys(new TopicDefinition("plain", 4, TopicType.FIXED_TIME));
    private static final SlotKeys KEYS = TOPIC.slot(SLOT);
    private static final String BLOCKED = KEYS.blocked();

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
    void theCommonCaseCountsTheRemovedMembersAndAsksForNothing() {
        inFlight("a", "b", "c");

        long removed = sync.zrem(KEYS.prepare(), "a", "b", "gone");
        long ask = committed(removed, true);

        assertThat(ask).isZero();
        assertThat(sync.hget(KEYS.counters(), "acked")).isEqualTo("2");
        assertThat(sync.zrange(KEYS.prepare(), 0, -1)).containsExactly("c");
        assertThat(wakes.drain()).isEmpty();
    }

    @Test
    void aCopyLeftBehindIsWokenOnceItsTwinHasLeftThePrepareQueue() {
        inFlight("a", "b");
        sync.zadd(KEYS.store(), 4.0, "a");
        sync.zadd(KEYS.store(), 5.0, "b");
        sync.hset(BLOCKED, "a", "1");
        sync.hset(BLOCKED, "b", "1");

        committed(sync.zrem(KEYS.prepare(), "a"), true);

        assertThat(wakes.drain()).containsExactly(SLOT + ":0");
        assertThat(sync.hkeys(BLOCKED)).as("b's twin is still in flight").containsExactly("b");
        assertThat(sync.zscore(KEYS.store(), "a")).as("the copy waits to be popped").isEqualTo(4.0);
    }

    @Test
    void aLargeBlockedHashIsResolvedWithTheMembers() {
        inFlight("a");
        for (int i = 0; i < 129; i++) {
            sync.hset(BLOCKED, "other-" + i, "1");
            sync.zadd(KEYS.prepare(), 1_000.0, "other-" + i);
        }
        sync.hset(BLOCKED, "a", "1");

        long ask = committed(sync.zrem(KEYS.prepare(), "a"), true);
        assertThat(ask).isEqualTo(1);
        assertThat(wakes.drain()).as("nothing resolved without the members").isEmpty();

        forget(ask, "a");
        assertThat(wakes.drain()).containsExactly(SLOT + ":0");
        assertThat(sync.hexists(BLOCKED, "a")).isFalse();
        assertThat(sync.hlen(BLOCKED)).isEqualTo(129);
    }

    @Test
    void wakesTheNewOwnerWhenThePrepareQueueIsEmptyDuringAHandover() {
        inFlight("a", "b");
        sync.hset(KEYS.owner(), "epoch", "7");
        sync.hset(KEYS.owner(), "handover", "1");

        committed(sync.zrem(KEYS.prepare(), "a"), true);
        assertThat(wakes.drain()).as("b is still in flight").isEmpty();

        committed(sync.zrem(KEYS.prepare(), "b"), true);
        assertThat(wakes.drain()).containsExactly(SLOT + ":0");
    }

    @Test
    void aFailureInTheSlotAsksForTheMembersAndOnlyACountOfACommittedMemberIsForgotten() {
        // c was rolled back and popped again since its pop (so it was committed by this ZREM with a count); d was rolled
        // back before the ZREM (it waits in the store queue, keeping its count); e failed in another consumer's hands
        inFlight("c", "e");
        sync.zadd(KEYS.store(), 9.0, "d");
        sync.hset(KEYS.attempts(), "c", "1");
        sync.hset(KEYS.failures(), "c", "1\t\tboom");
        sync.hset(KEYS.attempts(), "d", "1");
        sync.hset(KEYS.attempts(), "e", "2");

        long removed = sync.zrem(KEYS.prepare(), "c", "d");
        long ask = committed(removed, true);
        assertThat(ask).isEqualTo(2);
        forget(ask, "c", "d");

        assertThat(sync.hkeys(KEYS.attempts())).containsExactlyInAnyOrder("d", "e");
        assertThat(sync.hexists(KEYS.failures(), "c")).isFalse();
        assertThat(sync.hget(KEYS.counters(), "acked")).isEqualTo("1");
    }

    @Test
    void traceEntriesLeftByAConsumerThatDoesNotTakeThemGoExceptAPendingCopys() {
        inFlight("a", "b");
        sync.zadd(KEYS.store(), 4.0, "b"); // sent again while in flight: the entry is that copy's
        sync.hset(KEYS.trace(), "a", "trace-a");
        sync.hset(KEYS.trace(), "b", "trace-b");

        long ask = committed(sync.zrem(KEYS.prepare(), "a", "b"), false);
        assertThat(ask).isEqualTo(4);
        forget(ask, "a", "b");

        assertThat(sync.hkeys(KEYS.trace())).containsExactly("b");
    }

    @Test
    void aConsumerThatTakesTraceEntriesIsNotAskedForThem() {
        inFlight("a");
        sync.hset(KEYS.trace(), "other", "trace-of-a-pending-message");

        assertThat(committed(sync.zrem(KEYS.prepare(), "a"), true)).isZero();
        assertThat(sync.hkeys(KEYS.trace())).containsExactly("other");
    }

    private long committed(long removed, boolean tracesTaken) {
        String[] keys = tracesTaken
                ? new String[] { KEYS.store(), KEYS.prepare(), KEYS.attempts(), KEYS.owner(), KEYS.counters() }
                : new String[] { KEYS.store(), KEYS.prepare(), KEYS.attempts(), KEYS.owner(), KEYS.counters(), KEYS.trace() };
        Long ask = await(scripts.run(RedisScript.COMMITTED, utf8Array(keys),
                utf8Array(TOPIC.wakeChannel(), Integer.toString(SLOT), Long.toString(removed))));
        return ask;
    }

    private void forget(long ask, String... members) {
        byte[][] args = utf8Array(Stream.concat(Stream.of(TOPIC.wakeChannel(), Integer.toString(SLOT), Long.toString(ask)),
                Stream.of(members)).toArray(String[]::new));
        await(scripts.run(RedisScript.COMMIT_FORGET,
                utf8Array(KEYS.store(), KEYS.prepare(), KEYS.attempts(), KEYS.failures(), KEYS.trace()), args));
    }

    private void inFlight(String... members) {
        for (String member : members) {
            sync.zadd(KEYS.prepare(), 1_000.0, member);
        }
    }
}
