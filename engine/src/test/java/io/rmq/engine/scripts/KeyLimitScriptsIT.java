package io.rmq.engine.scripts;

import static io.rmq.testing.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.topic.KeyLimits;
import io.rmq.engine.topic.SlotKeys;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.ChannelRecorder;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;

/**
 * Limits per key in the scripts ({@code pop_flow.lua}, the {@code FLOWKEY} section of {@code send.lua}, and the flow
 * keys of {@code commit.lua}, {@code rollback.lua} and {@code release.lua}), through {@link TopicScripts}, against a
 * real Redis.
 */
@RedisTest
class KeyLimitScriptsIT {

    private static final int SLOT = 1;
    private static final TopicScripts.RetryRule RETRY = new TopicScripts.RetryRule(3, 1, 1);
    private static final TopicScripts.RetryRule NO_RETRY = new TopicScripts.RetryRule(0, 1, 1);
    private static final KeyLimits ONE_AT_A_TIME = new KeyLimits(1, 0, 0);

    private RedisConnections redis;
    private RedisCommands<String, String> sync;
    private TopicKeys topic;
    private SlotKeys keys;
    private TopicScripts scripts;

    private void start(RedisConnections redis, TopicType type, KeyLimits limits) {
        this.redis = redis;
        this.sync = redis.sync();
        this.topic = new TopicKeys(new TopicDefinition("keyed-" + type.name().toLowerCase(), 2, type));
        this.keys = topic.slot(SLOT);
        ScriptRunner runner = new ScriptRunner(redis.binary().async());
        this.scripts = new TopicScripts(() -> runner, topic);
        scripts.keyLimits(limits);
    }

    @Test
    void sendRecordsEachMessagesKeyOnlyWithTheSection(RedisConnections redis) {
        start(redis, TopicType.FIXED_TIME, ONE_AT_A_TIME);
        long due = redis.redisTimeMillis() - 10;

        await(scripts.send(SLOT, List.of(keyed(due, "a1", "A"), keyed(due, "free", ""))));

        assertThat(sync.hgetall(keys.flowKeys())).as("a message without a slot basis records the empty key")
                .containsOnly(entry("a1", "A"), entry("free", ""));
        await(scripts.send(SLOT, List.of(new TopicScripts.Send(Long.toString(due), utf8("plain")))));
        assertThat(sync.hlen(keys.flowKeys())).as("a call without the section does not touch the hash").isEqualTo(2);
    }

    @Test
    void theSafetyPollOfAParkedSlotFindsMembersWaitingOnlyBehindAParkedKey(RedisConnections redis) {
        start(redis, TopicType.FIXED_TIME, ONE_AT_A_TIME);
        long due = redis.redisTimeMillis() - 100;
        await(scripts.send(SLOT, List.of(keyed(due, "a1", "A"), keyed(due + 1, "a2", "A"))));
        pop(10); // a1 goes, a2 is parked: the store queue is empty
        assertThat(sync.exists(keys.store())).isZero();

        assertThat(await(scripts.countPending(new int[] { SLOT }, false))).as("the store queue only").isZero();
        assertThat(await(scripts.countPending(new int[] { SLOT }, false, true))).isEqualTo(1);
    }

    @Test
    void parksTheMembersOfAKeyAtItsLimitAndPopsTheOtherKeys(RedisConnections redis) {
        start(redis, TopicType.FIXED_TIME, ONE_AT_A_TIME);
        long due = redis.redisTimeMillis() - 100;
        await(scripts.send(SLOT, List.of(keyed(due, "a1", "A"), keyed(due + 1, "a2", "A"), keyed(due + 2, "a3", "A"),
                keyed(due + 3, "b1", "B"))));

        TopicScripts.PopReply reply = pop(10);

        assertThat(contents(reply)).containsExactly("a1", "b1");
        assertThat(reply.members()).extracting(TopicScripts.PoppedMember::flowKey).as("each with its key")
                .containsExactly("A", "B");
        assertThat(sync.zrange(keys.store(), 0, -1)).as("held-back members leave the store queue").isEmpty();
        assertThat(sync.zrangeWithScores(keys.parked("A"), 0, -1)).extracting(v -> v.getValue() + "@" + (long) v.getScore())
                .as("parked with their store scores").containsExactly("a2@" + (due + 1), "a3@" + (due + 2));
        assertThat(sync.zscore(keys.parkedKeys(), "A")).as("waits for a place").isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(sync.hgetall(keys.keyCounts())).containsOnly(entry("c:A", "1"), entry("c:B", "1"));
        assertThat(sync.hgetall(keys.counters())).containsEntry("parked", "2").containsEntry("delivered", "2");
        assertThat(pop(10).members()).as("nothing goes while A's place is taken").isEmpty();
    }

