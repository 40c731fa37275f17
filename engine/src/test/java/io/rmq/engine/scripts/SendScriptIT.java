package io.rmq.engine.scripts;

import static io.rmq.testing.Bytes.text;
import static io.rmq.testing.Bytes.utf8;
import static io.rmq.testing.Bytes.utf8Array;
import static io.rmq.testing.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.engine.redis.RedisScript;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.topic.SlotKeys;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.CommandStats;
import io.rmq.testing.redis.ChannelRecorder;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;

/** {@code send.lua}: storing, merging by topic type, and the wake notices, against a real Redis. */
@RedisTest
class SendScriptIT {

    private static final int SLOT = 3;
    /** The key names do not depend on the type, which each call passes to the script. */
    private static final TopicKeys TOPIC = new TopicKeys(new TopicDefinition("price", 8, TopicType.FIXED_TIME));
    private static final SlotKeys KEYS = TOPIC.slot(SLOT);

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

    // --- storing and merging ---------------------------------------------------------------

    @Test
    void rangeMergeStoresANewMessageDueAfterItsRange() {
        long before = redis.redisTimeMillis();
        Reply reply = send(TopicType.RANGE_MERGE, "5000", "m");
        long after = redis.redisTimeMillis();

        assertThat(reply.status).isEqualTo(1);
        assertThat(reply.score).isBetween(before + 5000.0, after + 5000.0);
        assertThat(sync.zscore(KEYS.store(), "m")).isEqualTo(reply.score);
    }

    @Test
    void rangeMergeKeepsTheFirstDueTimeOfAPendingDuplicate() {
        Reply first = send(TopicType.RANGE_MERGE, "60000", "m");

        Reply sooner = send(TopicType.RANGE_MERGE, "1", "m");
        Reply later = send(TopicType.RANGE_MERGE, "120000", "m");

        assertThat(sooner.status).isZero();
        assertThat(later.status).isZero();
        assertThat(sooner.score).isEqualTo(first.score);
        assertThat(later.score).isEqualTo(first.score);
        assertThat(sync.zrangeWithScores(KEYS.store(), 0, -1))
                .singleElement().satisfies(v -> assertThat(v.getScore()).isEqualTo(first.score));
    }

    @Test
    void priorityStoresTheGivenPriorityAndAPendingDuplicateTakesTheLastOne() {
        Reply first = send(TopicType.PRIORITY, "5", "m");
        Reply lower = send(TopicType.PRIORITY, "2", "m");
        assertThat(sync.zscore(KEYS.store(), "m")).isEqualTo(2.0);
        Reply higher = send(TopicType.PRIORITY, "9", "m");

        assertThat(first).isEqualTo(new Reply(1, 5.0));
        assertThat(lower).isEqualTo(new Reply(0, 2.0));
        assertThat(higher).isEqualTo(new Reply(0, 9.0));
        assertThat(sync.zcard(KEYS.store())).isEqualTo(1);
        assertThat(sync.zscore(KEYS.store(), "m")).isEqualTo(9.0);
    }

    @Test
    void fixedTimeStoresTheGivenTimeAndAPendingDuplicateTakesTheLastOne() {
        long time = redis.redisTimeMillis() + 60_000;
        Reply first = send(TopicType.FIXED_TIME, Long.toString(time), "m");
        Reply later = send(TopicType.FIXED_TIME, Long.toString(time + 5_000), "m");
        assertThat(sync.zscore(KEYS.store(), "m")).isEqualTo(time + 5_000.0);
        Reply sooner = send(TopicType.FIXED_TIME, Long.toString(time - 5_000), "m");

        assertThat(first).isEqualTo(new Reply(1, time));
        assertThat(later).isEqualTo(new Reply(0, time + 5_000));
        assertThat(sooner).isEqualTo(new Reply(0, time - 5_000));
        assertThat(sync.zcard(KEYS.store())).isEqualTo(1);
        assertThat(sync.zscore(KEYS.store(), "m")).isEqualTo(time - 5_000.0);
    }

    @Test
    void differentContentIsNotADuplicate() {
        send(TopicType.PRIORITY, "1", "a");
        Reply other = send(TopicType.PRIORITY, "1", "b");

        assertThat(other.status).isEqualTo(1);
        assertThat(sync.zrange(KEYS.store(), 0, -1)).containsExactly("a", "b");
    }

