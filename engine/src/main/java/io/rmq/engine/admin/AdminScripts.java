package io.rmq.engine.admin;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletionStage;

import io.rmq.engine.redis.RedisScript;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.topic.SlotKeys;
import io.rmq.engine.topic.TenantName;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;

/**
 * The typed gateway to the admin scripts of one topic: one method per {@code .lua} file, building
 * KEYS and ARGV as each header documents them. Stateless; thread-safe.
 */
final class AdminScripts {

    /** What {@code act_on_dead.lua} does with the selection. */
    enum DeadAction {
        REQUEUE, PURGE, COUNT;

        byte[] arg() {
            return bytes(name().toLowerCase(Locale.ROOT));
        }
    }

    /** What {@code act_on_dead.lua} did: members acted on, and of those requeued, how many merged. */
    record DeadActed(long acted, long merged) {
    }

    private final ScriptRunner scripts;
    private final TopicKeys keys;
    private final byte[] type;

    AdminScripts(ScriptRunner scripts, TopicKeys keys) {
        this.scripts = scripts;
        this.keys = keys;
        this.type = bytes(keys.topic().type().name());
    }

    /** {@code stats.lua}. */
    CompletionStage<List<Object>> stats(int slot) {
        SlotKeys k = keys.slot(slot);
        return scripts.run(RedisScript.STATS, keys(k.store(), k.prepare(), k.dead(), k.owner(), k.paused(),
                k.counters(), k.tenants()), type);
    }

    /** {@code dead_page.lua}. */
    CompletionStage<List<Object>> deadPage(int slot, long offset, int count) {
        SlotKeys k = keys.slot(slot);
        return scripts.run(RedisScript.DEAD_PAGE, keys(k.dead(), k.failures()), number(offset), number(count));
    }

    /** {@code act_on_dead.lua}. */
    CompletionStage<DeadActed> actOnDead(int slot, DeadAction action, DeadSelection selection, int limit) {
        SlotKeys k = keys.slot(slot);
        List<byte[]> args = new ArrayList<>(List.of(action.arg(), type, wakeChannel(slot), number(slot), number(limit)));
        if (selection instanceof DeadSelection.Members m) {
            args.addAll(List.of(bytes("members"), new byte[0]));
            args.addAll(m.members());
        } else if (selection instanceof DeadSelection.DiedBefore b) {
            args.addAll(List.of(bytes("before"), number(b.time().toEpochMilli())));
        } else if (selection instanceof DeadSelection.ContentContains c) {
            args.addAll(List.of(bytes("contains"), bytes(c.text())));
        } else {
            args.addAll(List.of(bytes("all"), new byte[0]));
        }
        // PRIORITY: a purge also forgets send times of priority aging that no consumer removed (act_on_dead.lua)
        byte[][] deadKeys = keys.topic().type() == TopicType.PRIORITY && action == DeadAction.PURGE
                ? keys(k.store(), k.dead(), k.attempts(), k.failures(), k.counters(), k.since())
                : keys(k.store(), k.dead(), k.attempts(), k.failures(), k.counters());
        return scripts.<List<Object>>run(RedisScript.ACT_ON_DEAD, deadKeys,
                args.toArray(byte[][]::new))
                .thenApply(r -> new DeadActed((Long) r.get(0), (Long) r.get(1)));
    }

    /** {@code cancel.lua}, without following a growth: 1 when the message was pending and is removed. */
    CompletionStage<Long> removePending(int slot, byte[] member, String tenant) {
        SlotKeys k = keys.slot(slot);
        return scripts.<List<Object>>run(RedisScript.CANCEL,
                keys(k.tenantQueue(TenantName.encode(tenant)), k.prepare(), k.dead(), k.attempts(), k.failures(), k.expiry(),
                        k.counters(), k.trace(), k.flowKeys(), k.parkedKeys()), member)
                .thenApply(reply -> (Long) reply.get(0));
    }

    /** {@code due_now.lua}: 1 when the message was pending. */
    CompletionStage<Long> dueNow(int slot, byte[] member) {
        SlotKeys k = keys.slot(slot);
        return scripts.run(RedisScript.DUE_NOW, keys(k.store(), k.flowKeys(), k.parkedKeys()), type, member,
                wakeChannel(slot), number(slot));
    }

    /**
     * {@code flow_set.lua} in live mode: each of {@code fields} of the topic's flow hash becomes its value ({@code ""}:
     * removed); replies the generation after the change.
     */
    CompletionStage<Long> flowSet(Map<String, String> fields) {
        List<byte[]> args = new ArrayList<>(List.of(bytes("live")));
        fields.forEach((field, value) -> {
            args.add(bytes(field));
            args.add(bytes(value));
        });
        return scripts.<List<Object>>run(RedisScript.FLOW_SET, keys(keys.flow()), args.toArray(byte[][]::new))
                .thenApply(reply -> (Long) reply.get(1));
    }

    /** {@code pause.lua}: 1 when the state changed. */
    CompletionStage<Long> pause(int slot, boolean paused) {
        return scripts.run(RedisScript.PAUSE, keys(keys.slot(slot).paused()), bytes(paused ? "1" : "0"), wakeChannel(slot),
                number(slot));
    }

    /**
     * {@code grow_topic.lua}: {@code action} read, begin or finish for a doubling from {@code amount}; replies
     * the recorded definition (or {@code null}) and the target amount of a growth under way (or {@code null}).
     */
    CompletionStage<List<Object>> growTopic(String action, int amount) {
        String prefix = keys.topic().keyPrefix();
        return scripts.run(RedisScript.GROW_TOPIC, keys(TopicKeys.registryKey(prefix), TopicKeys.growthKey(prefix)),
                bytes(keys.topic().name()), bytes(action), number(amount));
    }

    /** {@code split_slot.lua}: { split now (1) or before (0), members held }. */
    CompletionStage<List<Object>> splitSlot(int slot, int target) {
        SlotKeys k = keys.slot(slot);
        return scripts.run(RedisScript.SPLIT_SLOT, keys(k.store(), k.prepare(), keys.splitMarker(slot, target),
                keys.presplit(slot, target), k.tenants(), k.parkedKeys()), number(target));
    }

    /** {@code split_progress.lua}: { members still held, next offset }, or { -1, 0 } when the split was lost. */
    CompletionStage<List<Object>> splitProgress(int slot, int target, long offset, int limit) {
        SlotKeys k = keys.slot(slot);
        return scripts.run(RedisScript.SPLIT_PROGRESS, keys(k.store(), k.prepare(), keys.presplit(slot, target),
                keys.splitMarker(slot, target), k.tenants(), k.flowKeys(), k.parkedKeys()),
                number(offset), number(limit));
    }

    /** {@code growth_hold.lua} on new slot {@code slot}: 1 when the state changed. */
    CompletionStage<Long> growthHold(int slot, int target, boolean hold) {
        return scripts.run(RedisScript.GROWTH_HOLD, keys(keys.slot(slot).paused()), bytes(hold ? "1" : "0"),
                bytes("growth:" + target), wakeChannel(slot), number(slot));
    }

    /** The slot's wake channel: sharded per slot on a Redis Cluster. */
    byte[] wakeChannel(int slot) {
        return bytes(scripts.shardedWakeChannels() ? keys.shardedWakeChannel(slot) : keys.wakeChannel());
    }

    private static byte[][] keys(String... names) {
        byte[][] out = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            out[i] = bytes(names[i]);
        }
        return out;
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] number(long n) {
        return Long.toString(n).getBytes(StandardCharsets.US_ASCII);
    }
}