    @Test
    void aCommitFreesThePlaceWakesTheSlotAndTheNextPopBringsTheKeyBack(RedisConnections redis) {
        start(redis, TopicType.FIXED_TIME, ONE_AT_A_TIME);
        ChannelRecorder wakes = redis.record(topic.wakeChannel());
        long due = redis.redisTimeMillis() - 100;
        await(scripts.send(SLOT, List.of(keyed(due, "a1", "A"), keyed(due + 1, "a2", "A"), keyed(due + 2, "a3", "A"))));
        pop(10);

        assertThat(await(scripts.commit(SLOT, List.of(utf8("a1"))))).isEqualTo(1);

        assertThat(sync.zscore(keys.parkedKeys(), "A")).as("marked ready").isZero();
        assertThat(wakes.drain()).contains(SLOT + ":0");
        assertThat(sync.hexists(keys.keyCounts(), "c:A")).as("no member of A in flight").isFalse();
        assertThat(sync.hexists(keys.flowKeys(), "a1")).as("a committed member's key goes").isFalse();

        assertThat(contents(pop(10))).containsExactly("a2");
        assertThat(sync.zrange(keys.parked("A"), 0, -1)).containsExactly("a3");
        assertThat(sync.zscore(keys.parkedKeys(), "A")).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(sync.hgetall(keys.counters())).containsEntry("unparked", "1");
    }

    @Test
    void aRollbackAndTheSweepersRollbackAtTheDeadlineFreeThePlace(RedisConnections redis) {
        start(redis, TopicType.FIXED_TIME, ONE_AT_A_TIME);
        long due = redis.redisTimeMillis() - 100;
        await(scripts.send(SLOT, List.of(keyed(due, "a1", "A"), keyed(due + 1, "a2", "A"))));
        pop(10);

        await(scripts.rollback(SLOT, RETRY, "x: failed", List.of(utf8("a1"))));
        assertThat(sync.hexists(keys.keyCounts(), "c:A")).isFalse();
        assertThat(sync.hget(keys.flowKeys(), "a1")).as("a retried member keeps its key").isEqualTo("A");

        // the dead consumer's case: the member stays in the prepare queue until its deadline passes
        TopicScripts.PopReply second = await(scripts.pop(SLOT, 10, 1, 0, "w"));
        assertThat(second.members()).hasSize(1);
        clockPast(second.redisNow() + 2);
        assertThat(await(scripts.rollbackExpired(SLOT, NO_RETRY, "expired", 100)).dead()).isEqualTo(1);
        assertThat(sync.hexists(keys.keyCounts(), "c:A")).as("the sweeper frees the place").isFalse();
        String deadMember = sync.zrange(keys.dead(), 0, -1).get(0);
        assertThat(sync.hexists(keys.flowKeys(), deadMember)).as("a dead member's key goes").isFalse();
    }

    @Test
    void aReleaseFreesThePlace(RedisConnections redis) {
        start(redis, TopicType.FIXED_TIME, ONE_AT_A_TIME);
        long due = redis.redisTimeMillis() - 100;
        await(scripts.send(SLOT, List.of(keyed(due, "a1", "A"), keyed(due + 1, "a2", "A"))));
        TopicScripts.PopReply popped = pop(10);

        await(scripts.release(SLOT, popped.members()));

        assertThat(sync.hexists(keys.keyCounts(), "c:A")).isFalse();
        assertThat(sync.zscore(keys.parkedKeys(), "A")).isZero();
        assertThat(contents(pop(10))).as("the released member comes first again").containsExactly("a1");
    }

