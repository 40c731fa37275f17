package io.rmq.engine.scripts;

import static io.rmq.testing.Bytes.utf8;
import static io.rmq.testing.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

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
 * The scripts' handling of expiries, against a real Redis: what send writes, what pop removes and within which
 * bound, where an expiry waits while its message is in flight, and what commit, rollback, release and
 * expire.lua do with it.
 */
@RedisTest
class ExpiryScriptsIT {

    private static final TopicKeys TOPIC = new TopicKeys(new TopicDefinition("expiring", 4, TopicType.FIXED_TIME));
    private static final int SLOT = 1;
    private static final SlotKeys KEYS = TOPIC.slot(SLOT);
    private static final TopicScripts.RetryRule RETRY = new TopicScripts.RetryRule(5, 0, 0);

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

    private void send(String member, long due, String expiry) {
        await(scripts.send(SLOT, List.of(new TopicScripts.Send(Long.toString(due), utf8(member), expiry))));
    }

    @Test
    void aCallWithoutExpiriesWritesNothingToTheExpirySetAndARelativeExpiryCountsFromTheRedisClock() {
        long now = redis.redisTimeMillis();
        send("plain", now, null);
        assertThat(sync.exists(KEYS.expiry())).isZero();

        send("relative", now, "+60000");
        Double at = sync.zscore(KEYS.expiry(), "relative");
        assertThat(at).isBetween(now + 60_000.0, redis.redisTimeMillis() + 60_000.0);

        assertThatThrownBy(() -> send("bad", now, "soon")).hasMessageContaining("RMQ_BAD_VALUE soon");
        assertThat(sync.zscore(KEYS.store(), "bad")).isNull();
    }

    @Test
    void aPopRemovesAtMostTwiceItsCountOfExpiredMembersAndThenAsksToBeCalledAgain() {
        long now = redis.redisTimeMillis();
        for (int i = 0; i < 25; i++) {
            send("expired-" + i, now + 3_600_000, Long.toString(now - 1_000 + i));
        }
        send("due", now - 1, null);

        TopicScripts.PopReply first = await(scripts.pop(SLOT, 5, 30_000, 0, "", false));
        assertThat(first.expired()).isEqualTo(10);
        assertThat(first.members()).as("nothing popped while more may have expired").isEmpty();
        assertThat(first.nextDelayMillis()).isZero();

        TopicScripts.PopReply second = await(scripts.pop(SLOT, 5, 30_000, 0, "", false));
        TopicScripts.PopReply third = await(scripts.pop(SLOT, 5, 30_000, 0, "", false));
        assertThat(second.expired() + third.expired()).isEqualTo(15);
        assertThat(third.members()).extracting(m -> new String(m.content(), StandardCharsets.UTF_8)).containsExactly("due");
        assertThat(sync.hget(KEYS.counters(), "expired")).isEqualTo("25");
        assertThat(sync.zcard(KEYS.store())).isZero();
        assertThat(sync.exists(KEYS.expiry(), KEYS.dead())).isZero();
    }

    @Test
    void aPoppedMembersExpiryIsHeldUntilCommitAndComesBackWithARollbackOrARelease() {
        long now = redis.redisTimeMillis();
        long expires = now + 60_000;
        for (String m : List.of("committed", "rolled-back", "released")) {
            send(m, now - 1, Long.toString(expires));
        }

        TopicScripts.PopReply popped = await(scripts.pop(SLOT, 10, 30_000, 0, "", false));
        assertThat(popped.members()).hasSize(3).allMatch(TopicScripts.PoppedMember::heldExpiry);
        assertThat(sync.exists(KEYS.expiry())).isZero();
        assertThat(sync.hgetall(KEYS.heldExpiry())).hasSize(3).containsEntry("released", Long.toString(expires));

        await(scripts.commit(SLOT, List.of(utf8("committed")), true));
        await(scripts.rollback(SLOT, RETRY, "failed", List.of(utf8("rolled-back"))));
        TopicScripts.PoppedMember released = popped.members().stream()
                .filter(m -> new String(m.content(), StandardCharsets.UTF_8).equals("released")).findFirst().orElseThrow();
        await(scripts.release(SLOT, List.of(released)));

        assertThat(sync.exists(KEYS.heldExpiry())).isZero();
        assertThat(sync.zrange(KEYS.expiry(), 0, -1)).containsExactlyInAnyOrder("rolled-back", "released");
        assertThat(sync.zscore(KEYS.expiry(), "released")).isEqualTo((double) expires);
    }