    @ParameterizedTest
    @EnumSource(TopicType.class)
    void aCopyInThePrepareQueueIsNotAPendingDuplicate(TopicType type) {
        sync.zadd(KEYS.prepare(), 123.0, "m");

        Reply reply = send(type, valueDueSoon(type), "m");

        assertThat(reply.status).isEqualTo(1);
        assertThat(sync.zscore(KEYS.store(), "m")).isEqualTo(reply.score);
        assertThat(sync.zscore(KEYS.prepare(), "m")).isEqualTo(123.0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"-2.5", "0.1", "3.141592653589793", "-0.000001", "123456.789", "1e-7", "-1000000"})
    void priorityKeepsFullPrecision(String priority) {
        Reply reply = send(TopicType.PRIORITY, priority, "m");

        assertThat(reply.score).isEqualTo(Double.parseDouble(priority));
        assertThat(sync.zscore(KEYS.store(), "m")).isEqualTo(Double.parseDouble(priority));
    }

    @Test
    void prioritiesWithDecimalsAndNegativesOrderExactly() {
        send(TopicType.PRIORITY, "0.1", "a");
        send(TopicType.PRIORITY, "0.10000001", "b");
        send(TopicType.PRIORITY, "-0.5", "c");
        send(TopicType.PRIORITY, "-0.49999999", "d");

        assertThat(sync.zrevrange(KEYS.store(), 0, -1)).containsExactly("b", "a", "d", "c");
    }

    @Test
    void fixedTimeKeepsTheExactMillisecond() {
        Reply reply = send(TopicType.FIXED_TIME, "4102444800123", "m");

        assertThat(reply.score).isEqualTo(4102444800123.0);
        assertThat(sync.zscore(KEYS.store(), "m")).isEqualTo(4102444800123.0);
    }

    @Test
    void anUnknownTypeIsRefusedWithRmqBadType() {
        assertThatThrownBy(() -> send("LIFO", "1", "m"))
                .isInstanceOf(RedisCommandExecutionException.class)
                .hasMessage("RMQ_BAD_TYPE LIFO");
        assertThat(sync.exists(KEYS.store())).isZero();
        assertThat(wakes.drain()).isEmpty();
    }

    // --- wake notices ------------------------------------------------------------------------

    @Test
    void wakesWhenTheSlotWasEmpty() {
        long before = redis.redisTimeMillis();
        send(TopicType.FIXED_TIME, Long.toString(before + 60_000), "m");
        long after = redis.redisTimeMillis();

        assertThat(wakes.drain()).singleElement()
                .satisfies(notice -> assertThat(delayIn(notice)).isBetween(60_000 - (after - before), 60_000L));
    }

    @Test
    void wakesAtOnceWhenTheSlotWasEmptyAndTheMessageIsDue() {
        send(TopicType.FIXED_TIME, Long.toString(redis.redisTimeMillis() - 1_000), "m");

        assertThat(wakes.drain()).containsExactly(SLOT + ":0");
    }

    @Test
    void wakesWhenTheRangeMergeSlotWasEmpty() {
        send(TopicType.RANGE_MERGE, "5000", "m");

        assertThat(wakes.drain()).containsExactly(SLOT + ":5000");
    }

    @Test
    void wakesAtOnceWhenThePrioritySlotWasEmpty() {
        send(TopicType.PRIORITY, "7", "m");

        assertThat(wakes.drain()).containsExactly(SLOT + ":0");
    }

    @ParameterizedTest
    @EnumSource(value = TopicType.class, names = {"RANGE_MERGE", "FIXED_TIME"})
    void wakesWhenTheNewMemberIsDueBeforeAFutureHead(TopicType type) {
        long now = redis.redisTimeMillis();
        sync.zadd(KEYS.store(), now + 60_000.0, "head");

        Reply reply = send(type, type == TopicType.RANGE_MERGE ? "1000" : Long.toString(now + 1_000), "m");

        assertThat(reply.status).isEqualTo(1);
        assertThat(wakes.drain()).singleElement()
                .satisfies(notice -> assertThat(delayIn(notice)).isBetween(0L, 1_000L));
    }

    @Test
    void doesNotWakeWhenTheNewMemberIsDueAfterAFutureHead() {
        long now = redis.redisTimeMillis();
        sync.zadd(KEYS.store(), now + 1_000.0, "head");

        send(TopicType.FIXED_TIME, Long.toString(now + 60_000), "m");
        send(TopicType.RANGE_MERGE, "60000", "n");

        assertThat(wakes.drain()).isEmpty();
    }

