package io.rmq.engine.scripts;

import static io.rmq.testing.Bytes.text;
import static io.rmq.testing.Bytes.utf8;
import static io.rmq.testing.Bytes.utf8Array;
import static io.rmq.testing.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

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

/**
 * {@code pop.lua} with coordination: the ownership epoch fences earlier owners, a newer epoch takes
 * the slot over, and a takeover waits for the previous owner's in-flight messages (handover).
 */
@RedisTest
class PopFencingScriptIT {

    private static final int SLOT = 5;
    private static final TopicKeys TOPIC = new TopicKeys(new TopicDefinition("orders", 8, TopicType.FIXED_TIME));
    private static final SlotKeys KEYS = TOPIC.slot(SLOT);
    private static final long TIMEOUT = 30_000;

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

    @Test
    void theFirstOwnerOfAFreshSlotClaimsItAndPops() {
        due("a", "b");

        Reply reply = pop(3, "worker-a", 10);

        assertThat(reply.status()).isEqualTo(PopStatus.POPPED);
        assertThat(reply.detail()).isEqualTo(3);
        assertThat(reply.members()).containsExactly("a", "b");
        assertThat(sync.hget(KEYS.owner(), "epoch")).isEqualTo("3");
        assertThat(sync.hget(KEYS.owner(), "worker")).isEqualTo("worker-a");
        assertThat(Long.parseLong(sync.hget(KEYS.owner(), "since"))).isEqualTo(reply.now());
        assertThat(sync.hexists(KEYS.owner(), "handover")).isFalse();
    }

    @Test
    void aWorkerWithAStaleEpochIsFencedAndPopsNothing() {
        due("a");
        pop(5, "worker-b", 0); // the new owner claims the slot

        Reply stale = pop(3, "worker-a", 10);

        assertThat(stale.status()).isEqualTo(PopStatus.FENCED);
        assertThat(stale.detail()).as("the epoch the slot is owned under").isEqualTo(5);
        assertThat(stale.next()).isEqualTo(-1);
        assertThat(stale.members()).isEmpty();
        assertThat(sync.zrange(KEYS.store(), 0, -1)).containsExactly("a");
        assertThat(sync.exists(KEYS.prepare())).isZero();
        assertThat(sync.hget(KEYS.owner(), "epoch")).isEqualTo("5");
        assertThat(sync.hget(KEYS.owner(), "worker")).isEqualTo("worker-b");
    }

    @Test
    void aNewerEpochTakesTheSlotOverAndFencesTheOwnerBefore() {
        due("a", "b");
        pop(3, "worker-a", 1);

        Reply takeover = pop(4, "worker-b", 0);
        sync.zrem(KEYS.prepare(), "a"); // worker-a commits what it held
        Reply popped = pop(4, "worker-b", 10);

        assertThat(takeover.status()).as("a still in flight").isEqualTo(PopStatus.HANDOVER);
        assertThat(popped.status()).isEqualTo(PopStatus.POPPED);
        assertThat(popped.members()).containsExactly("b");
        assertThat(pop(3, "worker-a", 10).status()).isEqualTo(PopStatus.FENCED);
    }

    @Test
    void theOwnerKeepsPoppingUnderItsEpoch() {
        due("a");
        pop(7, "worker-a", 10);
        due("b");

        Reply again = pop(7, "worker-a", 10);

        assertThat(again.status()).isEqualTo(PopStatus.POPPED);
        assertThat(again.members()).containsExactly("b");
        assertThat(sync.hexists(KEYS.owner(), "handover")).as("its own messages in flight are no handover").isFalse();
    }

    @Test
    void aClaimPopsNothingAndReportsMoreMayBeDue() {
        due("a");

        Reply claim = pop(2, "worker-a", 0);

        assertThat(claim.status()).isEqualTo(PopStatus.POPPED);
        assertThat(claim.next()).isZero();
        assertThat(claim.members()).isEmpty();
        assertThat(sync.zrange(KEYS.store(), 0, -1)).containsExactly("a");
        assertThat(sync.hget(KEYS.owner(), "epoch")).isEqualTo("2");
    }

