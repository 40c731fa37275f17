package io.rmq.engine.scripts;

import static io.rmq.testing.Bytes.utf8;
import static io.rmq.testing.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.awaitility.Awaitility;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.engine.redis.RedisScript;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.topic.FairShare;
import io.rmq.engine.topic.SlotKeys;
import io.rmq.engine.topic.TenantName;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;

/** Fair share between tenants in {@code send.lua}, {@code pop.lua}, {@code rollback.lua}, {@code release.lua} and {@code commit.lua}. */
@RedisTest
class FairShareScriptIT {

    private static final TopicKeys TOPIC = new TopicKeys(new TopicDefinition("fair", 4, TopicType.FIXED_TIME));
    private static final int SLOT = 1;
    private static final SlotKeys KEYS = TOPIC.slot(SLOT);
    private static final FairShare EQUAL = FairShare.of(true, "");
    private static final TopicScripts.RetryRule RETRY = new TopicScripts.RetryRule(16, 1, 1);

    private RedisCommands<String, String> sync;
    private RedisAsyncCommands<byte[], byte[]> redisBinary;
    private TopicScripts scripts;
    private ScriptRunner runner;
    private long past;

    @BeforeEach
    void setUp(RedisConnections redis) {
        this.sync = redis.sync();
        this.redisBinary = redis.binary().async();
        this.runner = new ScriptRunner(redisBinary);
        this.scripts = new TopicScripts(() -> runner, TOPIC);
        this.scripts.settleByTenant(true);
        this.past = redis.redisTimeMillis() - 1_000;
    }

    @Test
    void weightsShareEachPopWhileTenantsAreBacklogged() {
        send("a", 40, "a");
        send("b", 40, "b");

        List<String> popped = members(await(scripts.pop(SLOT, 8, 30_000, 0, null, false, false, FairShare.of(true, "a:3,b:1"))));

        assertThat(popped).hasSize(8);
        assertThat(popped.stream().filter(m -> m.startsWith("a")).count()).isEqualTo(6);
        assertThat(popped.stream().filter(m -> m.startsWith("b")).count()).isEqualTo(2);
    }

    @Test
    void aFloodDoesNotDelayAnotherTenantAcrossPops() {
        send("a", 500, "a");
        List<String> first = members(await(scripts.pop(SLOT, 10, 30_000, 0, null, false, false, EQUAL)));
        assertThat(first).allMatch(m -> m.startsWith("a"));
        send("b", 5, "b");

        List<String> next = members(await(scripts.pop(SLOT, 10, 30_000, 0, null, false, false, EQUAL)));

        assertThat(next.stream().filter(m -> m.startsWith("b"))).hasSize(5);
    }

    @Test
    void mergesArePerTenant() {
        List<SendResult> results = await(scripts.send(SLOT, List.of(send("x", "a"), send("x", "b"), send("x", "a"))));

        assertThat(results).extracting(SendResult::stored).containsExactly(true, true, false);
        assertThat(sync.zcard(KEYS.tenantQueue("a"))).isEqualTo(1);
        assertThat(sync.zcard(KEYS.tenantQueue("b"))).isEqualTo(1);
        assertThat(sync.zrange(KEYS.tenants(), 0, -1)).containsExactlyInAnyOrder("a", "b");
    }

    @Test
    void theDefaultTenantIsServedWithTheOthers() {
        sync.zadd(KEYS.store(), past, "plain");
        send("a", 10, "a");

        List<String> popped = members(await(scripts.pop(SLOT, 2, 30_000, 0, null, false, false, EQUAL)));

        assertThat(popped).containsExactlyInAnyOrder("plain", "a0");
    }

    @Test
    void aRollbackReturnsTheMemberToItsTenantsQueue() {
        send("a", 1, "a");
        List<String> popped = members(await(scripts.pop(SLOT, 5, 30_000, 0, null, false, false, EQUAL)));
        assertThat(popped).containsExactly("a0");
        assertThat(sync.zrange(KEYS.tenants(), 0, -1)).as("an empty tenant leaves the set").isEmpty();
        assertThat(sync.hget(KEYS.inFlightTenants(), "a0")).isEqualTo("a");

        await(scripts.rollback(SLOT, RETRY, "failed", List.of(utf8("a0"))));

        assertThat(sync.zscore(KEYS.tenantQueue("a"), "a0")).isNotNull();
        assertThat(sync.zscore(KEYS.store(), "a0")).isNull();
        assertThat(sync.zrange(KEYS.tenants(), 0, -1)).containsExactly("a");
        assertThat(sync.hlen(KEYS.inFlightTenants())).isZero();
    }