    @Test
    void doesNotWakeWhenTheHeadIsDueAndFree() {
        long now = redis.redisTimeMillis();
        sync.zadd(KEYS.store(), now - 1_000.0, "head");

        send(TopicType.FIXED_TIME, Long.toString(now - 5_000), "m");
        send(TopicType.FIXED_TIME, Long.toString(now + 5_000), "n");

        assertThat(wakes.drain()).isEmpty();
    }

    @Test
    void wakesWhenTheTimedHeadIsBlockedByACopyInThePrepareQueue() {
        long now = redis.redisTimeMillis();
        sync.zadd(KEYS.store(), now - 1_000.0, "head");
        sync.zadd(KEYS.prepare(), now + 30_000.0, "head");

        send(TopicType.FIXED_TIME, Long.toString(now + 60_000), "m");

        assertThat(wakes.drain()).singleElement()
                .satisfies(notice -> assertThat(delayIn(notice)).isBetween(0L, 60_000L));
    }

    @Test
    void wakesWhenThePriorityHeadIsBlockedByACopyInThePrepareQueue() {
        sync.zadd(KEYS.store(), 10.0, "head");
        sync.zadd(KEYS.prepare(), redis.redisTimeMillis() + 30_000.0, "head");

        send(TopicType.PRIORITY, "1", "m");

        assertThat(wakes.drain()).containsExactly(SLOT + ":0");
    }

    @Test
    void doesNotWakeWhenThePriorityHeadIsFree() {
        sync.zadd(KEYS.store(), 10.0, "head");

        send(TopicType.PRIORITY, "20", "m");
        send(TopicType.PRIORITY, "1", "n");

        assertThat(wakes.drain()).isEmpty();
    }

    @Test
    void mergesOfRangeMergeAndPriorityDoNotWake() {
        send(TopicType.RANGE_MERGE, "60000", "r");
        send(TopicType.PRIORITY, "5", "p");
        wakes.drain();

        send(TopicType.RANGE_MERGE, "1", "r");
        send(TopicType.PRIORITY, "50", "p");

        assertThat(wakes.drain()).isEmpty();
    }

    @Test
    void aFixedTimeDuplicateMovedToNowWakesAtOnce() {
        long now = redis.redisTimeMillis();
        send(TopicType.FIXED_TIME, Long.toString(now + 60_000), "m");
        wakes.drain();

        send(TopicType.FIXED_TIME, Long.toString(now - 1), "m");

        assertThat(wakes.drain()).containsExactly(SLOT + ":0");
    }

    @Test
    void aFixedTimeDuplicateMovedBeforeTheEarliestFutureMemberWakesWithItsDelay() {
        long now = redis.redisTimeMillis();
        send(TopicType.FIXED_TIME, Long.toString(now + 30_000), "other");
        send(TopicType.FIXED_TIME, Long.toString(now + 60_000), "m");
        wakes.drain();

        send(TopicType.FIXED_TIME, Long.toString(now + 5_000), "m");

        assertThat(wakes.drain()).singleElement()
                .satisfies(notice -> assertThat(delayIn(notice)).isBetween(0L, 5_000L));
    }

    @Test
    void aFixedTimeDuplicateMovedLaterOrStillAfterTheEarliestFutureMemberDoesNotWake() {
        long now = redis.redisTimeMillis();
        send(TopicType.FIXED_TIME, Long.toString(now + 30_000), "other");
        send(TopicType.FIXED_TIME, Long.toString(now + 60_000), "m");
        wakes.drain();

        send(TopicType.FIXED_TIME, Long.toString(now + 90_000), "m");
        send(TopicType.FIXED_TIME, Long.toString(now + 40_000), "m");

        assertThat(wakes.drain()).isEmpty();
        assertThat(sync.zscore(KEYS.store(), "m")).isEqualTo(now + 40_000.0);
    }

    // --- several messages in one call ------------------------------------------------------

