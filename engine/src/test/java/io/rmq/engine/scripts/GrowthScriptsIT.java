package io.rmq.engine.scripts;

import static io.rmq.testing.Bytes.text;
import static io.rmq.testing.Bytes.utf8;
import static io.rmq.testing.Bytes.utf8Array;
import static io.rmq.testing.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

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

/**
 * The scripts of a topic's growth against a real Redis, each outcome of each: {@code grow_topic.lua},
 * {@code split_slot.lua}, {@code split_progress.lua}, {@code growth_hold.lua}, {@code merge_pending.lua}, and
 * the split marker check of {@code send.lua}.
 */
@RedisTest
class GrowthScriptsIT {

    private static final TopicKeys KEYS = new TopicKeys(new TopicDefinition("grow", 2, TopicType.PRIORITY));
    private static final String REGISTRY = TopicKeys.registryKey("");
    private static final String GROWTH = TopicKeys.growthKey("");
    private static final SlotKeys OLD = KEYS.slot(1);
    private static final String MARKER = KEYS.splitMarker(1, 4);
    private static final String PRESPLIT = KEYS.presplit(1, 4);

    private RedisCommands<String, String> sync;
    private ScriptRunner scripts;
    private RedisConnections redis;

    @BeforeEach
    void setUp(RedisConnections redis) {
        this.redis = redis;
        this.sync = redis.sync();
        this.scripts = new ScriptRunner(redis.binary().async());
    }

    // ---- grow_topic.lua

    @Test
    void theGrowthKeyLivesInTheRegistrysHashSlot() {
        assertThat(io.lettuce.core.cluster.SlotHash.getSlot(GROWTH)).isEqualTo(io.lettuce.core.cluster.SlotHash.getSlot(REGISTRY));
    }

    @Test
    void readingAnUnknownTopicRepliesNothing() {
        assertThat(growTopic("read", 0)).containsExactly(null, null, null);
    }

    @Test
    void beginRecordsTheDoubledTargetAndTheAmountBeforeTheFirstGrowth() {
        sync.hset(REGISTRY, "grow", "PRIORITY:2");

        assertThat(growTopic("begin", 2)).containsExactly("PRIORITY:2", "4", "2");
        assertThat(sync.hgetall(GROWTH)).containsOnly(entry("grow", "4"), entry("grow grown-from", "2"));
        assertThat(growTopic("read", 0)).containsExactly("PRIORITY:2", "4", "2");
    }

    @Test
    void beginFromAnotherAmountOrDuringAnotherGrowthChangesNothing() {
        sync.hset(REGISTRY, "grow", "PRIORITY:4");
        assertThat(growTopic("begin", 2)).containsExactly("PRIORITY:4", null, null);
        assertThat(sync.exists(GROWTH)).isZero();

        sync.hset(GROWTH, "grow", "8");
        assertThat(growTopic("begin", 4)).containsExactly("PRIORITY:4", "8", null);
        assertThat(growTopic("begin", 8)).containsExactly("PRIORITY:4", "8", null);
        assertThat(sync.hget(GROWTH, "grow")).isEqualTo("8");
    }

    @Test
    void finishRecordsTheNewAmountAndForgetsTheGrowthButNotWhereItStarted() {
        sync.hset(REGISTRY, "grow", "PRIORITY:2");
        growTopic("begin", 2);

        assertThat(growTopic("finish", 2)).containsExactly("PRIORITY:4", null, "2");
        assertThat(sync.hget(REGISTRY, "grow")).isEqualTo("PRIORITY:4");
        assertThat(sync.hgetall(GROWTH)).containsOnly(entry("grow grown-from", "2"));

        growTopic("begin", 4);
        assertThat(growTopic("finish", 4)).containsExactly("PRIORITY:8", null, "2");
    }

    @Test
    void finishWithoutThatGrowthUnderWayChangesNothing() {
        sync.hset(REGISTRY, "grow", "PRIORITY:2");

        assertThat(growTopic("finish", 2)).containsExactly("PRIORITY:2", null, null);
        sync.hset(GROWTH, "grow", "8");
        assertThat(growTopic("finish", 2)).containsExactly("PRIORITY:2", "8", null);
        assertThat(sync.hget(REGISTRY, "grow")).isEqualTo("PRIORITY:2");
    }

