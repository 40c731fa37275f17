package io.rmq.engine.scripts;

import static io.rmq.testing.Bytes.utf8Array;
import static io.rmq.testing.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

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

/** {@code rollback.lua}: retries with backoff, the dead queue, merging and the sweeper's selection, against a real Redis. */
@RedisTest
class RollbackScriptIT {

    private static final int SLOT = 3;
    /** The key names do not depend on the type, which each call passes to the script. */
    private static final TopicKeys TOPIC = new TopicKeys(new TopicDefinition("price", 8, TopicType.FIXED_TIME));
    private static final SlotKeys KEYS = TOPIC.slot(SLOT);
    private static final int MAX_RETRIES = 16;
    private static final long BACKOFF = 1_000;
    private static final long BACKOFF_MAX = 60_000;
    private static final double FAR_DEADLINE = 4_102_444_800_000.0;

    private RedisConnections redis;
    private RedisCommands<String, String> sync;
    private ScriptRunner scripts;
    private ChannelRecorder wakes;

    @BeforeEach
    void setUp(RedisConnections redis) {
        this.redis = redis;
        this.sync = redis.sync();
        this.scripts = new ScriptRunner(redis.binary().async());
        this.wakes = redis.record(TOPIC.wakeChannel());
    }

    // --- timed types: exponential backoff ----------------------------------------------------

    @ParameterizedTest
    @EnumSource(value = TopicType.class, names = {"RANGE_MERGE", "FIXED_TIME"})
    void aTimedMemberIsRequeuedAfterTheBaseBackoffOnItsFirstFailure(TopicType type) {
        inFlight("a");

        long before = redis.redisTimeMillis();
        Counts counts = rollback(type, MAX_RETRIES, "a");
        long after = redis.redisTimeMillis();

        assertThat(counts).isEqualTo(new Counts(1, 0, 0));
        assertThat(sync.zscore(KEYS.store(), "a")).isBetween(before + BACKOFF + 0.0, after + BACKOFF + 0.0);
        assertThat(sync.exists(KEYS.prepare())).isZero();
        assertThat(sync.hget(KEYS.attempts(), "a")).isEqualTo("1");
        assertThat(wakes.drain()).containsExactly(SLOT + ":" + BACKOFF);
    }

    @ParameterizedTest(name = "after {0} earlier failures the delay is {1} ms")
    @CsvSource({"1, 2000", "2, 4000", "5, 32000", "6, 60000", "15, 60000"})
    void theBackoffDoublesWithEachFailureUpToTheMaximum(int earlierFailures, long delay) {
        inFlight("a");
        sync.hset(KEYS.attempts(), "a", Integer.toString(earlierFailures));

        long before = redis.redisTimeMillis();
        Counts counts = rollback(TopicType.FIXED_TIME, MAX_RETRIES, "a");
        long after = redis.redisTimeMillis();

        assertThat(counts).isEqualTo(new Counts(1, 0, 0));
        assertThat(sync.zscore(KEYS.store(), "a")).isBetween(before + delay + 0.0, after + delay + 0.0);
        assertThat(sync.hget(KEYS.attempts(), "a")).isEqualTo(Integer.toString(earlierFailures + 1));
        assertThat(wakes.drain()).containsExactly(SLOT + ":" + delay);
    }

    // --- PRIORITY: behind the pending messages -----------------------------------------------

    @ParameterizedTest(name = "priority {0} with 3 the lowest pending goes to {1}")
    @CsvSource({"10, 2", "2.5, 2", "1, 1", "-4.25, -4.25"})
    void aPriorityMemberGoesBehindThePendingOnes(String priority, double score) {
        sync.zadd(KEYS.store(), 5.0, "x");
        sync.zadd(KEYS.store(), 3.0, "y");
        inFlight("a");
        sync.hset(KEYS.origin(), "a", priority);

        Counts counts = rollback(TopicType.PRIORITY, MAX_RETRIES, "a");

        assertThat(counts).isEqualTo(new Counts(1, 0, 0));
        assertThat(sync.zscore(KEYS.store(), "a")).isEqualTo(score);
        assertThat(sync.zscore(KEYS.store(), "x")).isEqualTo(5.0);
        assertThat(sync.zscore(KEYS.store(), "y")).isEqualTo(3.0);
        assertThat(sync.exists(KEYS.origin())).isZero();
        assertThat(sync.hget(KEYS.attempts(), "a")).isEqualTo("1");
        assertThat(wakes.drain()).containsExactly(SLOT + ":0");
    }

