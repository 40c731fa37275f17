package io.rmq.engine.scripts;

import static io.rmq.testing.Bytes.text;
import static io.rmq.testing.Bytes.utf8;
import static io.rmq.testing.Bytes.utf8Array;
import static io.rmq.testing.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.engine.redis.RedisScript;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.topic.SlotKeys;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.CommandStats;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;

/** {@code pop.lua}: the prepare phase, against a real Redis. */
@RedisTest
class PopScriptIT {

    private static final int SLOT = 3;
    /** The key names do not depend on the type, which each call passes to the script. */
    private static final TopicKeys TOPIC = new TopicKeys(new TopicDefinition("price", 8, TopicType.FIXED_TIME));
    private static final SlotKeys KEYS = TOPIC.slot(SLOT);
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

    // --- what is popped, in which order ------------------------------------------------------

    @ParameterizedTest
    @EnumSource(value = TopicType.class, names = {"RANGE_MERGE", "FIXED_TIME"})
    void timedTypesPopOnlyDueMembersOldestFirstUpToCount(TopicType type) {
        long now = redis.redisTimeMillis();
        sync.zadd(KEYS.store(), now - 1_000.0, "c");
        sync.zadd(KEYS.store(), now - 3_000.0, "a");
        sync.zadd(KEYS.store(), now + 60_000.0, "future");
        sync.zadd(KEYS.store(), now - 2_000.0, "b");

        Popped first = pop(type, 2);
        Popped second = pop(type, 10);

        assertThat(first.members()).containsExactly("a", "b");
        assertThat(first.scores()).containsExactly(now - 3_000.0, now - 2_000.0);
        assertThat(second.members()).containsExactly("c");
        assertThat(sync.zrange(KEYS.store(), 0, -1)).containsExactly("future");
        assertThat(sync.zrange(KEYS.prepare(), 0, -1)).containsExactlyInAnyOrder("a", "b", "c");
    }

    @Test
    void priorityPopsTheHighestFirstWhateverTheScore() {
        sync.zadd(KEYS.store(), 1.0, "low");
        sync.zadd(KEYS.store(), 10.0, "high");
        sync.zadd(KEYS.store(), -3.0, "negative");
        sync.zadd(KEYS.store(), 2.5, "fraction");
        sync.zadd(KEYS.store(), 4_102_444_800_000.0, "looks-like-a-future-time");

        Popped first = pop(TopicType.PRIORITY, 3);
        Popped second = pop(TopicType.PRIORITY, 10);

        assertThat(first.members()).containsExactly("looks-like-a-future-time", "high", "fraction");
        assertThat(first.scores()).containsExactly(4_102_444_800_000.0, 10.0, 2.5);
        assertThat(second.members()).containsExactly("low", "negative");
        assertThat(second.scores()).containsExactly(1.0, -3.0);
        assertThat(sync.exists(KEYS.store())).isZero();
    }

    @Test
    void aMemberAddedWithPlainZaddIsPopped() {
        long now = redis.redisTimeMillis();
        // as `redis-cli ZADD price_3 <score> <content>` would, with the documented key names
        sync.zadd("price_3", now - 1.0, "{\"sku\":42}");

        Popped popped = pop(TopicType.FIXED_TIME, 10);

        assertThat(popped.members()).containsExactly("{\"sku\":42}");
        assertThat(sync.zscore("prepare{price_3}", "{\"sku\":42}")).isNotNull();
        assertThat(sync.exists("price_3")).isZero();
    }

    @Test
    void aPriorityMemberAddedWithPlainZaddIsPopped() {
        sync.zadd("price_3", 7.0, "hello");

        Popped popped = pop(TopicType.PRIORITY, 10);

        assertThat(popped.members()).containsExactly("hello");
        assertThat(popped.scores()).containsExactly(7.0);
    }

    // --- the prepare queue -------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(TopicType.class)
    void poppedMembersGetTheDeadlineNowPlusTimeout(TopicType type) {
        long before = redis.redisTimeMillis();
        sync.zadd(KEYS.store(), before - 1.0, "a");
        sync.zadd(KEYS.store(), before - 2.0, "b");

        Popped popped = pop(type, 10, TIMEOUT);
        long after = redis.redisTimeMillis();

        assertThat(popped.now()).isBetween(before, after);
        assertThat(sync.zscore(KEYS.prepare(), "a")).isEqualTo((double) popped.now() + TIMEOUT);
        assertThat(sync.zscore(KEYS.prepare(), "b")).isEqualTo((double) popped.now() + TIMEOUT);
    }

