package io.rmq.engine.admin;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.lettuce.core.Range;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.rmq.engine.SlotKeys;
import io.rmq.engine.TopicDefinition;
import io.rmq.engine.TopicKeys;

/**
 * Requeues, purges and counts of dead messages for {@link RmqAdmin}, in script calls that each read at most
 * {@value #MAX_PER_CALL} listed members and act on at most {@value #MAX_PER_CALL} messages, so Redis is never
 * busy long with one. An operation acts on what its selection held in each slot when it reached the slot: a
 * message it requeues that dies again meanwhile is not requeued again by it. Requeues of one topic share its
 * rate ({@link RatePacer}). Thread-safe.
 */
final class DeadActions {

    /** The most messages a requeue or purge moves, and the most listed members it reads, per script call. */
    static final int MAX_PER_CALL = 500;

    private final RmqAdmin admin;
    private final RedisClusterAsyncCommands<byte[], byte[]> commands;
    /** The requeue rate of each topic, shared by the requeues under way on it. */
    private final Map<String, RatePacer> pacers = new ConcurrentHashMap<>();

    DeadActions(RmqAdmin admin, RedisClusterAsyncCommands<byte[], byte[]> commands) {
        this.admin = admin;
        this.commands = commands;
    }

    /** How many dead messages the selection holds. */
    long count(TopicDefinition topic, DeadSelection selection) {
        long count = 0;
        AdminScripts scripts = admin.scripts(topic);
        for (int slot = 0; slot < topic.slotAmount(); slot++) {
            for (DeadSelection part : parts(selection)) {
                count += admin.await("Counting dead messages of topic '" + topic.name() + "'",
                        scripts.actOnDead(slot, AdminScripts.DeadAction.COUNT, part, Integer.MAX_VALUE)).acted();
            }
        }
        return count;
    }

    /** Requeues or purges the selection, at most {@code perSecond} ({@link Integer#MAX_VALUE}: unpaced); how many. */
    long act(TopicDefinition topic, DeadSelection selection, AdminScripts.DeadAction action, int perSecond,
            AdminProgress progress) {
        AdminScripts scripts = admin.scripts(topic);
        TopicKeys keys = new TopicKeys(topic);
        RatePacer pacer = perSecond == Integer.MAX_VALUE ? null
                : pacers.computeIfAbsent(TopicKeys.registryKey(topic.keyPrefix()) + "\n" + topic.name(), t -> new RatePacer());
        String operation = action + " of dead messages of topic '" + topic.name() + "'";
        long total = 0;
        for (int slot = 0; slot < topic.slotAmount(); slot++) {
            for (DeadSelection part : parts(selection)) {
                long remaining = selected(operation, keys.slot(slot), part, scripts, slot);
                while (remaining > 0 && !progress.stopped()) {
                    int most = (int) Math.min(MAX_PER_CALL, remaining);
                    int limit = pacer == null ? most : pacer.take(perSecond, most);
                    long acted = admin.await(operation, scripts.actOnDead(slot, action, part, limit)).acted();
                    total += acted;
                    remaining -= acted;
                    progress.add(acted);
                    if (pacer != null) {
                        pacer.giveBack(limit - acted);
                    }
                    if (acted < limit) {
                        break;
                    }
                }
            }
        }
        return total;
    }

    /** How many of the slot's dead messages {@code part} selects now: the most an operation acts on there. */
    private long selected(String operation, SlotKeys slot, DeadSelection part, AdminScripts scripts, int slotNumber) {
        byte[] dead = slot.dead().getBytes(StandardCharsets.UTF_8);
        if (part instanceof DeadSelection.Members m) {
            return m.members().size();
        }
        if (part instanceof DeadSelection.DiedBefore b) {
            return admin.await(operation, commands.zcount(dead, Range.create(Double.NEGATIVE_INFINITY,
                    Math.nextDown((double) b.time().toEpochMilli()))));
        }
        if (part instanceof DeadSelection.ContentContains) {
            return admin.await(operation, scripts.actOnDead(slotNumber, AdminScripts.DeadAction.COUNT, part,
                    Integer.MAX_VALUE)).acted();
        }
        return admin.await(operation, commands.zcard(dead));
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