    // ---- split_slot.lua

    @Test
    void splittingRecordsTheMarkerAndWhatTheSlotHoldsPendingOrInFlight() {
        sync.zadd(OLD.store(), 1, "pending");
        sync.zadd(OLD.prepare(), 1, "in-flight");

        assertThat(splitSlot()).containsExactly(1L, 2L);
        assertThat(sync.get(MARKER)).isEqualTo("4");
        assertThat(sync.zrange(PRESPLIT, 0, -1)).containsExactlyInAnyOrder("pending", "in-flight");
        assertThat(sync.zcard(OLD.store())).isEqualTo(1);
        assertThat(sync.zcard(OLD.prepare())).isEqualTo(1);
    }

    @Test
    void splittingAgainChangesNothing() {
        sync.zadd(OLD.store(), 1, "pending");
        splitSlot();
        sync.zadd(OLD.store(), 1, "later");

        assertThat(splitSlot()).containsExactly(0L, 1L);
        assertThat(sync.zrange(PRESPLIT, 0, -1)).containsExactly("pending");
    }

    @Test
    void anEmptySlotIsSplitWithNothingHeld() {
        assertThat(splitSlot()).containsExactly(1L, 0L);
        assertThat(sync.exists(PRESPLIT)).isZero();
        assertThat(sync.exists(MARKER)).isOne();
    }

    // ---- split_progress.lua

    @Test
    void progressForgetsThePreSplitMembersThatLeftTheSlot() {
        sync.zadd(OLD.store(), 1, "pending");
        sync.zadd(OLD.prepare(), 1, "in-flight");
        sync.zadd(OLD.store(), 1, "consumed");
        splitSlot();
        sync.zrem(OLD.store(), "consumed");

        assertThat(splitProgress(0, 100)).containsExactly(2L, 0L);
        assertThat(sync.zrange(PRESPLIT, 0, -1)).containsExactlyInAnyOrder("pending", "in-flight");

        sync.zrem(OLD.store(), "pending");
        sync.zrem(OLD.prepare(), "in-flight");
        assertThat(splitProgress(0, 100)).containsExactly(0L, 0L);
        assertThat(sync.exists(PRESPLIT)).isZero();
    }

    @Test
    void membersHeldBackByLimitsPerKeyArePreSplitMembersUntilTheyLeave() {
        sync.zadd(OLD.store(), 1, "pending");
        sync.hset(OLD.flowKeys(), "parked", "order-7");
        sync.zadd(OLD.parked("order-7"), 5, "parked");
        sync.zadd(OLD.parkedKeys(), Double.POSITIVE_INFINITY, "order-7");
        await(scripts.run(RedisScript.SPLIT_SLOT, utf8Array(OLD.store(), OLD.prepare(), MARKER, PRESPLIT, OLD.parkedKeys()),
                utf8("4")));
        assertThat(sync.zrange(PRESPLIT, 0, -1)).containsExactlyInAnyOrder("pending", "parked");

        assertThat(splitProgressWithKeys()).containsExactly(2L, 0L);
        sync.zrem(OLD.store(), "pending");
        assertThat(splitProgressWithKeys()).as("the parked member is still in the slot").containsExactly(1L, 0L);
        sync.del(OLD.parked("order-7"));
        sync.zrem(OLD.parkedKeys(), "order-7");
        assertThat(splitProgressWithKeys()).containsExactly(0L, 0L);
    }

    private List<Long> splitProgressWithKeys() {
        return await(scripts.run(RedisScript.SPLIT_PROGRESS, utf8Array(OLD.store(), OLD.prepare(), PRESPLIT, MARKER,
                OLD.flowKeys(), OLD.parkedKeys()), utf8("0"), utf8("100")));
    }