    @Test
    void membersWithoutAKeyCountAsOneKeyForTheWholeSlot(RedisConnections redis) {
        start(redis, TopicType.FIXED_TIME, ONE_AT_A_TIME);
        long due = redis.redisTimeMillis() - 100;
        // written before the limits were on, or by a plain ZADD: no entry in the flow keys hash
        sync.zadd(keys.store(), due, "old1");
        sync.zadd(keys.store(), due + 1, "old2");
        await(scripts.send(SLOT, List.of(keyed(due + 2, "b1", "B"), keyed(due + 3, "free", ""))));

        TopicScripts.PopReply first = pop(10);
        assertThat(contents(first)).as("one of the slot's old members, and the members of other keys")
                .containsExactly("old1", "b1", "free");
        assertThat(first.members()).extracting(TopicScripts.PoppedMember::flowKey).containsExactly("~slot", "B", null);
        assertThat(sync.zrange(keys.parked("~slot"), 0, -1)).containsExactly("old2");
        await(scripts.commit(SLOT, List.of(utf8("old1"), utf8("free"))));
        assertThat(sync.hgetall(keys.keyCounts())).as("the key-less member took no place").containsOnly(entry("c:B", "1"));
        assertThat(contents(pop(10))).as("the old members are all delivered, one at a time").containsExactly("old2");
    }

    @Test
    void keysAreEncodedSoTheyCannotMoveTheHashTag(RedisConnections redis) {
        start(redis, TopicType.FIXED_TIME, ONE_AT_A_TIME);
        long due = redis.redisTimeMillis() - 100;
        await(scripts.send(SLOT, List.of(keyed(due, "m1", "{x}%"), keyed(due + 1, "m2", "{x}%"))));

        pop(10);

        assertThat(keys.parked("{x}%")).isEqualTo("parked:%7Bx%7D%25{" + keys.store() + "}");
        assertThat(sync.zrange(keys.parked("{x}%"), 0, -1)).containsExactly("m2");
    }

    @ParameterizedTest
    @EnumSource(TopicType.class)
    void aCopySentWhileOneIsParkedMergesByTheTypesRule(TopicType type, RedisConnections redis) {
        start(redis, type, ONE_AT_A_TIME);
        long now = redis.redisTimeMillis();
        // RANGE_MERGE: due after the range; PRIORITY: the priority; FIXED_TIME: the time
        String head = type == TopicType.RANGE_MERGE ? "1" : type == TopicType.PRIORITY ? "9" : Long.toString(now - 100);
        String first = type == TopicType.RANGE_MERGE ? "2" : type == TopicType.PRIORITY ? "5" : Long.toString(now - 90);
        String second = type == TopicType.RANGE_MERGE ? "3" : type == TopicType.PRIORITY ? "7" : Long.toString(now - 50);
        await(scripts.send(SLOT, List.of(keyed(head, "head", "A"), keyed(first, "m", "A"))));
        clockPast(now + 5);
        pop(10);
        double parkedScore = sync.zscore(keys.parked("A"), "m");

        List<SendResult> again = await(scripts.send(SLOT, List.of(keyed(second, "m", "A"))));
        double sentScore = again.get(0).score();
        await(scripts.commit(SLOT, List.of(utf8("head"))));
        clockPast(Math.max(now, (long) sentScore) + 5);
        TopicScripts.PopReply reply = pop(10);

        assertThat(contents(reply)).as("one copy delivered").containsExactly("m");
        double expected = type == TopicType.RANGE_MERGE ? parkedScore : sentScore;
        assertThat(Double.parseDouble(new String(reply.members().get(0).rawScore(), StandardCharsets.US_ASCII)))
                .as("RANGE_MERGE keeps the first due time, the others the last sent").isEqualTo(expected);
        assertThat(sync.exists(keys.parked("A"))).isZero();
    }