    @Test
    void aTakeoverWaitsUntilThePreviousOwnersMessagesHaveLeftThePrepareQueue() {
        due("x", "y", "a");
        assertThat(pop(3, "worker-a", 2).members()).containsExactly("x", "y");

        Reply claim = pop(4, "worker-b", 0);
        Reply waiting = pop(4, "worker-b", 10);
        Reply fenced = pop(3, "worker-a", 10);

        assertThat(claim.status()).isEqualTo(PopStatus.HANDOVER);
        assertThat(claim.detail()).as("messages of the previous owner in flight").isEqualTo(2);
        assertThat(waiting.status()).isEqualTo(PopStatus.HANDOVER);
        assertThat(waiting.members()).isEmpty();
        assertThat(fenced.status()).as("the previous owner cannot add to the prepare queue").isEqualTo(PopStatus.FENCED);
        assertThat(sync.zrange(KEYS.store(), 0, -1)).containsExactly("a");
        assertThat(sync.hget(KEYS.owner(), "handover")).isEqualTo("1");

        // the previous owner finishes its messages: a commit and a release (its commits stay safe)
        commit("x");
        assertThat(wakes.drain()).isEmpty();
        release("y", "3");
        assertThat(wakes.drain()).as("the release wakes the new owner").containsExactly(SLOT + ":0");

        Reply popped = pop(4, "worker-b", 10);
        assertThat(popped.status()).isEqualTo(PopStatus.POPPED);
        assertThat(popped.members()).containsExactly("y", "a");
        assertThat(sync.hexists(KEYS.owner(), "handover")).isFalse();
        assertThat(pop(4, "worker-b", 10).status()).as("its own messages in flight do not block it")
                .isEqualTo(PopStatus.POPPED);
    }

    @Test
    void theCommitThatEndsAHandoverWakesTheNewOwner() {
        due("x");
        pop(1, "worker-a", 1);
        assertThat(pop(2, "worker-b", 0).status()).isEqualTo(PopStatus.HANDOVER);

        commit("x");

        assertThat(wakes.drain()).containsExactly(SLOT + ":0");
        assertThat(pop(2, "worker-b", 10).status()).isEqualTo(PopStatus.POPPED);
    }

    @Test
    void aTakeoverOfAnIdleSlotNeedsNoHandover() {
        due("a");
        pop(1, "worker-a", 10);
        sync.zrem(KEYS.prepare(), "a");
        due("b");

        Reply takeover = pop(2, "worker-b", 10);

        assertThat(takeover.status()).isEqualTo(PopStatus.POPPED);
        assertThat(takeover.members()).containsExactly("b");
        assertThat(sync.hexists(KEYS.owner(), "handover")).isFalse();
    }

    // --- helpers ---------------------------------------------------------------------------

    private record Reply(PopStatus status, long now, long next, long detail, List<String> members) {
    }

    private void due(String... members) {
        long now = redis.redisTimeMillis();
        for (int i = 0; i < members.length; i++) {
            sync.zadd(KEYS.store(), now - 1_000.0 + i, members[i]);
        }
    }

    private Reply pop(long epoch, String worker, int count) {
        List<Object> reply = await(scripts.run(RedisScript.POP,
                utf8Array(KEYS.store(), KEYS.prepare(), KEYS.attempts(), KEYS.origin(), KEYS.owner(), KEYS.paused()),
                utf8("FIXED_TIME"), utf8(Integer.toString(count)), utf8(Long.toString(TIMEOUT)),
                utf8(Long.toString(epoch)), utf8(worker)));
        List<String> members = new ArrayList<>();
        for (TopicScripts.PoppedMember m : TopicScripts.popReply(reply).members()) {
            members.add(text(m.content()));
        }
        return new Reply(PopStatus.of((Long) reply.get(0)), (Long) reply.get(1), (Long) reply.get(2),
                (Long) reply.get(3), members);
    }

    private void commit(String... members) {
        byte[][] args = utf8Array(Stream.concat(Stream.of(TOPIC.wakeChannel(), Integer.toString(SLOT)),
                Stream.of(members)).toArray(String[]::new));
        await(scripts.run(RedisScript.COMMIT, utf8Array(KEYS.store(), KEYS.prepare(), KEYS.attempts(), KEYS.origin(),
                KEYS.owner(), KEYS.failures()), args));
    }

    private void release(String member, String score) {
        await(scripts.run(RedisScript.RELEASE, utf8Array(KEYS.store(), KEYS.prepare(), KEYS.origin()),
                utf8(TOPIC.wakeChannel()), utf8(Integer.toString(SLOT)), utf8(member), utf8(score)));
    }
}