    @ParameterizedTest
    @ValueSource(strings = {"7.25", "-0.1", "1000000.000001"})
    void aPriorityMemberKeepsItsPriorityWhenTheStoreIsEmpty(String priority) {
        inFlight("a");
        sync.hset(KEYS.origin(), "a", priority);

        rollback(TopicType.PRIORITY, MAX_RETRIES, "a");

        assertThat(sync.zscore(KEYS.store(), "a")).isEqualTo(Double.parseDouble(priority));
    }

    @Test
    void severalPriorityMembersQueueBehindEachOther() {
        sync.zadd(KEYS.store(), 3.0, "pending");
        inFlight("a", "b");
        sync.hset(KEYS.origin(), "a", "10");
        sync.hset(KEYS.origin(), "b", "10");

        rollback(TopicType.PRIORITY, MAX_RETRIES, "a", "b");

        assertThat(sync.zrevrange(KEYS.store(), 0, -1)).containsExactly("pending", "a", "b");
        assertThat(sync.zscore(KEYS.store(), "b")).isEqualTo(1.0);
    }

    // --- the dead queue ----------------------------------------------------------------------

    @ParameterizedTest(name = "maxRetries {0}")
    @ValueSource(ints = {0, 1, 3})
    void aMemberIsDeadAfterExactlyOnePlusMaxRetriesDeliveries(int maxRetries) {
        int deliveries = 0;
        Counts counts;
        long before;
        do {
            // deliver: from the store (if requeued) to the prepare queue
            sync.zrem(KEYS.store(), "a");
            inFlight("a");
            deliveries++;
            before = redis.redisTimeMillis();
            counts = rollback(TopicType.FIXED_TIME, maxRetries, "a");
        } while (counts.dead() == 0 && counts.requeued() == 1 && deliveries < 100);
        long after = redis.redisTimeMillis();

        assertThat(counts).isEqualTo(new Counts(0, 0, 1));
        assertThat(deliveries).isEqualTo(1 + maxRetries);
        assertThat(sync.zscore(KEYS.dead(), "a")).as("scored with the time of death").isBetween(before + 0.0, after + 0.0);
        assertThat(sync.hexists(KEYS.attempts(), "a")).isFalse();
        assertThat(sync.zscore(KEYS.store(), "a")).isNull();
        assertThat(sync.zscore(KEYS.prepare(), "a")).isNull();
    }

    @Test
    void aDeadMemberKeepsItsLastFailureWithItsDeliveriesAndPriority() {
        inFlight("a");
        sync.hset(KEYS.origin(), "a", "5");
        sync.hset(KEYS.attempts(), "a", "1");

        rollback(TopicType.PRIORITY, 1, "a");

        assertThat(sync.zrange(KEYS.dead(), 0, -1)).containsExactly("a");
        assertThat(sync.hget(KEYS.failures(), "a")).isEqualTo("2\t5\t" + FAILURE);
    }

    @Test
    void aRetriedMemberKeepsItsLastFailureAndAMergedOneForgetsIt() {
        inFlight("retried", "merged");
        sync.zadd(KEYS.store(), 4.0, "merged");

        Counts counts = rollback(TopicType.FIXED_TIME, MAX_RETRIES, "retried", "merged");

        assertThat(counts).isEqualTo(new Counts(1, 1, 0));
        assertThat(sync.hget(KEYS.failures(), "retried")).isEqualTo("1\t\t" + FAILURE);
        assertThat(sync.hexists(KEYS.failures(), "merged")).as("the pending copy starts afresh").isFalse();
    }

    @Test
    void withNoRetriesTheFirstFailureIsDead() {
        inFlight("a");
        sync.hset(KEYS.origin(), "a", "5");

        Counts counts = rollback(TopicType.PRIORITY, 0, "a");

        assertThat(counts).isEqualTo(new Counts(0, 0, 1));
        assertThat(sync.zrange(KEYS.dead(), 0, -1)).containsExactly("a");
        assertThat(sync.exists(KEYS.store(), KEYS.prepare(), KEYS.attempts(), KEYS.origin())).isZero();
        assertThat(wakes.drain()).as("nothing became poppable").isEmpty();
    }

    @Test
    void aDeadMemberLeavesItsPendingCopyWithAFreshCountAndWakesTheSlot() {
        sync.zadd(KEYS.store(), 4.0, "a");
        inFlight("a");
        sync.hset(KEYS.attempts(), "a", "2");

        Counts counts = rollback(TopicType.PRIORITY, 2, "a");

        assertThat(counts).isEqualTo(new Counts(0, 0, 1));
        assertThat(sync.zrange(KEYS.dead(), 0, -1)).containsExactly("a");
        assertThat(sync.zscore(KEYS.store(), "a")).isEqualTo(4.0);
        assertThat(sync.hexists(KEYS.attempts(), "a")).isFalse();
        assertThat(wakes.drain()).containsExactly(SLOT + ":0");
    }