    @Test
    void aRateLimitPerKeySpacesTheKeysDeliveries(RedisConnections redis) {
        // 10 per second: one permit every 100 ms, two at once
        start(redis, TopicType.FIXED_TIME, new KeyLimits(0, 10, 2));
        long due = redis.redisTimeMillis() - 100;
        List<TopicScripts.Send> sends = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            sends.add(keyed(due + i, "a" + i, "A"));
        }
        sends.add(keyed(due + 9, "b0", "B"));
        await(scripts.send(SLOT, sends));

        TopicScripts.PopReply first = pop(10);

        assertThat(contents(first)).as("A's burst, and B").containsExactly("a0", "a1", "b0");
        assertThat(first.nextDelayMillis()).as("until A's next permit").isBetween(1L, 100L);
        double readyAt = sync.zscore(keys.parkedKeys(), "A");
        clockPast((long) Math.ceil(readyAt));
        assertThat(contents(pop(10))).as("one permit later").containsExactly("a2");
    }

    @Test
    void whenLimitsAreOffUnparkBringsEveryParkedMemberBack(RedisConnections redis) {
        start(redis, TopicType.FIXED_TIME, ONE_AT_A_TIME);
        ChannelRecorder wakes = redis.record(topic.wakeChannel());
        long due = redis.redisTimeMillis() - 100;
        await(scripts.send(SLOT, List.of(keyed(due, "a1", "A"), keyed(due + 1, "a2", "A"), keyed(due + 2, "a3", "A"),
                keyed(due + 3, "b1", "B"), keyed(due + 4, "b2", "B"))));
        pop(10);
        scripts.keyLimits(KeyLimits.NONE);

        assertThat(await(scripts.countParked())).isEqualTo(1);
        TopicScripts.UnparkReply first = await(scripts.unpark(SLOT, 1));
        TopicScripts.UnparkReply second = await(scripts.unpark(SLOT, 64));

        assertThat(first).isEqualTo(new TopicScripts.UnparkReply(2, true));
        assertThat(second).isEqualTo(new TopicScripts.UnparkReply(1, false));
        assertThat(sync.zrangeWithScores(keys.store(), 0, -1)).extracting(v -> v.getValue() + "@" + (long) v.getScore())
                .containsExactly("a2@" + (due + 1), "a3@" + (due + 2), "b2@" + (due + 4));
        assertThat(await(scripts.countParked())).isZero();
        assertThat(wakes.drain()).contains(SLOT + ":0");
        assertThat(contents(pop(10))).as("a plain pop").containsExactly("a2", "a3", "b2");
    }

    @Test
    void aParkedMemberExpiresInItsParkedSet(RedisConnections redis) {
        start(redis, TopicType.FIXED_TIME, ONE_AT_A_TIME);
        long now = redis.redisTimeMillis();
        await(scripts.send(SLOT, List.of(
                new TopicScripts.Send(Long.toString(now - 100), utf8("a1"), null, null, 0, null, "A"),
                new TopicScripts.Send(Long.toString(now - 90), utf8("a2"), "+50", null, 0, null, "A"),
                new TopicScripts.Send(Long.toString(now - 80), utf8("a3"), null, null, 0, null, "A"))));
        pop(10);
        assertThat(sync.zrange(keys.parked("A"), 0, -1)).containsExactly("a2", "a3");
        clockPast(now + 60);

        assertThat(await(scripts.expire(SLOT, 100, true)).expired()).isEqualTo(1);

        assertThat(sync.zrange(keys.parked("A"), 0, -1)).as("the expired copy left its parked set").containsExactly("a3");
        assertThat(sync.zrange(keys.dead(), 0, -1)).containsExactly("a2");
        assertThat(sync.hexists(keys.flowKeys(), "a2")).as("its key is forgotten").isFalse();
        await(scripts.commit(SLOT, List.of(utf8("a1"))));
        assertThat(contents(pop(10))).as("never delivered").containsExactly("a3");
    }

    @Test
    void aParkedMessageIsCancelledLikeAPendingOne(RedisConnections redis) {
        start(redis, TopicType.FIXED_TIME, ONE_AT_A_TIME);
        long due = redis.redisTimeMillis() - 100;
        await(scripts.send(SLOT, List.of(keyed(due, "a1", "A"), keyed(due + 1, "a2", "A"))));
        pop(10);

        assertThat(await(scripts.find(SLOT, utf8("a2"), List.of())).pendingScore()).as("a parked copy is pending")
                .isEqualTo((double) due + 1);
        TopicScripts.CancelReply cancelled = await(scripts.cancel(SLOT, utf8("a2"), List.of()));

        assertThat(cancelled.cancelled()).isTrue();
        assertThat(sync.exists(keys.parked("A"))).isZero();
        assertThat(sync.zscore(keys.parkedKeys(), "A")).as("no parked member left").isNull();
        assertThat(sync.hexists(keys.flowKeys(), "a2")).as("its key is forgotten").isFalse();
        assertThat(sync.hget(keys.flowKeys(), "a1")).as("the copy in flight keeps its key").isEqualTo("A");
    }

    @Test
    void aCountLeftBehindHealsWhenNothingIsInFlight(RedisConnections redis) {
        start(redis, TopicType.FIXED_TIME, ONE_AT_A_TIME);
        long due = redis.redisTimeMillis() - 100;
        await(scripts.send(SLOT, List.of(keyed(due, "a1", "A"), keyed(due + 1, "a2", "A"))));
        pop(10);
        // the consumer stopped limiting keys and committed a1 without freeing its place
        scripts.keyLimits(KeyLimits.NONE);
        await(scripts.commit(SLOT, List.of(utf8("a1"))));
        scripts.keyLimits(ONE_AT_A_TIME);
        assertThat(sync.hget(keys.keyCounts(), "c:A")).isEqualTo("1");

        assertThat(contents(pop(10))).as("nothing in flight: A has room").containsExactly("a2");
        assertThat(sync.hget(keys.keyCounts(), "c:A")).isEqualTo("1");
    }

    @Test
    void aParkedMessageIsRescheduledInItsParkedSet(RedisConnections redis) {
        start(redis, TopicType.FIXED_TIME, ONE_AT_A_TIME);
        long due = redis.redisTimeMillis() - 100;
        await(scripts.send(SLOT, List.of(keyed(due, "a1", "A"), keyed(due + 1, "a2", "A"))));
        pop(10);

        TopicScripts.RescheduleReply reply = await(scripts.reschedule(SLOT, utf8("a2"), Long.toString(due - 50), List.of()));

        assertThat(reply.rescheduled()).isTrue();
        assertThat(sync.zscore(keys.parked("A"), "a2")).isEqualTo((double) due - 50);
        assertThat(sync.zscore(keys.store(), "a2")).as("still held back").isNull();
    }

    /**
     * pop_flow.lua is pop.lua's steps with the key steps added: with limits no key reaches, it pops what pop.lua pops,
     * with the same scores and attempts, through sends, expiries, commits and rollbacks, for each type.
     */
    @ParameterizedTest
    @EnumSource(TopicType.class)
    void withLimitsNoKeyReachesPopFlowPopsWhatPopPops(TopicType type, RedisConnections redis) {
        start(redis, type, KeyLimits.NONE);
        TopicScripts plain = scripts;
        TopicKeys plainTopic = topic;
        ScriptRunner runner = new ScriptRunner(redis.binary().async());
        TopicScripts flowed = new TopicScripts(() -> runner, new TopicKeys(new TopicDefinition("twin-" + type.name()
                .toLowerCase(), 2, type)));
        flowed.keyLimits(new KeyLimits(1_000_000, 0, 0));
        java.util.Random random = new java.util.Random(type.ordinal() + 7);
        long now = redis.redisTimeMillis();
        for (int round = 0; round < 6; round++) {
            List<TopicScripts.Send> sends = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                String value = switch (type) {
                    case RANGE_MERGE -> Integer.toString(1 + random.nextInt(3));
                    case PRIORITY -> Integer.toString(random.nextInt(5));
                    // due, or a minute away: no member falls due between the twins' pops
                    case FIXED_TIME -> Long.toString(random.nextInt(6) == 0 ? now + 60_000 : now - 1_000 + random.nextInt(1_000));
                };
                String expiry = random.nextInt(5) == 0 ? Long.toString(now - 10) : null;
                sends.add(new TopicScripts.Send(value, utf8("m" + random.nextInt(120)), expiry, null, 0, null, "k" + random.nextInt(9)));
            }
            await(plain.send(SLOT, sends));
            await(flowed.send(SLOT, sends));
            clockPast(redis.redisTimeMillis() + 5);
            TopicScripts.PopReply a = await(plain.pop(SLOT, 200, 60_000, 0, "w", true));
            TopicScripts.PopReply b = await(flowed.pop(SLOT, 200, 60_000, 0, "w", true));
            // every due member is popped (at most 120 are pending): RANGE_MERGE scores are "now + range" of each send,
            // and a retried member's back-off counts from its rollback's own now, so the twins' calls, a few ms apart,
            // order such members differently; the same members, with the same attempts, are popped
            assertThat(summary(b, type)).as("round %d", round).containsExactlyInAnyOrderElementsOf(summary(a, type));
            assertThat(b.expired()).isEqualTo(a.expired());
            List<byte[]> popped = a.members().stream().map(TopicScripts.PoppedMember::content).toList();
            List<byte[]> commit = popped.subList(0, popped.size() / 2);
            List<byte[]> rollBack = popped.subList(popped.size() / 2, popped.size());
            await(plain.commit(SLOT, commit));
            await(flowed.commit(SLOT, commit));
            await(plain.rollback(SLOT, RETRY, "x: failed", rollBack));
            await(flowed.rollback(SLOT, RETRY, "x: failed", rollBack));
        }
        // the retried members' back-off counts from each rollback's own now: the same members wait, at about the same time
        assertThat(redis.sync().zrange(flowedStore(flowed), 0, -1))
                .containsExactlyInAnyOrderElementsOf(redis.sync().zrange(plainTopic.slot(SLOT).store(), 0, -1));
    }

    private static String flowedStore(TopicScripts flowed) {
        return flowed.keys().slot(SLOT).store();
    }

    private static List<String> summary(TopicScripts.PopReply reply, TopicType type) {
        // scores set by each twin's own clock (RANGE_MERGE sends, FIXED_TIME back-offs) are left out
        return reply.members().stream().map(m -> new String(m.content(), StandardCharsets.UTF_8)
                + (type == TopicType.RANGE_MERGE || type == TopicType.FIXED_TIME && m.attempt() > 1 ? ""
                        : "@" + new String(m.rawScore(), StandardCharsets.US_ASCII))
                + "#" + m.attempt()).toList();
    }

    /** Waits, on events, until the Redis clock is past {@code millis}. */
    private void clockPast(long millis) {
        Awaitility.await().until(() -> redis.redisTimeMillis() > millis);
    }

    private TopicScripts.PopReply pop(int count) {
        return await(scripts.pop(SLOT, count, 60_000, 0, "w"));
    }

    private static TopicScripts.Send keyed(long value, String member, String key) {
        return keyed(Long.toString(value), member, key);
    }

    private static TopicScripts.Send keyed(String value, String member, String key) {
        return new TopicScripts.Send(value, utf8(member), null, null, 0, null, key);
    }

    private static List<String> contents(TopicScripts.PopReply reply) {
        return reply.members().stream().map(m -> new String(m.content(), StandardCharsets.UTF_8)).toList();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static java.util.Map.Entry<String, String> entry(String key, String value) {
        return java.util.Map.entry(key, value);
    }
}