    @Test
    void aRollbackAfterTheExpiryLetsTheNextPopExpireItAndADeadMemberLosesItsExpiry() {
        long now = redis.redisTimeMillis();
        send("late", now - 1, Long.toString(now + 50));
        send("poison", now - 1, Long.toString(now + 60_000));
        await(scripts.pop(SLOT, 10, 30_000, 0, "", false));
        org.awaitility.Awaitility.await().until(() -> redis.redisTimeMillis() > now + 50);

        await(scripts.rollback(SLOT, RETRY, "failed", List.of(utf8("late"))));
        await(scripts.rollback(SLOT, new TopicScripts.RetryRule(0, 0, 0), "failed", List.of(utf8("poison"))));
        assertThat(sync.zrange(KEYS.dead(), 0, -1)).containsExactly("poison");
        assertThat(sync.zrange(KEYS.expiry(), 0, -1)).containsExactly("late");

        TopicScripts.PopReply next = await(scripts.pop(SLOT, 10, 30_000, 0, "", true));
        assertThat(next.expired()).isEqualTo(1);
        assertThat(next.members()).isEmpty();
        assertThat(sync.zrange(KEYS.dead(), 0, -1)).containsExactlyInAnyOrder("poison", "late");
        assertThat(sync.hget(KEYS.failures(), "late")).as("one failed delivery before it expired").isEqualTo("1\t\texpired");
        assertThat(sync.hget(KEYS.attempts(), "late")).isNull();
        assertThat(sync.hget(KEYS.counters(), "dead")).isEqualTo("2");
        assertThat(sync.exists(KEYS.expiry(), KEYS.heldExpiry())).isZero();
    }

    @Test
    void expireRemovesExpiredMembersNotYetDueWithinItsLimitAndLeavesTheOthers() {
        long now = redis.redisTimeMillis();
        List<String> expired = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            expired.add("old-" + i);
            send("old-" + i, now + 3_600_000, Long.toString(now - 10));
        }
        send("young", now + 3_600_000, Long.toString(now + 3_600_000));
        sync.zadd(KEYS.expiry(), now - 5.0, "not-pending");

        TopicScripts.ExpireReply first = await(scripts.expire(SLOT, 5, false));
        assertThat(first.expired()).isEqualTo(5);
        assertThat(first.more()).isTrue();
        TopicScripts.ExpireReply second = await(scripts.expire(SLOT, 5, false));
        assertThat(second.expired()).as("an entry without a pending member is removed, not counted").isEqualTo(2);
        assertThat(second.more()).isFalse();

        assertThat(sync.zrange(KEYS.store(), 0, -1)).containsExactly("young");
        assertThat(sync.zrange(KEYS.expiry(), 0, -1)).containsExactly("young");
        assertThat(sync.hget(KEYS.counters(), "expired")).isEqualTo("7");
        assertThat(await(scripts.countPreparedOrExpiring())).as("the expiry set of one slot").isEqualTo(1);
    }

    @Test
    void mergesWithoutAnExpirySectionClearTheExpiryOfFixedTimeDuplicates() {
        long now = redis.redisTimeMillis();
        send("m", now + 10_000, Long.toString(now + 60_000));
        send("m", now + 20_000, null);
        assertThat(sync.zscore(KEYS.expiry(), "m")).isNull();
        assertThat(sync.zscore(KEYS.store(), "m")).isEqualTo(now + 20_000.0);
    }
}
