package io.rmq.engine.scripts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.redis.WrongKeyTypeException;
import io.rmq.engine.topic.KeyLimits;
import io.rmq.engine.topic.SlotKeys;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;

/**
 * Slot state written by another client, as the scripts meet it (part of the bad-input catalogue,
 * docs/bad-input.md): an unreadable ownership epoch is replaced by the next claim, a key of the
 * wrong type fails a rollback before its member leaves the prepare queue, naming the key, and a blocked hash of the
 * wrong type fails a pop before any member leaves the store queue.
 */
@RedisTest
class CorruptSlotStateIT {

    private static final TopicKeys TOPIC = new TopicKeys(new TopicDefinition("orders", 4, TopicType.FIXED_TIME));
    private static final SlotKeys KEYS = TOPIC.slot(2);

    private RedisCommands<String, String> sync;
    private TopicScripts scripts;

    @BeforeEach
    void setUp(RedisConnections redis) {
        sync = redis.sync();
        ScriptRunner runner = new ScriptRunner(redis.binary().async());
        scripts = new TopicScripts(() -> runner, TOPIC);
    }

    private static <T> T join(java.util.concurrent.CompletionStage<T> stage) throws Exception {
        return stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void aNonNumericOwnerEpochIsReplacedByTheNextClaim() throws Exception {
        sync.hset(KEYS.owner(), "epoch", "written-by-hand");
        sync.zadd(KEYS.store(), 0, "a");

        TopicScripts.PopReply reply = join(scripts.pop(2, 10, 30_000, 3, "worker-a"));

        assertThat(reply.status()).isEqualTo(PopStatus.POPPED);
        assertThat(reply.members()).extracting(m -> new String(m.content(), StandardCharsets.UTF_8)).containsExactly("a");
        assertThat(sync.hget(KEYS.owner(), "epoch")).isEqualTo("3");
        assertThat(join(scripts.highestEpoch())).isEqualTo(3);
    }

    @Test
    void theHighestEpochSkipsAnUnreadableOne() throws Exception {
        sync.hset(TOPIC.slot(0).owner(), "epoch", "7");
        sync.hset(TOPIC.slot(1).owner(), "epoch", "not-a-number");

        assertThat(join(scripts.highestEpoch())).isEqualTo(7);
    }

    @Test
    void aRollbackMeetingAKeyOfTheWrongTypeLeavesItsMemberInThePrepareQueue() throws Exception {
        sync.zadd(KEYS.store(), 0, "a");
        TopicScripts.PopReply popped = join(scripts.pop(2, 10, 30_000, 0, null));
        sync.set(KEYS.failures(), "written by hand");

        Throwable failure = catchThrowable(() -> join(scripts.rollback(2, new TopicScripts.RetryRule(3, 0, 0), "boom",
                List.of(popped.members().get(0).content()))));

        assertThat(failure).hasCauseInstanceOf(WrongKeyTypeException.class);
        assertThat(failure.getCause()).hasMessageStartingWith("RMQ-0340 rollback.lua failed because key '"
                + KEYS.failures() + "' (the failures hash of the slot) holds a string where a hash is expected");
        assertThat(((WrongKeyTypeException) failure.getCause()).keys()).containsExactly(KEYS.failures());
        assertThat(sync.zrange(KEYS.prepare(), 0, -1)).containsExactly("a"); // in a queue still: not lost
        assertThat(sync.zcard(KEYS.store())).isZero();
    }

    @Test
    void aNonNumericPriorityRecordedForAPoppedMemberCountsAsZeroOnRollback(RedisConnections redis) throws Exception {
        TopicKeys priorityTopic = new TopicKeys(new TopicDefinition("tasks", 1, TopicType.PRIORITY));
        SlotKeys slot = priorityTopic.slot(0);
        ScriptRunner runner = new ScriptRunner(redis.binary().async());
        TopicScripts tasks = new TopicScripts(() -> runner, priorityTopic);
        sync.zadd(slot.store(), 5, "a");
        TopicScripts.PopReply popped = join(tasks.pop(0, 10, 30_000, 0, null));
        sync.hset(slot.origin(), "a", "high"); // its priority while consumed, overwritten by hand

        TopicScripts.RollbackReply reply = join(tasks.rollback(0, new TopicScripts.RetryRule(3, 0, 0), "boom",
                List.of(popped.members().get(0).content())));

        assertThat(reply.requeued()).isEqualTo(1);
        assertThat(sync.zscore(slot.store(), "a")).isZero(); // back in the store queue, not lost
        assertThat(sync.zcard(slot.prepare())).isZero();
    }

    @Test
    void aReleaseMeetingAKeyOfTheWrongTypeLeavesItsMemberInThePrepareQueue() throws Exception {
        sync.zadd(KEYS.store(), 0, "a");
        TopicScripts.PopReply popped = join(scripts.pop(2, 10, 30_000, 0, null));
        sync.set(KEYS.counters(), "written by hand");

        Throwable failure = catchThrowable(() -> join(scripts.release(2, popped.members())));

        assertThat(failure.getCause()).hasMessageContaining("key '" + KEYS.counters() + "' (the counters hash of the"
                + " slot) holds a string where a hash is expected");
        assertThat(sync.zrange(KEYS.prepare(), 0, -1)).containsExactly("a");
    }

    /**
     * The blocked hash is written after the members move (a member this pop moves loses its entry there): a pop meeting
     * one of the wrong type fails before anything moves, whether or not members are in flight (the prepare queue empty
     * or not takes different ways), with and without limits per key ({@code pop.lua}, {@code pop_flow.lua}).
     */
    @Test
    void aPopMeetingABlockedHashOfTheWrongTypeLeavesItsMembersInTheStoreQueue(RedisConnections redis) throws Exception {
        ScriptRunner runner = new ScriptRunner(redis.binary().async());
        TopicScripts limited = new TopicScripts(() -> runner, TOPIC);
        limited.keyLimits(new KeyLimits(1, 0, 0));
        for (TopicScripts popping : List.of(scripts, limited)) {
            for (boolean inFlight : new boolean[] {false, true}) {
                sync.del(KEYS.store(), KEYS.prepare(), KEYS.blocked());
                sync.zadd(KEYS.store(), 0, "a");
                sync.zadd(KEYS.store(), 1, "b");
                if (inFlight) {
                    sync.zadd(KEYS.prepare(), 1234, "in-flight");
                }
                sync.set(KEYS.blocked(), "written by hand");

                Throwable failure = catchThrowable(() -> join(popping.pop(2, 10, 30_000, 0, null)));

                assertThat(failure).hasCauseInstanceOf(WrongKeyTypeException.class);
                assertThat(((WrongKeyTypeException) failure.getCause()).keys()).containsExactly(KEYS.blocked());
                assertThat(failure.getCause()).hasMessageContaining("key '" + KEYS.blocked()
                        + "' (the blocked hash of the slot) holds a string where a hash is expected");
                assertThat(sync.zrange(KEYS.store(), 0, -1)).as("not lost").containsExactly("a", "b");
                assertThat(sync.zrange(KEYS.prepare(), 0, -1)).as("nothing moved")
                        .isEqualTo(inFlight ? List.of("in-flight") : List.of());
            }
        }
    }
}
