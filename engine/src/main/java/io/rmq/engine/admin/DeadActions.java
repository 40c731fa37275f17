package io.rmq.engine.admin;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.lettuce.core.Range;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.topic.SlotKeys;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;

/**
 * Requeues, purges and counts of dead messages for {@link RmqAdmin}, in calls that each read at most
 * {@value #MAX_PER_CALL} members (listed ones, or a page of a dead queue that Java searches for a content) and
 * act on at most {@value #MAX_PER_CALL} messages, so Redis is never busy long with one, dry runs included. An
 * operation acts on what its selection held in each slot when it reached the slot: a
 * message it requeues that dies again meanwhile is not requeued again by it. Requeues of one topic share its
 * rate ({@link RatePacer}). Thread-safe.
 */
final class DeadActions {

    /** The most messages a requeue or purge moves, and the most listed members it reads, per script call. */
    static final int MAX_PER_CALL = 500;

    private final AdminCalls calls;
    private final ScriptRunner runner;
    private final RedisClusterAsyncCommands<byte[], byte[]> commands;
    /** The requeue rate of each topic, shared by the requeues under way on it. */
    private final Map<String, RatePacer> pacers = new ConcurrentHashMap<>();

    DeadActions(AdminCalls calls, ScriptRunner scripts, RedisClusterAsyncCommands<byte[], byte[]> commands) {
        this.calls = calls;
        this.runner = scripts;
        this.commands = commands;
    }

    private AdminScripts scripts(TopicDefinition topic) {
        return new AdminScripts(runner, new TopicKeys(topic));
    }

    /** How many dead messages the selection holds, in calls that each read at most {@value #MAX_PER_CALL} members. */
    long count(TopicDefinition topic, DeadSelection selection) {
        String operation = "Counting dead messages of topic '" + topic.name() + "'";
        AdminScripts scripts = scripts(topic);
        TopicKeys keys = new TopicKeys(topic);
        long count = 0;
        for (int slot = 0; slot < topic.slotAmount(); slot++) {
            if (selection instanceof DeadSelection.Members) {
                for (DeadSelection part : parts(selection)) {
                    count += calls.await(operation, scripts.actOnDead(slot, AdminScripts.DeadAction.COUNT, part, MAX_PER_CALL))
                            .acted();
                }
            } else {
                count += selected(operation, keys.slot(slot), selection);
            }
        }
        return count;
    }

    /** Requeues or purges the selection, at most {@code perSecond} ({@link Integer#MAX_VALUE}: unpaced); how many. */
    long act(TopicDefinition topic, DeadSelection selection, AdminScripts.DeadAction action, int perSecond,
            AdminProgress progress) {
        Batches batches = new Batches(scripts(topic), action, perSecond == Integer.MAX_VALUE ? null
                : pacers.computeIfAbsent(TopicKeys.registryKey(topic.keyPrefix()) + "\n" + topic.name(), t -> new RatePacer()),
                perSecond, progress, action + " of dead messages of topic '" + topic.name() + "'");
        TopicKeys keys = new TopicKeys(topic);
        for (int slot = 0; slot < topic.slotAmount(); slot++) {
            if (selection instanceof DeadSelection.ContentContains c) {
                actOnContent(batches, slot, keys.slot(slot), c);
                continue;
            }
            for (DeadSelection part : parts(selection)) {
                batches.act(slot, part, selected(batches.operation, keys.slot(slot), part));
            }
        }
        return progress.acted();
    }