    // --- merging into a pending copy ---------------------------------------------------------

    @ParameterizedTest
    @EnumSource(TopicType.class)
    void aMemberWithAPendingCopyMergesIntoIt(TopicType type) {
        long now = redis.redisTimeMillis();
        double pending = type.isTimed() ? now + 30_000.0 : 4.0;
        sync.zadd(KEYS.store(), pending, "a");
        inFlight("a");
        sync.hset(KEYS.attempts(), "a", "2");
        sync.hset(KEYS.origin(), "a", "9");

        Counts counts = rollback(type, MAX_RETRIES, "a");

        assertThat(counts).isEqualTo(new Counts(0, 1, 0));
        assertThat(sync.zscore(KEYS.store(), "a")).as("the pending copy keeps its score").isEqualTo(pending);
        assertThat(sync.exists(KEYS.prepare(), KEYS.attempts(), KEYS.origin(), KEYS.dead())).isZero();
        assertThat(wakes.drain()).as("the pending copy is no longer blocked").singleElement()
                .satisfies(notice -> assertThat(delayIn(notice)).isBetween(0L, type.isTimed() ? 30_000L : 0L));
    }

    // --- selection ---------------------------------------------------------------------------

    @Test
    void skipsMembersThatAreNotInThePrepareQueue() {
        sync.zadd(KEYS.store(), 4.0, "pending-only");

        Counts counts = rollback(TopicType.PRIORITY, MAX_RETRIES, "committed", "pending-only");

        assertThat(counts).isEqualTo(new Counts(0, 0, 0));
        assertThat(sync.exists(KEYS.attempts(), KEYS.dead(), KEYS.prepare())).isZero();
        assertThat(sync.zrange(KEYS.store(), 0, -1)).containsExactly("pending-only");
        assertThat(wakes.drain()).isEmpty();
    }

    @Test
    void theExpiredSelectionRollsBackOnlyMembersWhoseDeadlinePassed() {
        long now = redis.redisTimeMillis();
        sync.zadd(KEYS.prepare(), now - 2_000.0, "expired1");
        sync.zadd(KEYS.prepare(), now - 1_000.0, "expired2");
        sync.zadd(KEYS.prepare(), now + 60_000.0, "held");

        // members given with the 'expired' selection are ignored
        Counts counts = sweep(TopicType.FIXED_TIME, 10, "held");

        assertThat(counts).isEqualTo(new Counts(2, 0, 0));
        assertThat(sync.zrange(KEYS.prepare(), 0, -1)).containsExactly("held");
        assertThat(sync.zrange(KEYS.store(), 0, -1)).containsExactlyInAnyOrder("expired1", "expired2");
        assertThat(sync.hgetall(KEYS.attempts())).containsOnlyKeys("expired1", "expired2");
    }

    @Test
    void theExpiredSelectionTakesTheEarliestDeadlinesUpToTheLimit() {
        long now = redis.redisTimeMillis();
        sync.zadd(KEYS.prepare(), now - 1_000.0, "third");
        sync.zadd(KEYS.prepare(), now - 3_000.0, "first");
        sync.zadd(KEYS.prepare(), now - 2_000.0, "second");

        Counts counts = sweep(TopicType.PRIORITY, 2);

        assertThat(counts).isEqualTo(new Counts(2, 0, 0));
        assertThat(sync.zrange(KEYS.prepare(), 0, -1)).containsExactly("third");
        assertThat(sync.zrange(KEYS.store(), 0, -1)).containsExactlyInAnyOrder("first", "second");
    }

    @Test
    void theExpiredSelectionWithNothingExpiredDoesNothing() {
        sync.zadd(KEYS.prepare(), redis.redisTimeMillis() + 60_000.0, "held");

        assertThat(sweep(TopicType.FIXED_TIME, 10)).isEqualTo(new Counts(0, 0, 0));
        assertThat(sync.zrange(KEYS.prepare(), 0, -1)).containsExactly("held");
        assertThat(wakes.drain()).isEmpty();
    }

    // --- one call, several outcomes ----------------------------------------------------------