    @Test
    void priorityRecordsTheOriginalPriorityOfEachPoppedMember() {
        sync.zadd(KEYS.store(), 2.5, "a");
        sync.zadd(KEYS.store(), -7.0, "b");

        pop(TopicType.PRIORITY, 10);

        assertThat(Double.parseDouble(sync.hget(KEYS.origin(), "a"))).isEqualTo(2.5);
        assertThat(Double.parseDouble(sync.hget(KEYS.origin(), "b"))).isEqualTo(-7.0);
    }

    @ParameterizedTest
    @EnumSource(value = TopicType.class, names = {"RANGE_MERGE", "FIXED_TIME"})
    void timedTypesRecordNoOrigin(TopicType type) {
        sync.zadd(KEYS.store(), redis.redisTimeMillis() - 1.0, "a");

        pop(type, 10);

        assertThat(sync.exists(KEYS.origin())).isZero();
    }

    // --- attempts ----------------------------------------------------------------------------

    @Test
    void theFirstDeliveryIsAttemptOneAndLaterOnesFollowTheFailureCount() {
        long now = redis.redisTimeMillis();
        sync.zadd(KEYS.store(), now - 2.0, "fresh");
        sync.zadd(KEYS.store(), now - 1.0, "retried");
        sync.hset(KEYS.attempts(), "retried", "2");

        Popped popped = pop(TopicType.FIXED_TIME, 10);

        assertThat(popped.entries()).containsExactly(
                new Entry("fresh", now - 2.0, 1),
                new Entry("retried", now - 1.0, 3));
        assertThat(sync.hget(KEYS.attempts(), "retried")).as("pop does not count failures").isEqualTo("2");
    }

    // --- next --------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(TopicType.class)
    void nextIsZeroOnAFullBatch(TopicType type) {
        long now = redis.redisTimeMillis();
        sync.zadd(KEYS.store(), now - 2.0, "a");
        sync.zadd(KEYS.store(), now - 1.0, "b");

        Popped popped = pop(type, 2);

        assertThat(popped.members()).hasSize(2);
        assertThat(popped.next()).isZero();
    }

    @Test
    void nextIsTheTimeUntilTheEarliestFutureMember() {
        long now = redis.redisTimeMillis();
        sync.zadd(KEYS.store(), now - 1.0, "due");
        sync.zadd(KEYS.store(), now + 90_000.0, "later");
        sync.zadd(KEYS.store(), now + 60_000.0, "soon");

        Popped popped = pop(TopicType.FIXED_TIME, 10);

        assertThat(popped.members()).containsExactly("due");
        assertThat(popped.next()).isEqualTo(now + 60_000 - popped.now());
        assertThat(sync.zrange(KEYS.store(), 0, -1)).containsExactly("soon", "later");
    }

    @Test
    void nextIsTheTimeUntilTheEarliestFutureMemberEvenWhenNothingIsDue() {
        long now = redis.redisTimeMillis();
        sync.zadd(KEYS.store(), now + 60_000.0, "soon");

        Popped popped = pop(TopicType.RANGE_MERGE, 10);

        assertThat(popped.entries()).isEmpty();
        assertThat(popped.next()).isEqualTo(now + 60_000 - popped.now());
    }

    @ParameterizedTest
    @EnumSource(TopicType.class)
    void nextIsMinusOneWhenNothingWaits(TopicType type) {
        sync.zadd(KEYS.store(), redis.redisTimeMillis() - 1.0, "a");

        Popped popped = pop(type, 10);
        Popped empty = pop(type, 10);

        assertThat(popped.members()).containsExactly("a");
        assertThat(popped.next()).isEqualTo(-1);
        assertThat(empty.entries()).isEmpty();
        assertThat(empty.next()).isEqualTo(-1);
        assertThat(empty.now()).isPositive();
    }