    @Test
    void severalMessagesInOneCallAreStoredOrMergedInOrderWithOneWakeNotice() {
        long now = redis.redisTimeMillis();
        List<Object> reply = await(scripts.run(RedisScript.SEND, utf8Array(KEYS.store(), KEYS.prepare()),
                utf8("FIXED_TIME"), utf8(TOPIC.wakeChannel()), utf8(Integer.toString(SLOT)),
                utf8(Long.toString(now + 50_000)), utf8("a"),
                utf8(Long.toString(now + 20_000)), utf8("b"),
                utf8(Long.toString(now + 30_000)), utf8("a")));

        assertThat(reply).hasSize(6);
        assertThat(List.of(reply.get(0), reply.get(2), reply.get(4))).as("stored, stored, merged").containsExactly(1L, 1L, 0L);
        assertThat(Double.parseDouble(text(reply.get(5)))).as("the last time stands").isEqualTo(now + 30_000.0);
        assertThat(sync.zrange(KEYS.store(), 0, -1)).containsExactly("b", "a");
        List<String> notices = wakes.drain();
        assertThat(notices).as("one notice per call, for the earliest write").singleElement()
                .satisfies(n -> assertThat(delayIn(n)).isBetween(19_000L, 20_000L));
    }

    @Test
    void aMessageMeetsTheHeadThatTheMessagesBeforeItInTheCallLeft() {
        sync.zadd(KEYS.store(), 10.0, "a");
        sync.zadd(KEYS.store(), 8.0, "b");
        sync.zadd(KEYS.prepare(), redis.redisTimeMillis() + 30_000.0, "b");

        // y finds the head a free (no notice); a moves up, then behind b, whose copy is in flight: x meets b
        List<Object> reply = await(scripts.run(RedisScript.SEND, utf8Array(KEYS.store(), KEYS.prepare()),
                utf8("PRIORITY"), utf8(TOPIC.wakeChannel()), utf8(Integer.toString(SLOT)), utf8("3"), utf8("y"),
                utf8("20"), utf8("a"), utf8("5"), utf8("a"), utf8("1"), utf8("x")));

        assertThat(List.of(reply.get(0), reply.get(2), reply.get(4), reply.get(6))).containsExactly(1L, 0L, 0L, 1L);
        assertThat(sync.zrevrange(KEYS.store(), 0, -1)).containsExactly("b", "a", "y", "x");
        assertThat(wakes.drain()).containsExactly(SLOT + ":0");
    }

    @Test
    void messagesAllBehindAFreeDueHeadDoNotWakeNorLookForTheirCopiesInFlight() {
        long now = redis.redisTimeMillis();
        sync.zadd(KEYS.store(), now - 1_000.0, "head");
        sync.zadd(KEYS.prepare(), now + 30_000.0, "m"); // an earlier copy of m is being consumed
        long lookUps = calls("zmscore");

        List<Object> reply = await(scripts.run(RedisScript.SEND, utf8Array(KEYS.store(), KEYS.prepare()),
                utf8("FIXED_TIME"), utf8(TOPIC.wakeChannel()), utf8(Integer.toString(SLOT)),
                utf8(Long.toString(now - 500)), utf8("m"), utf8(Long.toString(now + 5_000)), utf8("n")));

        assertThat(reply).as("both stored as new").containsExactly(2L, reply.get(1));
        assertThat(sync.zrange(KEYS.store(), 0, -1)).containsExactly("head", "m", "n");
        assertThat(wakes.drain()).as("the head stays, due and free: a consumer is popping it").isEmpty();
        assertThat(calls("zmscore") - lookUps).as("ZMSCORE of the store queue only, not of the prepare queue")
                .isEqualTo(1);
    }

    @Test
    void aMessageAtTheHeadsTimeStillLooksForCopiesInFlight() {
        long now = redis.redisTimeMillis();
        sync.zadd(KEYS.store(), now - 1_000.0, "b");
        sync.zadd(KEYS.prepare(), now + 30_000.0, "a");
        long lookUps = calls("zmscore");

        // a sorts before b at the same time and its copy is in flight: the later message of the call meets a blocked
        // head and wakes for its due time, as if each had been sent alone
        await(scripts.run(RedisScript.SEND, utf8Array(KEYS.store(), KEYS.prepare()),
                utf8("FIXED_TIME"), utf8(TOPIC.wakeChannel()), utf8(Integer.toString(SLOT)),
                utf8(Long.toString(now - 1_000)), utf8("a"), utf8(Long.toString(now + 5_000)), utf8("c")));

        assertThat(sync.zrange(KEYS.store(), 0, -1)).containsExactly("a", "b", "c");
        assertThat(wakes.drain()).as("c meets a, blocked").singleElement()
                .satisfies(notice -> assertThat(delayIn(notice)).isBetween(0L, 5_000L));
        assertThat(calls("zmscore") - lookUps).as("the store queue's and the prepare queue's").isEqualTo(2);
    }