    @Test
    void progressLooksAtOnePageAtATimeAndSaysWhereToGoOn() {
        for (int i = 0; i < 5; i++) {
            sync.zadd(OLD.store(), i, "m" + i);
        }
        splitSlot();
        sync.zrem(OLD.store(), "m0", "m3", "m4");

        // m0..m1 (scores 0 in the set: by member name) looked at: m0 gone, m1 stays; go on from rank 1
        assertThat(splitProgress(0, 2)).containsExactly(4L, 1L);
        // m2, m3 looked at: m3 gone; then m4 would come next, rank 2
        assertThat(splitProgress(1, 2)).containsExactly(3L, 2L);
        // m4 looked at, gone: the last page, start over
        assertThat(splitProgress(2, 2)).containsExactly(2L, 0L);
        assertThat(sync.zrange(PRESPLIT, 0, -1)).containsExactly("m1", "m2");
    }

    @Test
    void progressWithoutTheMarkerSaysTheSplitWasLost() {
        sync.zadd(PRESPLIT, 0, "m");

        assertThat(splitProgress(0, 100)).containsExactly(-1L, 0L);
        assertThat(sync.zcard(PRESPLIT)).isOne();
    }

    // ---- growth_hold.lua

    @Test
    void holdingSetsThePauseFlagToTheGrowthAndReleasingDeletesItAndWakes() {
        String paused = KEYS.slot(3).paused();
        try (ChannelRecorder wakes = redis.record(KEYS.wakeChannel())) {
            assertThat(hold(3, true)).isOne();
            assertThat(sync.get(paused)).isEqualTo("growth:4");
            assertThat(hold(3, true)).isZero();
            assertThat(wakes.drain()).isEmpty();

            assertThat(hold(3, false)).isOne();
            assertThat(sync.exists(paused)).isZero();
            assertThat(wakes.drain()).containsExactly("3:0");
            assertThat(hold(3, false)).isZero();
        }
    }

    @Test
    void anOperatorsPauseIsNeitherTakenNorReleasedByTheGrowth() {
        String paused = KEYS.slot(3).paused();
        sync.set(paused, "1");

        assertThat(hold(3, true)).isZero();
        assertThat(hold(3, false)).isZero();
        assertThat(sync.get(paused)).isEqualTo("1");
    }

    @Test
    void anOperatorsResumeLeavesTheGrowthsHold() {
        String paused = KEYS.slot(3).paused();
        hold(3, true);

        Long resumed = await(scripts.run(RedisScript.PAUSE, utf8Array(paused), utf8("0"), utf8(KEYS.wakeChannel()), utf8("3")));

        assertThat(resumed).isZero();
        assertThat(sync.get(paused)).isEqualTo("growth:4");
    }

    // ---- merge_pending.lua

    @Test
    void aPriorityMessageMergesIntoItsPendingPreSplitCopyWithTheLastPriority() {
        sync.zadd(OLD.store(), 1, "dup");
        splitSlot();

        assertThat(mergePending("PRIORITY", "7", "dup", "3", "other")).containsExactly(1L, 1L, "7", 0L, null);
        assertThat(sync.zscore(OLD.store(), "dup")).isEqualTo(7.0);
        assertThat(sync.zscore(OLD.store(), "other")).isNull();
        assertThat(sync.hgetall(OLD.counters())).containsOnly(entry("sent", "1"), entry("merged", "1"));
    }

    @Test
    void aRangeMergeMessageKeepsThePendingCopysDueTime() {
        sync.zadd(OLD.store(), 1000, "dup");
        splitSlot();

        assertThat(mergePending("RANGE_MERGE", "60000", "dup")).containsExactly(1L, 1L, "1000");
        assertThat(sync.zscore(OLD.store(), "dup")).isEqualTo(1000.0);
    }

    @Test
    void aFixedTimeMessageMovedEarlierWakesTheSlot() {
        sync.zadd(OLD.store(), 5_000_000_000_000.0, "dup");
        splitSlot();
        try (ChannelRecorder wakes = redis.record(KEYS.wakeChannel())) {
            assertThat(mergePending("FIXED_TIME", "1000", "dup")).containsExactly(1L, 1L, "1000");
            assertThat(wakes.drain()).containsExactly("1:0");
            assertThat(mergePending("FIXED_TIME", "2000", "dup")).containsExactly(1L, 1L, "2000");
            assertThat(wakes.drain()).isEmpty();
        }
    }

