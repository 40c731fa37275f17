package io.rmq.engine.scripts;

import static io.rmq.testing.Bytes.utf8Array;
import static io.rmq.testing.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
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

/** {@code commit.lua}: the commit phase, against a real Redis. */
@RedisTest
class CommitScriptIT {

    private static final int SLOT = 3;
    private static final TopicKeys TOPIC = new TopicKeys(new TopicDefinition("price", 8, TopicType.PRIORITY));
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
    void removesCommittedMembersFromThePrepareQueueAndReturnsTheCount() {
        inFlight("a", "b", "c");

        long committed = commit("a", "b");

        assertThat(committed).isEqualTo(2);
        assertThat(sync.zrange(KEYS.prepare(), 0, -1)).containsExactly("c");
    }

    @Test
    void forgetsTheAttemptCountAndOriginOfCommittedMembers() {
        inFlight("a", "b");
        sync.hset(KEYS.attempts(), "a", "2");
        sync.hset(KEYS.attempts(), "b", "1");
        sync.hset(KEYS.origin(), "a", "5");
        sync.hset(KEYS.origin(), "b", "6");
        sync.hset(KEYS.failures(), "a", "2\t\tjava.lang.IllegalStateException: busy");

        commit("a");

        assertThat(sync.hexists(KEYS.failures(), "a")).as("a committed message has no last failure").isFalse();

        assertThat(sync.hkeys(KEYS.attempts())).containsExactly("b");
        assertThat(sync.hkeys(KEYS.origin())).containsExactly("b");
    }

    @Test
    void skipsMembersThatAreNotInThePrepareQueue() {
        inFlight("a");
        // a stale count of a member that is not in flight is not the commit's business
        sync.hset(KEYS.attempts(), "gone", "3");

        long committed = commit("a", "gone");
        long again = commit("a");

        assertThat(committed).isEqualTo(1);
        assertThat(again).isZero();
        assertThat(sync.hget(KEYS.attempts(), "gone")).isEqualTo("3");
    }

    @Test
    void committingNothingReturnsZero() {
        assertThat(commit()).isZero();
    }

    @Test
    void leavesThePendingCopyInTheStoreAndWakesTheSlot() {
        inFlight("a");
        sync.zadd(KEYS.store(), 4.0, "a");
        assertThat(popLeavingBehind()).as("the pop leaves the copy behind and records it").isZero();
        assertThat(sync.hget(BLOCKED, "a")).isEqualTo("1");

        long committed = commit("a");

        assertThat(committed).isEqualTo(1);
        assertThat(sync.zscore(KEYS.store(), "a")).isEqualTo(4.0);
        assertThat(wakes.drain()).containsExactly(SLOT + ":0");
        assertThat(sync.exists(BLOCKED)).as("the entry goes with the commit").isZero();
    }

    @Test
    void wakesOnceForSeveralPendingCopies() {
        inFlight("a", "b");
        sync.zadd(KEYS.store(), 4.0, "a");
        sync.zadd(KEYS.store(), 5.0, "b");
        popLeavingBehind();

        commit("a", "b");

        assertThat(wakes.drain()).containsExactly(SLOT + ":0");
    }

    @Test
    void aCopyNoPopLeftBehindNeedsNoWake() {
        // sent after the last pop: its send woke the consumers, whose next pop records it if it is still blocked
        inFlight("a");
        sync.zadd(KEYS.store(), 4.0, "a");

        assertThat(commit("a")).isEqualTo(1);
        assertThat(wakes.drain()).isEmpty();
        assertThat(popped()).as("the copy is popped once its twin is committed").containsExactly("a");
    }

    @Test
    void aPopThatMovesTheCopyForgetsItsEntry() {
        inFlight("a");
        sync.zadd(KEYS.store(), 4.0, "a");
        popLeavingBehind();
        sync.zrem(KEYS.prepare(), "a");

        assertThat(popped()).containsExactly("a");
        assertThat(sync.exists(BLOCKED)).isZero();
    }

    @Test
    void doesNotWakeWithoutAPendingCopy() {
        inFlight("a");
        sync.zadd(KEYS.store(), 4.0, "other");

        commit("a");

        assertThat(wakes.drain()).isEmpty();
        assertThat(sync.zrange(KEYS.store(), 0, -1)).containsExactly("other");
    }

    @Test
    void doesNotWakeForAPendingCopyOfASkippedMember() {
        sync.zadd(KEYS.store(), 4.0, "a");

        assertThat(commit("a")).isZero();
        assertThat(wakes.drain()).isEmpty();
    }

    // --- handover (coordination) -------------------------------------------------------------

    @Test
    void wakesTheNewOwnerWhenItEmptiesThePrepareQueueDuringAHandover() {
        inFlight("a", "b");
        sync.hset(KEYS.owner(), "epoch", "7");
        sync.hset(KEYS.owner(), "handover", "1");

        commit("a");
        assertThat(wakes.drain()).as("b is still in flight").isEmpty();
        commit("b");

        assertThat(wakes.drain()).containsExactly(SLOT + ":0");
        assertThat(sync.hget(KEYS.owner(), "handover")).as("the new owner's pop clears it").isEqualTo("1");
    }

    @Test
    void doesNotWakeWhenItEmptiesThePrepareQueueWithoutAHandover() {
        inFlight("a");
        sync.hset(KEYS.owner(), "epoch", "7");

        commit("a");

        assertThat(wakes.drain()).isEmpty();
    }

    /** Pops the slot as a consumer would (PRIORITY, up to 16); returns how many it popped. */
    private int popLeavingBehind() {
        return popped().size();
    }

    private List<String> popped() {
        List<Object> reply = await(scripts.run(RedisScript.POP,
                utf8Array(KEYS.store(), KEYS.prepare(), KEYS.attempts(), KEYS.origin(), KEYS.owner(), KEYS.paused()),
                utf8Array("PRIORITY", "16", "30000", "0", "")));
        List<String> members = new ArrayList<>();
        for (TopicScripts.PoppedMember m : TopicScripts.popReply(reply).members()) {
            members.add(new String(m.content(), StandardCharsets.UTF_8));
        }
        return members;
    }

    private void inFlight(String... members) {
        for (String member : members) {
            sync.zadd(KEYS.prepare(), 1_000.0, member);
        }
    }

    private long commit(String... members) {
        byte[][] args = utf8Array(Stream.concat(Stream.of(TOPIC.wakeChannel(), Integer.toString(SLOT)), Stream.of(members)).toArray(String[]::new));
        Long committed = await(scripts.run(RedisScript.COMMIT, utf8Array(KEYS.store(), KEYS.prepare(), KEYS.attempts(), KEYS.origin(), KEYS.owner(),
                KEYS.failures()), args));
        return committed;
    }
}