    /**
     * A pop with nothing due (a consumer that has caught up) is told so by the store queue's first member: it reads the
     * clock, the pause flag and that member, and none of the keys it would write to or look up when members move.
     */
    @ParameterizedTest
    @EnumSource(TopicType.class)
    void aPopWithNothingDueReadsTheClockThePauseFlagAndTheFirstMemberOnly(TopicType type) {
        long now = redis.redisTimeMillis();
        if (type != TopicType.PRIORITY) {
            sync.zadd(KEYS.store(), now + 60_000.0, "later");
        }
        sync.configResetstat();

        List<Object> reply = await(scripts.run(RedisScript.POP,
                utf8Array(KEYS.store(), KEYS.prepare(), KEYS.attempts(), KEYS.origin(), KEYS.owner(), KEYS.paused(),
                        KEYS.counters()),
                utf8(type.name()), utf8("10"), utf8(Long.toString(TIMEOUT)), utf8("0"), utf8("")));
        Map<String, Long> calls = CommandStats.calls(sync.info("commandstats"));

        assertThat(reply).as("nothing popped").hasSize(7);
        long next = type == TopicType.PRIORITY ? -1 : now + 60_000 - (Long) reply.get(1);
        assertThat((Long) reply.get(2)).as("next").isEqualTo(next);
        // the client's own commands (the call, a script load, the connection's set-up, the statistics)
        calls.keySet().removeIf(c -> c.startsWith("eval") || c.startsWith("script") || c.startsWith("hello")
                || c.startsWith("client") || c.startsWith("info") || c.startsWith("config"));
        assertThat(calls).as("commands the pop ran").containsOnlyKeys("time", "exists",
                type == TopicType.PRIORITY ? "zrevrange" : "zrange");
        assertThat(calls.values()).as("once each").containsOnly(1L);
    }

    /**
     * A queue's head may be the rest of a long run of equal scores whose start an earlier pop took. The pop judges a
     * short first run with the run after it: when that one is long, the scores are read run by run (a member with its
     * score and a ZCOUNT per run), not once per member; when it is short too, the round is read with its scores at
     * once (the two runs' reads only). Either way each member comes with its own score. The runs here are 7 apart:
     * the first guess of a next run one apart misses (one ZCOUNT), and the round guesses no more.
     */
    @ParameterizedTest
    @EnumSource(TopicType.class)
    void aShortFirstRunIsJudgedWithTheRunAfterIt(TopicType type) {
        // a short run, then long ones: the scores read run by run (the probe, the second and third runs' first members)
        assertThat(readsOfOnePop(type, new int[] {3, 40, 40}, new double[] {0, 7, 14}, 70))
                .as("members read with their scores, ZCOUNTs").containsExactly(3L, 4L);
        sync.del(KEYS.store(), KEYS.prepare(), KEYS.counters());
        // two short runs: the round read with its scores
        assertThat(readsOfOnePop(type, new int[] {3, 2, 40, 40}, new double[] {0, 7, 14, 21}, 70))
                .as("the first two runs' reads").containsExactly(2L, 3L);
        sync.del(KEYS.store(), KEYS.prepare(), KEYS.counters());
        // a short run and nothing due after it (timed types), or the end of the queue
        assertThat(readsOfOnePop(type, new int[] {3}, new double[] {0}, 70)).as("the run's reads").containsExactly(2L, 2L);
    }

    /**
     * Runs of consecutive whole scores (a busy queue's milliseconds, or priorities one apart) are told by ZCOUNTs alone
     * after the first run's score: each next run by its end and its start, which must be where the run before it ends
     * (no score between them). A gap or a fraction between two runs ends the guessing for the round: the runs after
     * it are read from their first members, as any other run. Each member comes with its own score.
     */
    @ParameterizedTest
    @EnumSource(TopicType.class)
    void runsOfConsecutiveWholeScoresAreToldByTheirCounts(TopicType type) {
        int[] runs = {20, 20, 20, 20};
        // the probe reads the first member; the first run's end, then two ZCOUNTs for each of the three runs after it
        assertThat(readsOfOnePop(type, runs, new double[] {0, 1, 2, 3}, 80)).as("one apart").containsExactly(1L, 7L);
        sync.del(KEYS.store(), KEYS.prepare(), KEYS.counters(), KEYS.origin());
        // the guess after the second run finds nothing one apart (one ZCOUNT): the third and fourth runs are read (a
        // member and a ZCOUNT each)
        assertThat(readsOfOnePop(type, runs, new double[] {0, 1, 5, 6}, 80)).as("a gap").containsExactly(3L, 6L);
        sync.del(KEYS.store(), KEYS.prepare(), KEYS.counters(), KEYS.origin());
        // a run half-way between two whole scores: the first guess finds members before its run's start (two ZCOUNTs)
        assertThat(readsOfOnePop(type, runs, new double[] {0, 0.5, 1, 2}, 80)).as("a fraction").containsExactly(4L, 6L);
    }