    @Test
    void oneCallCountsEachOutcome() {
        sync.zadd(KEYS.store(), redis.redisTimeMillis() + 30_000.0, "merged");
        inFlight("requeued", "merged", "dead");
        sync.hset(KEYS.attempts(), "dead", "1");

        Counts counts = rollback(TopicType.FIXED_TIME, 1, "requeued", "merged", "dead");

        assertThat(counts).isEqualTo(new Counts(1, 1, 1));
        assertThat(sync.zrange(KEYS.store(), 0, -1)).containsExactlyInAnyOrder("requeued", "merged");
        assertThat(sync.zrange(KEYS.dead(), 0, -1)).containsExactly("dead");
        assertThat(sync.hgetall(KEYS.attempts())).containsOnlyKeys("requeued");
    }

    @Test
    void oneWakeNoticeCarriesTheSmallestDelay() {
        inFlight("a", "b", "c");
        sync.hset(KEYS.attempts(), "a", "2");
        sync.hset(KEYS.attempts(), "c", "1");

        rollback(TopicType.RANGE_MERGE, MAX_RETRIES, "a", "b", "c");

        assertThat(wakes.drain()).containsExactly(SLOT + ":" + BACKOFF);
    }

    @Test
    void aDuePendingCopyMakesTheWakeImmediate() {
        sync.zadd(KEYS.store(), redis.redisTimeMillis() - 5.0, "b");
        inFlight("a", "b");

        Counts counts = rollback(TopicType.FIXED_TIME, MAX_RETRIES, "a", "b");

        assertThat(counts).isEqualTo(new Counts(1, 1, 0));
        assertThat(wakes.drain()).containsExactly(SLOT + ":0");
    }

    // --- handover (coordination) -------------------------------------------------------------

    @Test
    void wakesTheNewOwnerAtOnceWhenItEmptiesThePrepareQueueDuringAHandover() {
        inFlight("a");
        sync.hset(KEYS.owner(), "epoch", "7");
        sync.hset(KEYS.owner(), "handover", "1");

        Counts counts = rollback(TopicType.FIXED_TIME, MAX_RETRIES, "a");

        assertThat(counts).isEqualTo(new Counts(1, 0, 0));
        assertThat(wakes.drain()).as("the backoff notice merges into an immediate one").containsExactly(SLOT + ":0");
    }

    @Test
    void theSweeperWakesTheNewOwnerWhenItEmptiesThePrepareQueueDuringAHandover() {
        sync.zadd(KEYS.prepare(), 1.0, "expired");
        sync.hset(KEYS.owner(), "handover", "1");

        Counts counts = sweep(TopicType.PRIORITY, 10);

        assertThat(counts).isEqualTo(new Counts(1, 0, 0));
        assertThat(wakes.drain()).containsExactly(SLOT + ":0");
    }

    @Test
    void aRollbackThatLeavesMembersInFlightDuringAHandoverKeepsTheBackoffNotice() {
        inFlight("a", "b");
        sync.hset(KEYS.owner(), "handover", "1");

        rollback(TopicType.FIXED_TIME, MAX_RETRIES, "a");

        assertThat(wakes.drain()).singleElement().satisfies(n -> assertThat(delayIn(n)).isEqualTo(BACKOFF));
    }

    // --- helpers ---------------------------------------------------------------------------

    private static final String FAILURE = "java.lang.IllegalStateException: out of stock";

    private record Counts(long requeued, long merged, long dead) {
    }

    private void inFlight(String... members) {
        for (String member : members) {
            sync.zadd(KEYS.prepare(), FAR_DEADLINE, member);
        }
    }

    private Counts rollback(TopicType type, int maxRetries, String... members) {
        return run(type, maxRetries, "members", 0, members);
    }

    private Counts sweep(TopicType type, int limit, String... ignoredMembers) {
        return run(type, MAX_RETRIES, "expired", limit, ignoredMembers);
    }

    private Counts run(TopicType type, int maxRetries, String selection, int limit, String... members) {
        Stream<String> head = Stream.of(type.name(), Integer.toString(maxRetries), Long.toString(BACKOFF),
                Long.toString(BACKOFF_MAX), TOPIC.wakeChannel(), Integer.toString(SLOT), selection, Integer.toString(limit),
                FAILURE);
        byte[][] args = utf8Array(Stream.concat(head, Stream.of(members)).toArray(String[]::new));
        List<Object> reply = await(scripts.run(RedisScript.ROLLBACK,
                utf8Array(KEYS.store(), KEYS.prepare(), KEYS.attempts(), KEYS.origin(), KEYS.dead(), KEYS.owner(),
                        KEYS.failures()), args));
        assertThat(reply).hasSize(3);
        return new Counts((Long) reply.get(0), (Long) reply.get(1), (Long) reply.get(2));
    }

    private static long delayIn(String notice) {
        assertThat(notice).startsWith(SLOT + ":");
        return Long.parseLong(notice.substring(notice.indexOf(':') + 1));
    }
}