    /**
     * A content selection: the slot's dead queue is read a page at a time and the matching members are acted on
     * by name, so that no call scans the whole queue. Only the members the queue held when the slot was reached
     * are read: a message that dies again meanwhile is stamped later, so it stands behind them.
     */
    private void actOnContent(Batches batches, int slot, SlotKeys keys, DeadSelection.ContentContains selection) {
        byte[] dead = bytes(keys.dead());
        byte[] text = bytes(selection.text());
        long unread = calls.await(batches.operation, commands.zcard(dead));
        long from = 0;
        while (unread > 0 && !batches.progress.shouldStop()) {
            List<byte[]> page = calls.await(batches.operation,
                    commands.zrange(dead, from, from + Math.min(MAX_PER_CALL, unread) - 1));
            if (page.isEmpty()) {
                return;
            }
            unread -= page.size();
            List<byte[]> matching = page.stream().filter(m -> contains(m, text)).toList();
            long acted = matching.isEmpty() ? 0 : batches.act(slot, DeadSelection.members(matching), matching.size());
            from += page.size() - acted; // those acted on left the queue before the next page
        }
    }

    /** How many of the slot's dead messages {@code part} selects now: the most an operation acts on there. */
    private long selected(String operation, SlotKeys slot, DeadSelection part) {
        byte[] dead = bytes(slot.dead());
        if (part instanceof DeadSelection.Members m) {
            return m.members().size();
        }
        if (part instanceof DeadSelection.DiedBefore b) {
            return calls.await(operation, commands.zcount(dead, Range.create(Double.NEGATIVE_INFINITY,
                    Math.nextDown((double) b.time().toEpochMilli()))));
        }
        if (part instanceof DeadSelection.ContentContains c) {
            byte[] text = bytes(c.text());
            long count = 0;
            for (long from = 0;; from += MAX_PER_CALL) {
                List<byte[]> page = calls.await(operation, commands.zrange(dead, from, from + MAX_PER_CALL - 1));
                count += page.stream().filter(m -> contains(m, text)).count();
                if (page.size() < MAX_PER_CALL) {
                    return count;
                }
            }
        }
        return calls.await(operation, commands.zcard(dead));
    }

    /** The script calls of one operation: paced, counted in its progress, stopped with it. Not thread-safe. */
    private final class Batches {

        final AdminScripts scripts;
        final AdminScripts.DeadAction action;
        final RatePacer pacer;
        final int perSecond;
        final AdminProgress progress;
        final String operation;

        Batches(AdminScripts scripts, AdminScripts.DeadAction action, RatePacer pacer, int perSecond, AdminProgress progress,
                String operation) {
            this.scripts = scripts;
            this.action = action;
            this.pacer = pacer;
            this.perSecond = perSecond;
            this.progress = progress;
            this.operation = operation;
        }

        /** Acts on at most {@code most} messages {@code part} selects in {@code slot}; how many it acted on. */
        long act(int slot, DeadSelection part, long most) {
            long total = 0;
            while (total < most && !progress.shouldStop()) {
                int want = (int) Math.min(MAX_PER_CALL, most - total);
                int limit = pacer == null ? want : pacer.take(perSecond, want);
                long acted = calls.await(operation, scripts.actOnDead(slot, action, part, limit)).acted();
                total += acted;
                progress.add(acted);
                if (pacer != null) {
                    pacer.giveBack(limit - acted);
                }
                if (acted < limit) {
                    break;
                }
            }
            return total;
        }
    }

    /** Whether {@code member} holds the bytes {@code text}, as Lua's plain {@code string.find} does. */
    static boolean contains(byte[] member, byte[] text) {
        outer:
        for (int i = 0; i + text.length <= member.length; i++) {
            for (int j = 0; j < text.length; j++) {
                if (member[i + j] != text[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A selection of many members as parts of at most {@link #MAX_PER_CALL}: one script call never reads more. */
    private static List<DeadSelection> parts(DeadSelection selection) {
        if (!(selection instanceof DeadSelection.Members m) || m.members().size() <= MAX_PER_CALL) {
            return List.of(selection);
        }
        List<DeadSelection> parts = new ArrayList<>();
        for (int from = 0; from < m.members().size(); from += MAX_PER_CALL) {
            parts.add(DeadSelection.members(m.members().subList(from, Math.min(from + MAX_PER_CALL, m.members().size()))));
        }
        return parts;
    }
}