    /**
     * Pops {@code count} from a queue of runs of equal scores of the given lengths, run r at {@code offsets[r]} from
     * the first run's score in the queue's order (timed types: later; PRIORITY: lower); checks each popped member's
     * score. Returns what the pop read: members with their scores ({@code ZRANGE}/{@code ZREVRANGE}) and
     * {@code ZCOUNT}s.
     */
    private long[] readsOfOnePop(TopicType type, int[] runs, double[] offsets, int count) {
        long now = redis.redisTimeMillis();
        Map<String, Double> scoreOf = new HashMap<>();
        int m = 0;
        for (int r = 0; r < runs.length; r++) {
            double score = type.isTimed() ? now - 10_000.0 + offsets[r] : 1_000.0 - offsets[r];
            for (int i = 0; i < runs[r]; i++) {
                String member = String.format("m-%03d-%04d", r, m++);
                sync.zadd(KEYS.store(), score, member);
                scoreOf.put(member, score);
            }
        }
        if (type.isTimed()) {
            sync.zadd(KEYS.store(), now + 60_000.0, "not-yet-due");
        }
        sync.configResetstat();
        Popped popped = pop(type, count);
        Map<String, Long> calls = CommandStats.calls(sync.info("commandstats"));

        assertThat(popped.entries()).hasSize(Math.min(count, m));
        for (Entry entry : popped.entries()) {
            assertThat(entry.score()).as(entry.member()).isEqualTo(scoreOf.get(entry.member()));
        }
        // the round's candidates are one read more, without scores (timed types: a ZRANGEBYSCORE; PRIORITY: a ZREVRANGE)
        long candidatesRead = type.isTimed() ? 0 : 1;
        return new long[] {calls.getOrDefault("zrange", 0L) + calls.getOrDefault("zrevrange", 0L) - candidatesRead,
                calls.getOrDefault("zcount", 0L)};
    }

    /**
     * The scores are read run by run of equal scores (lib/candidates.lua): runs of every length around the script's
     * threshold (runs shorter than 8, a short first run judged with the one after it), runs one apart, with gaps and
     * with fractional scores, members blocked by a copy in flight inside runs (pops that start inside a run, after
     * skipped members) and, for the timed types, members not yet due. Popped again and again with counts of every
     * size, the members come in the queue's order, each with its own score.
     */
    @ParameterizedTest
    @EnumSource(TopicType.class)
    void eachPoppedMemberCarriesItsOwnScoreWhateverTheRunsOfEqualScores(TopicType type) {
        // without blocked members every pop starts at the queue's first member; with them pops start after the skipped
        // ones, and a blocked member left at the head alone makes the runs short
        int[][] countSequences = {{7, 16, 1, 33, 128, 5, 17, 3, 64, 100, 2, 250}, {128}, {21}, {40, 3}, {1000}};
        for (int blockEvery : new int[] {0, 37}) {
            for (int[] counts : countSequences) {
                popsInTheQueuesOrderWithTheirScores(type, blockEvery, counts);
                sync.del(KEYS.store(), KEYS.prepare(), KEYS.origin(), KEYS.counters(), "blocked{" + KEYS.store() + "}");
            }
        }
    }

    /**
     * The steps between runs' scores: one apart (runs told by their counts), 7 apart (a gap) and half apart (scores
     * that are not whole, read from their members, until a second half step makes them whole again).
     */
    private static final double[] STEPS = {1, 1, 7, 0.5, 1, 1, 0.5, 1, 7};