    @Test
    void aReleaseAndACommitSettleByTenant() {
        send("a", 2, "a");
        TopicScripts.PopReply reply = await(scripts.pop(SLOT, 5, 30_000, 0, null, false, false, EQUAL));

        await(scripts.release(SLOT, List.of(reply.members().get(0))));
        await(scripts.commit(SLOT, List.of(reply.members().get(1).content())));

        assertThat(sync.zcard(KEYS.tenantQueue("a"))).isEqualTo(1);
        assertThat(sync.zcard(KEYS.store())).isZero();
        assertThat(sync.hlen(KEYS.inFlightTenants())).isZero();
        assertThat(sync.zcard(KEYS.prepare())).isZero();
    }

    @Test
    void tenantNamesAreEncodedForTheKeys() {
        assertThat(TenantName.encode("a{b}%c\n")).isEqualTo("a%7Bb%7D%25c%0A");
        await(scripts.send(SLOT, List.of(send("m", "x{1}"))));

        assertThat(sync.zcard("tq:x%7B1%7D{" + KEYS.store() + "}")).isEqualTo(1);
        assertThat(members(await(scripts.pop(SLOT, 5, 30_000, 0, null, false, false,
                new FairShare(true, Map.of("x{1}", 2.0), 1))))).containsExactly("m");
    }

    @Test
    void whatATenantLeavesGoesToTheOthers() {
        send("a", 1, "a");
        send("b", 20, "b");

        TopicScripts.PopReply reply = await(scripts.pop(SLOT, 10, 30_000, 0, null, false, false, EQUAL));

        assertThat(members(reply)).hasSize(10).contains("a0");
        assertThat(reply.nextDelayMillis()).isZero();
    }

    @Test
    void nextCoversTheTenantsQueues() {
        await(scripts.send(SLOT, List.of(new TopicScripts.Send(Long.toString(past + 61_000), utf8("later"), null, null,
                0, "a", null))));

        TopicScripts.PopReply reply = await(scripts.pop(SLOT, 10, 30_000, 0, null, false, false, EQUAL));

        assertThat(reply.members()).isEmpty();
        assertThat(reply.nextDelayMillis()).isBetween(55_000L, 60_000L);
    }

    @Test
    void weightsHoldOverManyPops() {
        send("a", 400, "a");
        send("b", 400, "b");
        FairShare weights = FairShare.of(true, "a:3,b:1");

        List<String> popped = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            popped.addAll(members(await(scripts.pop(SLOT, 5, 30_000, 0, null, false, false, weights))));
        }

