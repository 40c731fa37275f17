package io.rmq.engine.scripts;

import static io.rmq.testing.Bytes.utf8;
import static io.rmq.testing.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.topic.SlotKeys;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;

/**
 * The scripts' handling of trace contexts, against a real Redis: what send records (bounded, counted), that nothing
 * is stored without them, what a traced pop takes out, and what commit, rollback, release, expiry and cancel do with
 * an entry.
 */
@RedisTest
class TraceScriptsIT {

    private static final TopicKeys TOPIC = new TopicKeys(new TopicDefinition("traced", 4, TopicType.FIXED_TIME));
    private static final int SLOT = 2;
    private static final SlotKeys KEYS = TOPIC.slot(SLOT);
    private static final TopicScripts.RetryRule RETRY = new TopicScripts.RetryRule(1, 0, 0);

    private RedisCommands<String, String> sync;
    private RedisConnections redis;
    private TopicScripts scripts;

    @BeforeEach
    void setUp(RedisConnections redis) {
        this.redis = redis;
        this.sync = redis.sync();
        ScriptRunner runner = new ScriptRunner(redis.binary().async());
        this.scripts = new TopicScripts(() -> runner, TOPIC);
    }

    static String context(int n) {
        return String.format("00-%032x-%016x-01", n + 1, n + 1);
    }

    private List<SendResult> send(String member, long due, String trace, int links) {
        return await(scripts.send(SLOT, List.of(new TopicScripts.Send(Long.toString(due), utf8(member), null, trace, links))));
    }

    private TopicScripts.PoppedMember popOne(boolean traced) {
        TopicScripts.PopReply reply = await(scripts.pop(SLOT, 10, 30_000, 0, "", false, traced));
        assertThat(reply.members()).hasSize(1);
        return reply.members().get(0);
    }

    @Test
    void sendsWithoutContextsStoreNothingAndATracedPopOfThemReturnsNone() {
        long now = redis.redisTimeMillis();
        send("plain", now - 1, null, 0);
        assertThat(sync.exists(KEYS.trace())).isZero();
        assertThat(popOne(true).trace()).isNull();
        await(scripts.commit(SLOT, List.of(utf8("plain"))));
        assertThat(sync.exists(KEYS.trace())).isZero();
    }