    private void popsInTheQueuesOrderWithTheirScores(TopicType type, int blockEvery, int[] counts) {
        long now = redis.redisTimeMillis();
        int[] runs = {1, 20, 3, 4, 5, 17, 1, 1, 40, 2, 16, 30, 1, 3, 64, 1, 15, 16, 4, 1, 24, 8, 9, 7, 30, 1, 200};
        double offset = 0;
        List<String> order = new ArrayList<>();
        Map<String, Double> scoreOf = new HashMap<>();
        Set<String> blocked = new HashSet<>();
        int m = 0;
        for (int r = 0; r < runs.length; r++) {
            // timed: oldest first, the runs in order of the array; PRIORITY: highest first, so the scores fall. Runs
            // one apart (told by their counts), 7 apart, and half a unit apart (read from their members)
            offset += STEPS[r % STEPS.length];
            double score = type.isTimed() ? now - 10_000.0 + offset : 1_000.0 - offset;
            for (int i = 0; i < runs[r]; i++) {
                String member = String.format("m-%03d-%04d", r, m++);
                sync.zadd(KEYS.store(), score, member);
                scoreOf.put(member, score);
                if (blockEvery > 0 && m % blockEvery == 5) {
                    blocked.add(member);
                    sync.zadd(KEYS.prepare(), now + TIMEOUT, member);
                }
            }
        }
        if (type.isTimed()) {
            sync.zadd(KEYS.store(), now + 60_000.0, "not-yet-due");
        }
        // the queue's order: by score (PRIORITY: highest first), members of one score by their bytes (reversed)
        List<String> queued = type.isTimed() ? sync.zrange(KEYS.store(), 0, -1) : sync.zrevrange(KEYS.store(), 0, -1);
        for (String member : queued) {
            if (scoreOf.containsKey(member) && !blocked.contains(member)) {
                order.add(member);
            }
        }

        List<Entry> popped = new ArrayList<>();
        for (int i = 0; popped.size() < order.size() && i < 1000; i++) {
            popped.addAll(pop(type, counts[i % counts.length]).entries());
        }

        assertThat(popped.stream().map(Entry::member).toList()).isEqualTo(order);
        for (Entry entry : popped) {
            assertThat(entry.score()).as(entry.member()).isEqualTo(scoreOf.get(entry.member()));
        }
        List<String> left = sync.zrange(KEYS.store(), 0, -1);
        assertThat(left).as("the blocked members, and what is not due").hasSize(blocked.size() + (type.isTimed() ? 1 : 0));
    }

    // --- members blocked by a copy in the prepare queue --------------------------------------

    @ParameterizedTest
    @EnumSource(TopicType.class)
    void aMemberWithACopyInThePrepareQueueStaysInTheStoreAndOthersArePopped(TopicType type) {
        long now = redis.redisTimeMillis();
        // blocked ranks first in every order: the oldest due time and the highest priority
        sync.zadd(KEYS.store(), type.isTimed() ? now - 3.0 : 30.0, "blocked");
        sync.zadd(KEYS.store(), type.isTimed() ? now - 2.0 : 20.0, "b");
        sync.zadd(KEYS.store(), type.isTimed() ? now - 1.0 : 10.0, "c");
        sync.zadd(KEYS.prepare(), 1234.0, "blocked");

        Popped popped = pop(type, 1);
        Popped rest = pop(type, 10);

        assertThat(popped.members()).containsExactly("b");
        assertThat(rest.members()).containsExactly("c");
        assertThat(rest.next()).as("the blocked copy is woken by its commit or rollback").isEqualTo(-1);
        assertThat(sync.zrange(KEYS.store(), 0, -1)).containsExactly("blocked");
        assertThat(sync.zscore(KEYS.prepare(), "blocked")).as("the copy in flight keeps its deadline").isEqualTo(1234.0);
    }

    /**
     * A pop adds its candidates to a prepare queue that holds members with ZADD NX and looks them up only when fewer
     * were added than offered, telling its own entries by their deadline; when a member in flight already has that
     * deadline it looks them up first. Here copies in flight of 5,001 candidates hold every deadline of the next 5 s,
     * so whenever the pop runs one of them has its deadline: each keeps its place and its deadline, the others move.
     */
    @ParameterizedTest
    @EnumSource(TopicType.class)
    void copiesInFlightStayInTheStoreWhenOneHasThePopsOwnDeadline(TopicType type) {
        long now = redis.redisTimeMillis();
        int copies = 5_001;
        Object[] store = new Object[2 * copies];
        Object[] prepare = new Object[2 * copies];
        for (int ms = 0; ms < copies; ms++) {
            // after b and c in every order
            store[2 * ms] = type.isTimed() ? now - 10_000.0 + ms : 10_000.0 - ms;
            store[2 * ms + 1] = "in-flight-" + ms;
            prepare[2 * ms] = (double) (now + TIMEOUT + ms);
            prepare[2 * ms + 1] = "in-flight-" + ms;
        }
        sync.zadd(KEYS.store(), store);
        sync.zadd(KEYS.prepare(), prepare);
        sync.zadd(KEYS.store(), type.isTimed() ? now - 20_000.0 : 20_000.0, "b");
        sync.zadd(KEYS.store(), type.isTimed() ? now - 19_000.0 : 19_000.0, "c");

        Popped popped = pop(type, copies + 2);

        assertThat(popped.members()).containsExactly("b", "c");
        assertThat(sync.zcard(KEYS.store())).isEqualTo(copies);
        for (int ms = 0; ms < copies; ms++) {
            assertThat(sync.zscore(KEYS.prepare(), "in-flight-" + ms)).isEqualTo(now + TIMEOUT + ms);
        }
        assertThat(sync.zscore(KEYS.prepare(), "b")).isEqualTo(popped.now() + TIMEOUT);
        assertThat(sync.zscore(KEYS.prepare(), "c")).isEqualTo(popped.now() + TIMEOUT);
    }