        assertThat(popped).hasSize(200);
        assertThat(popped.stream().filter(m -> m.startsWith("b")).count()).isEqualTo(50);
    }

    @Test
    void statsFindCancelAndRescheduleSeeTenantQueues() {
        send("a", 3, "a");
        sync.zadd(KEYS.store(), past, "plain");

        List<Object> stats = await(new ScriptRunner(redisBinary).run(RedisScript.STATS,
                new byte[][] { utf8(KEYS.store()), utf8(KEYS.prepare()), utf8(KEYS.dead()), utf8(KEYS.owner()),
                        utf8(KEYS.paused()), utf8(KEYS.counters()), utf8(KEYS.tenants()) }, utf8("FIXED_TIME")));
        assertThat(stats.subList(0, 2)).containsExactly(4L, 4L);

        assertThat(await(scripts.find(SLOT, utf8("a1"), List.of(), "a")).pendingScore()).isEqualTo((double) past);
        assertThat(await(scripts.find(SLOT, utf8("a1"), List.of())).pendingScore()).isNull();
        assertThat(await(scripts.reschedule(SLOT, utf8("a2"), "5", List.of(), "a")).rescheduled()).isTrue();
        assertThat(await(scripts.cancel(SLOT, utf8("a1"), List.of(), "a")).cancelled()).isTrue();
        assertThat(sync.zrange(KEYS.tenantQueue("a"), 0, -1)).containsExactly("a2", "a0");
    }

    @Test
    void theSweeperReturnsAnExpiredDeliveryToItsTenantsQueue() {
        send("a", 1, "a");
        assertThat(members(await(scripts.pop(SLOT, 5, 1, 0, null, false, false, EQUAL)))).containsExactly("a0");

        Awaitility.await().atMost(Duration.ofSeconds(5))
                .until(() -> await(scripts.rollbackExpired(SLOT, RETRY, "timed out", 10)).requeued() == 1);

        assertThat(sync.zscore(KEYS.tenantQueue("a"), "a0")).isNotNull();
        assertThat(sync.zrange(KEYS.tenants(), 0, -1)).containsExactly("a");
        assertThat(sync.hlen(KEYS.inFlightTenants())).isZero();
    }

    @Test
    void aPriorityRollbackGoesBehindItsOwnTenantsPendingMessages() {
        TopicKeys topic = new TopicKeys(new TopicDefinition("fairprio", 4, TopicType.PRIORITY));
        SlotKeys keys = topic.slot(SLOT);
        TopicScripts priority = new TopicScripts(() -> runner, topic);
        priority.settleByTenant(true);
        await(priority.send(SLOT, List.of(new TopicScripts.Send("9", utf8("first"), null, null, 0, "a", null),
                new TopicScripts.Send("5", utf8("next"), null, null, 0, "a", null))));
        sync.zadd(keys.store(), 1, "plain");
        List<String> popped = members(await(priority.pop(SLOT, 1, 30_000, 0, null, false, false,
                new FairShare(true, Map.of("a", 100.0), 1))));
        assertThat(popped).containsExactly("first");

        await(priority.rollback(SLOT, RETRY, "failed", List.of(utf8("first"))));

        assertThat(sync.zscore(keys.tenantQueue("a"), "first")).isEqualTo(4.0);
        assertThat(sync.zscore(keys.store(), "plain")).isEqualTo(1.0);
    }

    @Test
    void theSafetyPollFindsMessagesWaitingOnlyInTenantQueues() {
        send("a", 1, "a");

        assertThat(await(scripts.countPending(new int[] { SLOT }))).isZero();
        assertThat(await(scripts.countPending(new int[] { SLOT }, true))).isEqualTo(1);
    }

    @Test
    void aGrowthHoldsTheNewSlotUntilTenantQueuesLeftTheOldOne() {
        send("a", 2, "a");
        sync.zadd(KEYS.store(), past, "plain");
        String marker = TOPIC.splitMarker(SLOT, 8);
        String presplit = TOPIC.presplit(SLOT, 8);
        List<Long> split = await(runner.run(RedisScript.SPLIT_SLOT, new byte[][] { utf8(KEYS.store()),
                utf8(KEYS.prepare()), utf8(marker), utf8(presplit), utf8(KEYS.tenants()) }, utf8("8")));
        assertThat(split).containsExactly(1L, 3L);

        TopicScripts.PopReply popped = await(scripts.pop(SLOT, 2, 30_000, 0, null, false, false, new FairShare(true,
                Map.of(), 1)));
        await(scripts.commit(SLOT, popped.members().stream().map(TopicScripts.PoppedMember::content).toList()));
        List<Long> progress = await(runner.run(RedisScript.SPLIT_PROGRESS, new byte[][] { utf8(KEYS.store()),
                utf8(KEYS.prepare()), utf8(presplit), utf8(marker), utf8(KEYS.tenants()) }, utf8("0"), utf8("100")));

        assertThat(progress.get(0)).as("one member of tenant a still waits in the old slot").isEqualTo(1L);
        assertThat(await(scripts.mergePending(SLOT, 8, List.of(send(sync.zrange(KEYS.tenantQueue("a"), 0, 0).get(0),
                "a")))).results().get(0)).as("a send of tenant a merges into its pre-split copy").isNotNull();
    }

    private void send(String prefix, int n, String tenant) {
        List<TopicScripts.Send> sends = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            sends.add(send(prefix + i, tenant));
        }
        await(scripts.send(SLOT, sends));
    }

    private TopicScripts.Send send(String member, String tenant) {
        return new TopicScripts.Send(Long.toString(past), utf8(member), null, null, 0, tenant, null);
    }

    private static List<String> members(TopicScripts.PopReply reply) {
        return reply.members().stream().map(m -> new String(m.content(), StandardCharsets.UTF_8)).toList();
    }
}
