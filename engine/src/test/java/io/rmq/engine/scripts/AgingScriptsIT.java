package io.rmq.engine.scripts;

import static io.rmq.testing.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.engine.redis.RedisScript;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.scripts.TopicScripts.RetryRule;
import io.rmq.engine.scripts.TopicScripts.Send;
import io.rmq.engine.topic.PriorityAging;
import io.rmq.engine.topic.SlotKeys;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;

/**
 * Priority aging in the scripts against a real Redis: {@code send.lua}'s AGING section (aged scores, the first send
 * time kept by a merge, members without a send time), {@code commit.lua} and {@code rollback.lua} with the since
 * hash, and {@code aging_epoch.lua}.
 */
@RedisTest
class AgingScriptsIT {

    private static final int SLOT = 1;
    private static final TopicKeys TOPIC = new TopicKeys(new TopicDefinition("bids", 4, TopicType.PRIORITY));
    private static final SlotKeys KEYS = TOPIC.slot(SLOT);
    /** One point per second. */
    private static final double PACE = 0.001;

    private RedisConnections redis;
    private RedisCommands<String, String> sync;
    private TopicScripts scripts;
    private ScriptRunner runner;
    private long epoch;

    @BeforeEach
    void setUp(RedisConnections redis) {
        this.redis = redis;
        this.sync = redis.sync();
        this.runner = new ScriptRunner(redis.binary().async());
        this.scripts = new TopicScripts(() -> runner, TOPIC);
        this.epoch = redis.redisTimeMillis() - 20_000; // aging switched on 20 s ago
        scripts.updatePriorityAging(new PriorityAging(PACE, epoch));
    }

    @Test
    void aNewMemberIsScoredByItsPriorityLessThePaceTimesItsTimeSinceTheEpoch() {
        long before = redis.redisTimeMillis();
        SendResult result = send("a", 5);
        long after = redis.redisTimeMillis();

        long since = Long.parseLong(sync.hget(KEYS.since(), "a"));
        assertThat(since).isBetween(before, after);
        assertThat(result.score()).isCloseTo(5 - PACE * (since - epoch), within(1e-9));
        assertThat(sync.zscore(KEYS.store(), "a")).isCloseTo(result.score(), within(1e-9));
    }

    @Test
    void aMessageWaitingLongerOutranksAHigherPrioritySentNow() {
        // "old" waits since 15 s before now (recorded as a raw producer would), priority 0; "new" has priority 5
        long now = redis.redisTimeMillis();
        sync.zadd(KEYS.store(), 0 - PACE * (now - 15_000 - epoch), "old");
        sync.hset(KEYS.since(), "old", Long.toString(now - 15_000));
        send("new", 5);
        send("newer", 20);

        assertThat(sync.zrevrange(KEYS.store(), 0, -1)).containsExactly("newer", "old", "new");
    }

    @Test
    void aMergeTakesTheLastPriorityAndKeepsTheFirstSendTime() {
        send("a", 1);
        String since = sync.hget(KEYS.since(), "a");

        SendResult merged = send("a", 7);

        assertThat(merged.stored()).isFalse();
        assertThat(sync.hget(KEYS.since(), "a")).isEqualTo(since);
        assertThat(merged.score()).isCloseTo(7 - PACE * (Long.parseLong(since) - epoch), within(1e-9));
    }

    @Test
    void aDuplicateInTheSameCallMergesWithTheSameSendTime() {
        List<SendResult> results = await(scripts.send(SLOT, List.of(send1("a", 1), send1("a", 3))));

        long since = Long.parseLong(sync.hget(KEYS.since(), "a"));
        assertThat(results.get(1).stored()).isFalse();
        assertThat(results.get(1).score()).isCloseTo(3 - PACE * (since - epoch), within(1e-9));
    }

    @Test
    void aPendingMemberWithoutASendTimeCountsAsSentAtTheEpoch() {
        sync.zadd(KEYS.store(), 3, "old"); // written before aging was on

        SendResult merged = send("old", 4);

        assertThat(merged.score()).isEqualTo(4.0);
        assertThat(sync.hexists(KEYS.since(), "old")).isFalse();
    }

    @Test
    void withoutAgingTheSinceHashIsNotTouched() {
        scripts.updatePriorityAging(PriorityAging.OFF);

        SendResult result = send("a", 5);

        assertThat(result.score()).isEqualTo(5.0);
        assertThat(sync.exists(KEYS.since())).isZero();
    }

    @Test
    void aCommitForgetsTheSendTimeButNotThatOfACopySentMeanwhile() {
        send("a", 1);
        send("b", 1);
        await(scripts.pop(SLOT, 10, 60_000, 0, ""));
        send("b", 2); // a copy of b sent while b is consumed: a new member, its own send time
        String bSince = sync.hget(KEYS.since(), "b");

        await(scripts.commit(SLOT, List.of(bytes("a"), bytes("b")), false));

        assertThat(sync.hexists(KEYS.since(), "a")).isFalse();
        assertThat(sync.hget(KEYS.since(), "b")).isEqualTo(bSince);
    }