    /** Candidates with and without copies in flight, over several rounds of one call: each in its place. */
    @ParameterizedTest
    @EnumSource(TopicType.class)
    void copiesInFlightAmongManyCandidatesKeepTheirDeadlinesAndTheRestMoveWithThePops(TopicType type) {
        long now = redis.redisTimeMillis();
        List<String> expected = new ArrayList<>();
        Set<String> blockedMembers = new HashSet<>();
        for (int i = 0; i < 300; i++) {
            String member = String.format("m-%03d", i);
            sync.zadd(KEYS.store(), type.isTimed() ? now - 1_000.0 + i : 1_000.0 - i, member);
            if (i % 7 == 3 || i >= 40 && i < 100) { // single copies in flight, and a long stretch of them
                sync.zadd(KEYS.prepare(), 5_000.0 + i, member);
                blockedMembers.add(member);
            } else {
                expected.add(member);
            }
        }

        List<String> popped = new ArrayList<>();
        long popNow = 0;
        for (int count : new int[] {50, 128, 300}) {
            Popped p = pop(type, count);
            popped.addAll(p.members());
            popNow = p.now();
        }

        assertThat(popped).isEqualTo(expected);
        assertThat(sync.zrange(KEYS.store(), 0, -1)).containsExactlyInAnyOrderElementsOf(blockedMembers);
        for (String member : blockedMembers) {
            assertThat(sync.zscore(KEYS.prepare(), member)).as(member).isEqualTo(5_000.0 + Integer.parseInt(member.substring(2)));
        }
        for (String member : expected) {
            assertThat(sync.zscore(KEYS.prepare(), member)).as(member).isGreaterThanOrEqualTo(now + TIMEOUT)
                    .isLessThanOrEqualTo(popNow + TIMEOUT);
        }
    }

    /**
     * A pop of several rounds (copies in flight among the candidates) appends each round's members, their score runs
     * and their failures to the first round's lists: every member comes back with its own score and attempt.
     */
    @Test
    void acrossRoundsEveryMemberKeepsItsOwnScoreAndAttempt() {
        long now = redis.redisTimeMillis();
        List<Entry> expected = new ArrayList<>();
        int run = 0;
        int left = 1;
        for (int i = 0; i < 60; i++) {
            // runs of 1 to 5 equal scores; names in the order Redis keeps equal scores in
            if (left == 0) {
                run++;
                left = 1 + run % 5;
            }
            left--;
            String member = String.format("m%02d", i);
            double score = now - 1_000.0 + run;
            sync.zadd(KEYS.store(), score, member);
            if (i % 3 == 1) {
                sync.zadd(KEYS.prepare(), now + 5_000.0 + i, member); // a copy in flight: stays in the store queue
            } else if (expected.size() < 24) {
                long failures = i % 4 == 0 ? i : 0;
                if (failures > 0) {
                    sync.hset(KEYS.attempts(), member, Long.toString(failures));
                }
                expected.add(new Entry(member, score, failures + 1));
            }
        }

        Popped popped = pop(TopicType.FIXED_TIME, 24);

        assertThat(popped.entries()).as("in score order, each with its score and attempt").containsExactlyElementsOf(expected);
        assertThat(popped.next()).isZero();
    }