    @Test
    void mergedSendsAreCountedAndTheirContextsKeptUpToTheBoundInOneCallOrMany() {
        long now = redis.redisTimeMillis();
        List<TopicScripts.Send> batch = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            batch.add(new TopicScripts.Send(Long.toString(now - 1), utf8("hot"), null, i % 3 == 0 ? null : context(i), 4));
        }
        await(scripts.send(SLOT, batch));
        for (int i = 30; i < 40; i++) {
            send("hot", now - 1, context(i), 4);
        }
        TraceEntry entry = TraceEntry.parse(sync.hget(KEYS.trace(), "hot"));
        assertThat(entry.sends()).as("traced sends").isEqualTo(30);
        assertThat(entry.sendContexts()).containsExactly(context(1), context(2), context(4), context(5));
        assertThat(entry.attemptContext()).isNull();
    }

    /**
     * A traced pop of several rounds (copies in flight among the candidates): each member gets its own entry, or none,
     * also after a round that found the trace hash empty.
     */
    @Test
    void acrossRoundsEveryMemberGetsItsOwnEntry() {
        long now = redis.redisTimeMillis();
        Set<Integer> traced = Set.of(0, 2, 6);
        for (int i = 0; i < 12; i++) {
            String member = String.format("t%02d", i);
            send(member, now - 1, traced.contains(i) ? context(i) : null, 4);
            if (i % 3 == 1) {
                sync.zadd(KEYS.prepare(), now + 5_000.0 + i, member); // a copy in flight: stays in the store queue
            }
        }

        TopicScripts.PopReply reply = await(scripts.pop(SLOT, 6, 30_000, 0, "", false, true));

        Map<String, String> contexts = new LinkedHashMap<>();
        for (TopicScripts.PoppedMember m : reply.members()) {
            TraceEntry entry = TraceEntry.parse(m.trace());
            contexts.put(new String(m.content(), StandardCharsets.UTF_8),
                    entry == null ? "none" : String.join(",", entry.sendContexts()));
        }
        assertThat(contexts).containsExactly(Map.entry("t00", context(0)), Map.entry("t02", context(2)),
                Map.entry("t03", "none"), Map.entry("t05", "none"), Map.entry("t06", context(6)), Map.entry("t08", "none"));
    }

    @Test
    void anUntracedPopLeavesTheEntryForTheCommitToRemove() {
        long now = redis.redisTimeMillis();
        send("m", now - 1, context(1), 32);
        assertThat(popOne(false).trace()).isNull();
        assertThat(sync.hexists(KEYS.trace(), "m")).isTrue();
        await(scripts.commit(SLOT, List.of(utf8("m"))));
        assertThat(sync.exists(KEYS.trace())).isZero();
    }

    @Test
    void aTracedPopTakesTheEntryOutAndACopySentMeanwhileStartsItsOwnWhichTheCommitKeeps() {
        long now = redis.redisTimeMillis();
        send("m", now - 1, context(1), 32);
        send("m", now - 1, context(2), 32);
        TopicScripts.PoppedMember popped = popOne(true);
        assertThat(TraceEntry.parse(popped.trace()).sendContexts()).containsExactly(context(1), context(2));
        assertThat(sync.exists(KEYS.trace())).isZero();

        send("m", now + 60_000, context(3), 32);
        await(scripts.commit(SLOT, List.of(utf8("m"))));
        assertThat(TraceEntry.parse(sync.hget(KEYS.trace(), "m")).sendContexts()).containsExactly(context(3));
    }

    @Test
    void aRollbackGivesTheEntryBackWithTheFailedAttemptAndTheDeadQueueDropsIt() {
        long now = redis.redisTimeMillis();
        send("m", now - 1, context(1), 32);
        TopicScripts.PoppedMember first = popOne(true);
        String retry = TraceEntry.parse(first.trace()).withAttempt(context(100)).wire();
        await(scripts.rollbackTraced(SLOT, RETRY, "failed", List.of(utf8("m")), List.of(retry), 32));
        assertThat(sync.hget(KEYS.trace(), "m")).isEqualTo(retry);

        TopicScripts.PoppedMember second = popOne(true);
        assertThat(second.attempt()).isEqualTo(2);
        TraceEntry entry = TraceEntry.parse(second.trace());
        assertThat(entry.attemptContext()).isEqualTo(context(100));
        assertThat(entry.sendContexts()).containsExactly(context(1));

        await(scripts.rollbackTraced(SLOT, RETRY, "failed again", List.of(utf8("m")),
                List.of(entry.withAttempt(context(101)).wire()), 32));
        assertThat(sync.zscore(KEYS.dead(), "m")).isNotNull();
        assertThat(sync.exists(KEYS.trace())).isZero();
    }

    @Test
    void aRolledBackDeliveryMergedIntoAPendingCopyAddsItsEntryToTheCopys() {
        long now = redis.redisTimeMillis();
        send("m", now - 1, context(1), 2);
        TopicScripts.PoppedMember popped = popOne(true);
        send("m", now - 1, context(2), 2);
        send("m", now - 1, context(3), 2);
        await(scripts.rollbackTraced(SLOT, RETRY, "failed", List.of(utf8("m")),
                List.of(TraceEntry.parse(popped.trace()).withAttempt(context(100)).wire()), 2));
        TraceEntry merged = TraceEntry.parse(sync.hget(KEYS.trace(), "m"));
        assertThat(merged.sends()).isEqualTo(3);
        assertThat(merged.sendContexts()).containsExactly(context(2), context(3));
        assertThat(merged.attemptContext()).isEqualTo(context(100));
    }

    @Test
    void anUntracedRollbackKeepsTheEntryAndAReleaseGivesATakenEntryBack() {
        long now = redis.redisTimeMillis();
        send("m", now - 1, context(1), 32);
        popOne(false);
        await(scripts.rollback(SLOT, RETRY, "failed", List.of(utf8("m"))));
        assertThat(TraceEntry.parse(sync.hget(KEYS.trace(), "m")).sendContexts()).containsExactly(context(1));

        sync.del(KEYS.attempts(), KEYS.failures());
        sync.zadd(KEYS.store(), now - 1, "m");
        TopicScripts.PoppedMember popped = popOne(true);
        assertThat(sync.exists(KEYS.trace())).isZero();
        await(scripts.release(SLOT, List.of(popped), 32));
        assertThat(sync.hget(KEYS.trace(), "m")).isEqualTo(popped.trace());
    }

    @Test
    void expiryAndCancelRemoveTheEntry() {
        long now = redis.redisTimeMillis();
        await(scripts.send(SLOT, List.of(new TopicScripts.Send(Long.toString(now + 60_000), utf8("expiring"),
                Long.toString(now - 1), context(1), 32))));
        send("cancelled", now + 60_000, context(2), 32);
        assertThat(sync.hlen(KEYS.trace())).isEqualTo(2);

        assertThat(await(scripts.expire(SLOT, 10, false)).expired()).isEqualTo(1);
        assertThat(await(scripts.cancel(SLOT, utf8("cancelled"), Collections.emptyList())).cancelled()).isTrue();
        assertThat(sync.exists(KEYS.trace())).isZero();
    }
}
