package io.rmq.engine.scripts;

import static io.rmq.testing.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

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
 * Script calls far larger than the scripts' multi-member commands take at once (Lua's {@code unpack} stops at
 * 8,000 values; the scripts split their commands at 1,000 arguments): a send of 12,000 messages (1,000 of them
 * duplicates within the call), a pop, an extension, rollbacks, releases and commits of 11,000 members, each in
 * one call, against a real Redis.
 */
@RedisTest
class LargeScriptCallsIT {

    private static final int SLOT = 1;
    private static final int DISTINCT = 11_000;
    private static final TopicKeys TOPIC = new TopicKeys(new TopicDefinition("large", 2, TopicType.PRIORITY));
    private static final SlotKeys KEYS = TOPIC.slot(SLOT);

    @Test
    void callsOfTensOfThousandsOfArgumentsMoveEveryMember(RedisConnections redis) {
        RedisCommands<String, String> sync = redis.sync();
        ScriptRunner runner = new ScriptRunner(redis.binary().async());
        TopicScripts scripts = new TopicScripts(() -> runner, TOPIC);
        List<TopicScripts.Send> sends = new ArrayList<>();
        for (int i = 0; i < DISTINCT; i++) {
            sends.add(new TopicScripts.Send(Integer.toString(i % 7), member(i)));
        }
        for (int i = 0; i < 1_000; i++) {
            sends.add(new TopicScripts.Send("100", member(i))); // merged: the last priority stands
        }
        List<SendResult> sent = await(scripts.send(SLOT, sends));
        assertThat(sent).hasSize(DISTINCT + 1_000);
        assertThat(sent.subList(0, DISTINCT)).allSatisfy(r -> assertThat(r.stored()).isTrue());
        assertThat(sent.subList(DISTINCT, sent.size())).allSatisfy(r -> {
            assertThat(r.stored()).isFalse();
            assertThat(r.score()).isEqualTo(100.0);
        });
        assertThat(sync.zcard(KEYS.store())).isEqualTo(DISTINCT);
        assertThat(sync.hget(KEYS.counters(), "sent")).isEqualTo(Integer.toString(DISTINCT + 1_000));

        TopicScripts.PopReply popped = await(scripts.pop(SLOT, DISTINCT + 10, 60_000, 0, ""));
        assertThat(popped.members()).hasSize(DISTINCT);
        assertThat(popped.members().subList(0, 1_000)).allSatisfy(m -> assertThat(m.attempt()).isEqualTo(1));
        assertThat(sync.zcard(KEYS.store())).isZero();
        assertThat(sync.zcard(KEYS.prepare())).isEqualTo(DISTINCT);
        assertThat(sync.hlen(KEYS.origin())).isEqualTo(DISTINCT);

        List<byte[]> all = popped.members().stream().map(TopicScripts.PoppedMember::content).toList();
        assertThat(await(scripts.extend(SLOT, 120_000, all))).isEqualTo(DISTINCT);

        List<byte[]> failed = all.subList(0, 5_000);
        TopicScripts.RollbackReply rolledBack = await(scripts.rollback(SLOT, new TopicScripts.RetryRule(3, 0, 0), "boom",
                failed));
        assertThat(rolledBack.requeued()).isEqualTo(5_000);
        assertThat(await(scripts.release(SLOT, popped.members().subList(5_000, DISTINCT)))).isEqualTo(DISTINCT - 5_000);
        assertThat(sync.zcard(KEYS.prepare())).isZero();
        assertThat(sync.zcard(KEYS.store())).isEqualTo(DISTINCT);
        assertThat(sync.hlen(KEYS.attempts())).isEqualTo(5_000);
        assertThat(sync.hlen(KEYS.failures())).isEqualTo(5_000);

        TopicScripts.PopReply again = await(scripts.pop(SLOT, DISTINCT, 60_000, 0, ""));
        assertThat(again.members()).hasSize(DISTINCT);
        Set<String> retried = new HashSet<>();
        for (byte[] m : failed) {
            retried.add(new String(m, StandardCharsets.UTF_8));
        }
        assertThat(again.members()).allSatisfy(m -> assertThat(m.attempt())
                .isEqualTo(retried.contains(new String(m.content(), StandardCharsets.UTF_8)) ? 2 : 1));

        List<byte[]> toCommit = new ArrayList<>(again.members().stream().map(TopicScripts.PoppedMember::content).toList());
        toCommit.addAll(toCommit.subList(0, 100)); // given twice: removed once
        assertThat(await(scripts.commit(SLOT, toCommit))).isEqualTo(DISTINCT);
        assertThat(sync.zcard(KEYS.prepare())).isZero();
        assertThat(sync.hlen(KEYS.attempts())).isZero();
        assertThat(sync.hlen(KEYS.failures())).isZero();
        assertThat(sync.hlen(KEYS.origin())).isZero();
        assertThat(sync.hget(KEYS.counters(), "acked")).isEqualTo(Integer.toString(DISTINCT));

        // committed again (a commit kept through an outage, say): no member is in the prepare queue any more and
        // none failed before, so this takes the single-ZREM path, in chunks, and commits nothing
        assertThat(await(scripts.commit(SLOT, toCommit))).isZero();
        assertThat(sync.hget(KEYS.counters(), "acked")).isEqualTo(Integer.toString(DISTINCT));
    }

    private static byte[] member(int i) {
        return ("message-" + i).getBytes(StandardCharsets.UTF_8);
    }
}
