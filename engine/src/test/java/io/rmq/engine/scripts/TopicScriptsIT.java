package io.rmq.engine.scripts;

import static io.rmq.testing.Bytes.utf8;
import static io.rmq.testing.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.engine.redis.RedisUnavailableException;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.topic.SlotKeys;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.Bytes;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;

/**
 * The typed gateway: each method sends its script the keys and arguments its header documents, and
 * maps the reply into its record. The scripts' own outcomes are covered by one IT per script.
 */
@RedisTest
class TopicScriptsIT {

    private static final TopicKeys TOPIC = new TopicKeys(new TopicDefinition("gateway", 4, TopicType.FIXED_TIME, "app:"));
    private static final int SLOT = 2;
    private static final SlotKeys KEYS = TOPIC.slot(SLOT);
    private static final TopicScripts.RetryRule NO_RETRY = new TopicScripts.RetryRule(0, 1_000, 60_000);

    private RedisCommands<String, String> sync;
    private TopicScripts scripts;
    private RedisConnections redis;

    @BeforeEach
    void setUp(RedisConnections redis) {
        this.redis = redis;
        this.sync = redis.sync();
        ScriptRunner runner = new ScriptRunner(redis.binary().async());
        this.scripts = new TopicScripts(() -> runner, TOPIC);
    }

    @Test
    void registerReturnsTheRecordedDefinition() {
        assertThat(await(scripts.registerTopic())).isEqualTo("FIXED_TIME:4");
        assertThat(sync.hget("app:rmq:topics", "gateway")).isEqualTo("FIXED_TIME:4");
    }

    @Test
    void sendReportsStoredThenMergedWithTheScore() {
        long at = redis.redisTimeMillis() - 10;

        List<SendResult> results = await(scripts.send(SLOT, List.of(new TopicScripts.Send(Long.toString(at), utf8("m")),
                new TopicScripts.Send(Long.toString(at - 5), utf8("m")))));

        assertThat(results).containsExactly(new SendResult(true, SLOT, at), new SendResult(false, SLOT, at - 5));
        assertThat(sync.zscore(KEYS.store(), "m")).isEqualTo(at - 5);
        assertThat(sync.hgetall(KEYS.counters())).as("one count per outcome of the call")
                .containsOnly(entry("sent", "2"), entry("merged", "1"));
    }

    @Test
    void popMapsStatusTimesAndMembers() {
        long at = redis.redisTimeMillis() - 10;
        sync.zadd(KEYS.store(), at, "a");
        sync.zadd(KEYS.store(), at + 600_000, "later");

        TopicScripts.PopReply reply = await(scripts.pop(SLOT, 5, 30_000, 0, null));

        assertThat(reply.status()).isEqualTo(PopStatus.POPPED);
        assertThat(reply.redisNow()).isGreaterThanOrEqualTo(at);
        assertThat(reply.nextDelayMillis()).isGreaterThan(590_000);
        assertThat(reply.detail()).isZero();
        assertThat(reply.members()).singleElement().satisfies(m -> {
            assertThat(Bytes.text(m.content())).isEqualTo("a");
            assertThat(Double.parseDouble(Bytes.text(m.rawScore()))).isEqualTo(at);
            assertThat(m.attempt()).isEqualTo(1);
        });
        assertThat(sync.zrange(KEYS.prepare(), 0, -1)).containsExactly("a");
        assertThat(sync.hgetall(KEYS.counters())).containsOnly(entry("delivered", "1"));

        await(scripts.pop(SLOT, 5, 30_000, 0, null));
        assertThat(sync.hgetall(KEYS.counters())).as("a pop of nothing counts nothing").containsOnly(entry("delivered", "1"));
    }