    @Test
    void severalBlockedMembersAreSkippedToFillTheBatch() {
        long now = redis.redisTimeMillis();
        for (int i = 0; i < 3; i++) {
            sync.zadd(KEYS.store(), now - 100.0 + i, "blocked" + i);
            sync.zadd(KEYS.prepare(), now + TIMEOUT, "blocked" + i);
        }
        sync.zadd(KEYS.store(), now - 10.0, "x");
        sync.zadd(KEYS.store(), now - 9.0, "y");
        sync.zadd(KEYS.store(), now - 8.0, "z");

        Popped popped = pop(TopicType.FIXED_TIME, 2);

        assertThat(popped.members()).containsExactly("x", "y");
        assertThat(popped.next()).isZero();
        assertThat(sync.zrange(KEYS.store(), 0, -1)).containsExactly("blocked0", "blocked1", "blocked2", "z");
    }

    @Test
    void withoutCoordinationAnOwnerRecordIsIgnoredAndLeftAlone() {
        sync.zadd(KEYS.store(), redis.redisTimeMillis() - 1.0, "a");
        sync.hset(KEYS.owner(), "epoch", "9");
        sync.hset(KEYS.owner(), "handover", "1");
        sync.zadd(KEYS.prepare(), 1234.0, "in-flight");

        Popped popped = pop(TopicType.FIXED_TIME, 10);

        assertThat(popped.members()).containsExactly("a");
        assertThat(sync.hgetall(KEYS.owner())).containsOnlyKeys("epoch", "handover").containsEntry("epoch", "9");
    }

    // --- helpers ---------------------------------------------------------------------------

    private record Entry(String member, double score, long attempt) {
    }

    private record Popped(long now, long next, List<Entry> entries) {

        List<String> members() {
            return entries.stream().map(Entry::member).toList();
        }

        List<Double> scores() {
            return entries.stream().map(Entry::score).toList();
        }
    }

    @Test
    void aPausedSlotPopsNothingAndIsPolledAgainInASecondUntilItResumes() {
        long now = redis.redisTimeMillis();
        sync.zadd(KEYS.store(), now - 1_000.0, "a");
        sync.set(KEYS.paused(), "1");

        List<Object> reply = await(scripts.run(RedisScript.POP,
                utf8Array(KEYS.store(), KEYS.prepare(), KEYS.attempts(), KEYS.origin(), KEYS.owner(), KEYS.paused()),
                utf8("FIXED_TIME"), utf8("10"), utf8(Long.toString(TIMEOUT)), utf8("0"), utf8("")));

        assertThat(PopStatus.of((Long) reply.get(0))).isEqualTo(PopStatus.PAUSED);
        assertThat(reply).as("nothing popped").hasSize(7);
        assertThat(reply.get(2)).as("poll again in 1 s").isEqualTo(1000L);
        assertThat(sync.zrange(KEYS.store(), 0, -1)).containsExactly("a");
        sync.del(KEYS.paused());
        assertThat(pop(TopicType.FIXED_TIME, 10).members()).containsExactly("a");
    }

    private Popped pop(TopicType type, int count) {
        return pop(type, count, TIMEOUT);
    }

    private Popped pop(TopicType type, int count, long timeout) {
        List<Object> reply = await(scripts.run(RedisScript.POP,
                utf8Array(KEYS.store(), KEYS.prepare(), KEYS.attempts(), KEYS.origin(), KEYS.owner(), KEYS.paused()),
                utf8(type.name()), utf8(Integer.toString(count)), utf8(Long.toString(timeout)), utf8("0"), utf8("")));
        boolean attempts = (Long) reply.get(6) == 1L;
        assertThat(attempts).as("attempts follow exactly when some member of the slot has failed before")
                .isEqualTo(reply.size() > 7 && sync.hlen(KEYS.attempts()) > 0);
        assertThat(reply.size()).as("{status, now, next, detail, expired, held, attempts}, then with members popped"
                + " {members, runs, failures, traces, keys}: %s", reply).isIn(7, 12);
        assertThat(PopStatus.of((Long) reply.get(0))).as("without coordination every pop may pop").isEqualTo(PopStatus.POPPED);
        assertThat(reply.get(3)).as("detail: epoch 0 without coordination").isEqualTo(0L);
        List<Entry> entries = new ArrayList<>();
        for (TopicScripts.PoppedMember m : TopicScripts.popReply(reply).members()) {
            entries.add(new Entry(text(m.content()), Double.parseDouble(text(m.rawScore())), m.attempt()));
        }
        return new Popped((Long) reply.get(1), (Long) reply.get(2), entries);
    }
}