    @Test
    void aMemberSentToTheOldSlotAfterTheSplitIsNoPreSplitCopy() {
        splitSlot();
        sync.zadd(OLD.store(), 1, "after");
        sync.zadd(PRESPLIT, 0, "elsewhere"); // held (in flight, say), but not pending in the store queue

        assertThat(mergePending("PRIORITY", "5", "after", "5", "elsewhere")).containsExactly(1L, 0L, null, 0L, null);
        assertThat(sync.zscore(OLD.store(), "after")).isEqualTo(1.0);
    }

    @Test
    void onceThePreSplitSetIsGoneNothingMergesAndTheReplySaysSo() {
        sync.zadd(OLD.store(), 1, "dup");
        splitSlot();
        sync.del(PRESPLIT);

        assertThat(mergePending("PRIORITY", "5", "dup")).containsExactly(0L, 0L, null);
        assertThat(sync.zscore(OLD.store(), "dup")).isEqualTo(1.0);
    }

    // ---- send.lua: the split marker

    @Test
    void aSendRoutedByAnOutgrownAmountIsRefusedAndStoresNothing() {
        sync.set(MARKER, "4");

        assertThatThrownBy(() -> send(MARKER, "m")).hasMessageContaining("RMQ_SPLIT " + MARKER);
        assertThat(sync.exists(OLD.store(), OLD.counters())).isZero();
        assertThat(TopicScripts.refusedAsSplit(catchFailure(() -> send(MARKER, "m")))).isTrue();
        assertThat(TopicScripts.refusedAsSplit(new IllegalStateException("RMQ_BAD_TYPE X"))).isFalse();
    }

    @Test
    void aSendRoutedByTheCurrentAmountIsStored() {
        sync.set(MARKER, "4");

        send(KEYS.splitMarker(1, 8), "m");
        assertThat(sync.zscore(OLD.store(), "m")).isEqualTo(3.0);
    }

    private List<String> growTopic(String action, int amount) {
        List<Object> reply = await(scripts.run(RedisScript.GROW_TOPIC, utf8Array(REGISTRY, GROWTH), utf8("grow"),
                utf8(action), utf8(Integer.toString(amount))));
        List<String> out = new ArrayList<>();
        reply.forEach(r -> out.add(r == null ? null : text(r)));
        return out;
    }

    private List<Long> splitSlot() {
        return await(scripts.run(RedisScript.SPLIT_SLOT, utf8Array(OLD.store(), OLD.prepare(), MARKER, PRESPLIT), utf8("4")));
    }

    private List<Long> splitProgress(long offset, int limit) {
        return await(scripts.run(RedisScript.SPLIT_PROGRESS, utf8Array(OLD.store(), OLD.prepare(), PRESPLIT, MARKER),
                utf8(Long.toString(offset)), utf8(Integer.toString(limit))));
    }

    private long hold(int slot, boolean hold) {
        Long changed = await(scripts.run(RedisScript.GROWTH_HOLD, utf8Array(KEYS.slot(slot).paused()), utf8(hold ? "1" : "0"),
                utf8("growth:4"), utf8(KEYS.wakeChannel()), utf8(Integer.toString(slot))));
        return changed;
    }

    /** merge_pending.lua on old slot 1; replies as strings (scores) and longs (flags). */
    private List<Object> mergePending(String type, String... pairs) {
        String[] args = new String[3 + pairs.length];
        args[0] = type;
        args[1] = KEYS.wakeChannel();
        args[2] = "1";
        System.arraycopy(pairs, 0, args, 3, pairs.length);
        List<Object> reply = await(scripts.run(RedisScript.MERGE_PENDING, utf8Array(OLD.store(), PRESPLIT, OLD.counters()),
                utf8Array(args)));
        List<Object> out = new ArrayList<>();
        reply.forEach(r -> out.add(r instanceof byte[] ? text(r) : r));
        return out;
    }

    private void send(String marker, String member) {
        await(scripts.run(RedisScript.SEND, utf8Array(OLD.store(), OLD.prepare(), OLD.counters(), marker),
                utf8Array("PRIORITY", KEYS.wakeChannel(), "1", "3", member)));
    }

    private static Throwable catchFailure(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            return e;
        }
        throw new AssertionError("no failure");
    }
}