    @Test
    void extendCommitRollbackAndReleaseReportWhatTheyDid() {
        long at = redis.redisTimeMillis() - 10;
        for (String m : List.of("c", "r", "x", "e")) {
            sync.zadd(KEYS.store(), at, m);
        }
        TopicScripts.PopReply popped = await(scripts.pop(SLOT, 4, 30_000, 0, null));
        TopicScripts.PoppedMember released = popped.members().stream()
                .filter(m -> Bytes.text(m.content()).equals("e")).findFirst().orElseThrow();

        assertThat(await(scripts.extend(SLOT, 60_000, List.of(utf8("c"), utf8("gone"))))).isEqualTo(1L);
        assertThat(await(scripts.commit(SLOT, List.of(utf8("c"))))).isEqualTo(1L);
        assertThat(await(scripts.rollback(SLOT, NO_RETRY, "java.lang.IllegalStateException: no", List.of(utf8("r")))))
                .isEqualTo(new TopicScripts.RollbackReply(0, 0, 1));
        assertThat(await(scripts.release(SLOT, List.of(released)))).isEqualTo(1L);

        assertThat(sync.zrange(KEYS.prepare(), 0, -1)).containsExactly("x");
        assertThat(sync.zrange(KEYS.dead(), 0, -1)).containsExactly("r");
        assertThat(sync.hget(KEYS.failures(), "r")).isEqualTo("1\t\tjava.lang.IllegalStateException: no");
        assertThat(sync.zscore(KEYS.store(), "e")).isEqualTo(at);
        assertThat(sync.hgetall(KEYS.counters())).containsOnly(entry("delivered", "4"), entry("acked", "1"),
                entry("nacked", "1"), entry("dead", "1"), entry("released", "1"));
    }

    @Test
    void rollbackExpiredSelectsOnlyMembersPastTheirDeadline() {
        long now = redis.redisTimeMillis();
        sync.zadd(KEYS.prepare(), now - 1_000, "expired");
        sync.zadd(KEYS.prepare(), now + 60_000, "held");

        TopicScripts.RollbackReply reply = await(scripts.rollbackExpired(SLOT, new TopicScripts.RetryRule(3, 1_000, 60_000), "expired", 10));

        assertThat(reply).isEqualTo(new TopicScripts.RollbackReply(1, 0, 0));
        assertThat(reply.total()).isEqualTo(1);
        assertThat(sync.zrange(KEYS.prepare(), 0, -1)).containsExactly("held");
        assertThat(sync.zrange(KEYS.store(), 0, -1)).containsExactly("expired");
        assertThat(sync.hgetall(KEYS.counters())).as("an expired delivery counts as nacked").containsOnly(entry("nacked", "1"));
    }

    @Test
    void trimDeadKeepsTheRetentionAndForgetsWhatItDeletes() {
        long now = redis.redisTimeMillis();
        sync.zadd(KEYS.dead(), now - 90_000, "ancient");
        sync.hset(KEYS.failures(), "ancient", "3\t\tx");
        for (int i = 0; i < 5; i++) {
            sync.zadd(KEYS.dead(), now - 1_000 + i, "recent-" + i);
        }

        long deleted = await(scripts.trimDead(SLOT, 3, 60_000, 100));

        assertThat(deleted).as("one by age, two by count").isEqualTo(3L);
        assertThat(sync.zrange(KEYS.dead(), 0, -1)).containsExactly("recent-2", "recent-3", "recent-4");
        assertThat(sync.hexists(KEYS.failures(), "ancient")).isFalse();
        assertThat(sync.hgetall(KEYS.counters())).containsOnly(entry("trimmed", "3"));
    }

    @Test
    void highestEpochReadsTheOwnerHashesOfEverySlot() {
        assertThat(await(scripts.highestEpoch())).isZero();
        sync.hset(TOPIC.slot(0).owner(), "epoch", "7");
        sync.hset(TOPIC.slot(3).owner(), "epoch", "12");

        assertThat(await(scripts.highestEpoch())).isEqualTo(12L);
    }

    @Test
    void beforeRedisIsReachedEveryCallFailsItsStageInsteadOfThrowing() {
        TopicScripts unreachable = new TopicScripts(() -> {
            throw new RedisUnavailableException("not reached yet");
        }, TOPIC);

        assertThatThrownBy(() -> await(unreachable.send(SLOT, List.of(new TopicScripts.Send("1", utf8("m"))))))
                .isInstanceOf(RedisUnavailableException.class).hasMessage("not reached yet");
        assertThatThrownBy(() -> await(unreachable.highestEpoch()))
                .isInstanceOf(RedisUnavailableException.class);
    }
}