    @Test
    void aRollbackKeepsTheSendTimeAndTheInvariantAndADeadMemberLosesIt() {
        send("a", 9);
        send("b", 1);
        String since = sync.hget(KEYS.since(), "a");
        await(scripts.pop(SLOT, 1, 60_000, 0, ""));

        await(scripts.rollback(SLOT, new RetryRule(1, 0, 0), "java.lang.Exception: x", List.of(bytes("a"))));

        // behind the pending ones, as without aging; it keeps aging from its first send
        double bScore = sync.zscore(KEYS.store(), "b");
        assertThat(sync.zscore(KEYS.store(), "a")).isEqualTo(bScore - 1);
        assertThat(sync.hget(KEYS.since(), "a")).isEqualTo(since);
        await(scripts.pop(SLOT, 1, 60_000, 0, ""));
        await(scripts.rollback(SLOT, new RetryRule(1, 0, 0), "java.lang.Exception: y", List.of(bytes("b"))));
        await(scripts.pop(SLOT, 1, 60_000, 0, ""));
        await(scripts.rollback(SLOT, new RetryRule(0, 0, 0), "java.lang.Exception: z", List.of(bytes("a"))));

        assertThat(sync.zscore(KEYS.dead(), "a")).isNotNull();
        assertThat(sync.hexists(KEYS.since(), "a")).isFalse();
    }

    @Test
    void aNewPriorityGivenByReprioritizingIsAgedFromTheFirstSend() {
        send("a", 1);
        long since = Long.parseLong(sync.hget(KEYS.since(), "a"));

        assertThat(await(scripts.reschedule(SLOT, bytes("a"), "8", List.of())).rescheduled()).isTrue();

        assertThat(sync.zscore(KEYS.store(), "a")).isCloseTo(8 - PACE * (since - epoch), within(1e-9));
        assertThat(sync.hget(KEYS.since(), "a")).isEqualTo(Long.toString(since));
    }

    @Test
    void anExpiredMemberLosesItsSendTime() {
        await(scripts.send(SLOT, List.of(new Send("3", bytes("short"), "1")))); // expired since 1970
        send("long", 3);

        assertThat(await(scripts.expire(SLOT, 10, false)).expired()).isEqualTo(1);

        assertThat(sync.hkeys(KEYS.since())).containsExactly("long");
    }

    @Test
    void aCancelledMessageLosesItsSendTime() {
        send("a", 3);
        send("b", 3);

        assertThat(await(scripts.cancel(SLOT, bytes("a"), List.of())).cancelled()).isTrue();

        assertThat(sync.hkeys(KEYS.since())).containsExactly("b");
    }

    @Test
    void findReportsTheSendTimeWithTheAgedScore() {
        send("a", 6);
        long since = Long.parseLong(sync.hget(KEYS.since(), "a"));

        TopicScripts.FindReply found = await(scripts.find(SLOT, bytes("a"), List.of()));

        assertThat(found.sentAt()).isEqualTo(since);
        assertThat(scripts.priorityAging().priority(found.pendingScore(), found.sentAt())).isCloseTo(6.0, within(1e-9));
        scripts.updatePriorityAging(PriorityAging.OFF);
        assertThat(await(scripts.find(SLOT, bytes("a"), List.of())).sentAt()).isNull();
    }

    @Test
    void aPurgedDeadMemberLosesASendTimeLeftBehind() {
        sync.zadd(KEYS.dead(), 1, "gone");
        sync.hset(KEYS.since(), "gone", "5"); // left by a consumer that did not know of aging
        sync.hset(KEYS.since(), "kept", "6");
        byte[][] keys = Stream.of(KEYS.store(), KEYS.dead(), KEYS.attempts(), KEYS.failures(), KEYS.counters(),
                KEYS.since()).map(AgingScriptsIT::bytes).toArray(byte[][]::new);

        await(runner.run(RedisScript.ACT_ON_DEAD, keys, bytes("purge"), bytes("PRIORITY"), bytes(TOPIC.wakeChannel()),
                bytes("1"), bytes("10"), bytes("all"), bytes("")));

        assertThat(sync.hkeys(KEYS.since())).containsExactly("kept");
    }

    @Test
    void theEpochIsFixedByTheFirstCallAndKept() {
        long before = redis.redisTimeMillis();
        long first = await(scripts.agingEpoch());
        long second = await(scripts.agingEpoch());

        assertThat(first).isGreaterThanOrEqualTo(before);
        assertThat(second).isEqualTo(first);
        assertThat(sync.hget(TOPIC.flow(), PriorityAging.EPOCH_FIELD)).isEqualTo(Long.toString(first));
        assertThat(sync.hget(TOPIC.flow(), "gen")).isEqualTo("1");
    }

    private SendResult send(String member, double priority) {
        return await(scripts.send(SLOT, List.of(send1(member, priority)))).get(0);
    }

    private static Send send1(String member, double priority) {
        return new Send(Double.toString(priority), bytes(member));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
