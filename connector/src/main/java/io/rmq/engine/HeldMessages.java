package io.rmq.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * The messages a consumer holds in prepare queues (prefetched or delivered, not yet committed or
 * rolled back), and the upkeep of those queues: deadlines of held messages are extended while the
 * consumer lives, messages are rolled back or released, and expired messages that others left
 * behind are swept.
 *
 * <p>Thread-safe: the set is concurrent; calls to Redis complete on Lettuce's threads.
 */
final class HeldMessages {

    private static final Logger LOG = Logger.getLogger(HeldMessages.class.getName());

    private final RmqEngine client;
    private final TopicKeys keys;
    private final SlotPopper popper;
    private final Set<Delivery> held = ConcurrentHashMap.newKeySet();

    HeldMessages(RmqEngine client, TopicKeys keys, SlotPopper popper) {
        this.client = client;
        this.keys = keys;
        this.popper = popper;
    }

    void addAll(List<Delivery> deliveries) {
        held.addAll(deliveries);
    }

    /** The commit of these messages was answered (or failed: they are redelivered after their deadline). */
    void committed(List<Delivery> deliveries) {
        held.removeAll(deliveries);
    }

    /** Unfinished messages (prefetched or being processed). */
    int count() {
        return (int) held.stream().filter(d -> !d.isFinished()).count();
    }

    /** Whether the listener is still processing any message. */
    boolean anyDelivered() {
        return held.stream().anyMatch(Delivery::isDelivered);
    }

    List<Delivery> unfinished() {
        return held.stream().filter(d -> !d.isFinished()).toList();
    }

    /** Rolls back a finished-as-failed delivery (retry or dead queue). */
    CompletionStage<Void> rollback(Delivery d, Throwable reason) {
        return popper.rollback(d.slot(), List.of(d)).handle((result, failure) -> {
            held.remove(d);
            if (failure != null) {
                LOG.warning("RMQ-0104 Rolling back " + d + " failed; it stays in the prepare queue and is rolled back"
                        + " after its deadline: " + RmqEngine.rootMessage(failure));
            } else if (result.dead() > 0) {
                LOG.warning("RMQ-0105 " + d + " failed on its last allowed delivery and moved to the dead queue "
                        + keys.slot(d.slot()).dead() + ": " + reason);
            }
            return null;
        });
    }

    /** Returns unfinished messages of one slot to the store queue with no attempt counted. */
    CompletionStage<Void> release(int slot, List<Delivery> deliveries) {
        List<Delivery> toRelease = new ArrayList<>();
        for (Delivery d : deliveries) {
            if (d.finish() >= 0) {
                toRelease.add(d);
            }
        }
        if (toRelease.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return popper.release(slot, toRelease).handle((n, failure) -> {
            held.removeAll(toRelease);
            if (failure != null) {
                LOG.warning("RMQ-0107 Releasing " + toRelease.size() + " undelivered message(s) of slot " + slot
                        + " failed; they are rolled back after their deadline: " + RmqEngine.rootMessage(failure));
            }
            return null;
        });
    }

    CompletionStage<Void> releaseAll(List<Delivery> deliveries) {
        return CompletableFuture.allOf(bySlot(deliveries).entrySet().stream()
                .map(e -> release(e.getKey(), e.getValue()).toCompletableFuture())
                .toArray(CompletableFuture[]::new));
    }

    /** Pushes back the deadlines of every unfinished message, so a slow but live consumer keeps them. */
    void extendDeadlines() {
        if (held.isEmpty() || !client.isConnected()) {
            return;
        }
        bySlot(unfinished()).forEach((slot, list) -> popper.extend(slot, list).exceptionally(f -> {
            LOG.warning("RMQ-0108 Extending the deadlines of " + list.size() + " message(s) of slot " + slot
                    + " failed: " + RmqEngine.rootMessage(f));
            return 0L;
        }));
    }

    /** Rolls back the messages of these slots whose deadline has passed (their consumer is gone). */
    void sweepExpired(int[] slots) {
        if (!client.isConnected()) {
            return;
        }
        for (int slot : slots) {
            popper.sweep(slot).whenComplete((r, f) -> {
                if (f != null) {
                    LOG.fine("Sweeping slot " + slot + " failed: " + f);
                } else if (r.total() > 0) {
                    LOG.info("RMQ-0109 Rolled back " + r.total() + " message(s) of slot " + slot + " of topic '"
                            + keys.topic().name() + "' whose prepare deadline had passed (" + r.requeued()
                            + " requeued, " + r.merged() + " merged, " + r.dead() + " to the dead queue)");
                }
            });
        }
    }

    private static Map<Integer, List<Delivery>> bySlot(List<Delivery> deliveries) {
        Map<Integer, List<Delivery>> bySlot = new HashMap<>();
        for (Delivery d : deliveries) {
            bySlot.computeIfAbsent(d.slot(), s -> new ArrayList<>()).add(d);
        }
        return bySlot;
    }
}