    @Test
    void aValueThatIsNotANumberAnywhereInACallStoresNothing() {
        long now = redis.redisTimeMillis();
        String due = Long.toString(now - 500);

        // after a run of equal values, and after a value that differs from the one before it
        assertThatThrownBy(() -> await(scripts.run(RedisScript.SEND, utf8Array(KEYS.store(), KEYS.prepare()),
                utf8("FIXED_TIME"), utf8(TOPIC.wakeChannel()), utf8(Integer.toString(SLOT)),
                utf8(due), utf8("a"), utf8(due), utf8("b"), utf8("soon"), utf8("c"))))
                .hasMessage("RMQ_BAD_VALUE soon");
        assertThatThrownBy(() -> await(scripts.run(RedisScript.SEND, utf8Array(KEYS.store(), KEYS.prepare()),
                utf8("PRIORITY"), utf8(TOPIC.wakeChannel()), utf8(Integer.toString(SLOT)),
                utf8("1"), utf8("a"), utf8("2"), utf8("b"), utf8("2"), utf8("c"), utf8("1,5"), utf8("d"))))
                .hasMessage("RMQ_BAD_VALUE 1,5");

        assertThat(sync.exists(KEYS.store())).isZero();
        assertThat(wakes.drain()).isEmpty();
    }

    @Test
    void aCallOfRunsOfEqualValuesWakesForItsEarliestMessage() {
        long now = redis.redisTimeMillis();
        sync.zadd(KEYS.store(), now + 40_000.0, "later");

        // the earliest value comes after runs of later ones: it alone is due before the head
        await(scripts.run(RedisScript.SEND, utf8Array(KEYS.store(), KEYS.prepare()),
                utf8("FIXED_TIME"), utf8(TOPIC.wakeChannel()), utf8(Integer.toString(SLOT)),
                utf8(Long.toString(now + 50_000)), utf8("a"), utf8(Long.toString(now + 50_000)), utf8("b"),
                utf8(Long.toString(now + 60_000)), utf8("c"), utf8(Long.toString(now + 20_000)), utf8("d"),
                utf8(Long.toString(now + 20_000)), utf8("e")));

        assertThat(sync.zrange(KEYS.store(), 0, -1)).containsExactly("d", "e", "later", "a", "b", "c");
        assertThat(wakes.drain()).singleElement()
                .satisfies(notice -> assertThat(delayIn(notice)).isBetween(19_000L, 20_000L));
    }

    /** How many times Redis ran {@code command}, scripts' calls included. */
    private long calls(String command) {
        return CommandStats.calls(sync.info("commandstats"), command);
    }

    // --- helpers ---------------------------------------------------------------------------

    private record Reply(int status, double score) {
    }

    private Reply send(TopicType type, String value, String member) {
        return send(type.name(), value, member);
    }

    private Reply send(String type, String value, String member) {
        List<Object> reply = await(scripts.run(RedisScript.SEND, utf8Array(KEYS.store(), KEYS.prepare()),
                utf8(type), utf8(TOPIC.wakeChannel()), utf8(Integer.toString(SLOT)), utf8(value), utf8(member)));
        assertThat(reply).hasSize(2);
        if ((Long) reply.get(0) == 2L) {
            // stored as new: {2, now}; the score is the value (RANGE_MERGE: now + the value)
            long now = (Long) reply.get(1);
            double given = Double.parseDouble(value);
            return new Reply(1, type.equals(TopicType.RANGE_MERGE.name()) ? now + given : given);
        }
        return new Reply(((Long) reply.get(0)).intValue(), Double.parseDouble(text(reply.get(1))));
    }

    private String valueDueSoon(TopicType type) {
        return switch (type) {
            case RANGE_MERGE -> "1000";
            case PRIORITY -> "1";
            case FIXED_TIME -> Long.toString(redis.redisTimeMillis() + 1_000);
        };
    }

    private static long delayIn(String notice) {
        assertThat(notice).startsWith(SLOT + ":");
        return Long.parseLong(notice.substring(notice.indexOf(':') + 1));
    }
}
