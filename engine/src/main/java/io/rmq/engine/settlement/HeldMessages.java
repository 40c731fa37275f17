package io.rmq.engine.settlement;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.redis.RmqClient;
import io.rmq.engine.scripts.TopicScripts;

/**
 * The messages one consumer holds in prepare queues (prefetched or delivered, not yet committed or
 * rolled back), and what keeps them there: their deadlines are extended while the consumer lives;
 * they leave by a commit, a rollback or a release.
 *
 * <p>It also counts the messages in the listener's hands, so that a stopping consumer learns from
 * {@link #noneDelivered()} the moment the last of them is settled.
 *
 * <p>Thread-safe: the set and the count are concurrent; calls to Redis complete on Lettuce's threads.
 */
public final class HeldMessages {

    private static final EngineLogging LOG = EngineLogging.log;

    private final TopicScripts scripts;
    private final SettlementPolicy policy;
    private final EngineEvents events;
    private final SettlementRetries retries;
    private final Set<Delivery> held = ConcurrentHashMap.newKeySet();
    private final AtomicInteger delivered = new AtomicInteger();
    private volatile CompletableFuture<Void> noneDelivered;

    public HeldMessages(TopicScripts scripts, SettlementPolicy policy, EngineEvents events, SettlementRetries retries) {
        this.scripts = scripts;
        this.policy = policy;
        this.events = events;
        this.retries = retries;
    }

    public void addAll(List<Delivery> deliveries) {
        held.addAll(deliveries);
    }

    /** One more message is in the listener's hands. */
    public void delivered() {
        delivered.incrementAndGet();
    }

    /** A message in the listener's hands was settled (committed or rolled back). */
    void deliveredSettled() {
        if (delivered.decrementAndGet() == 0) {
            CompletableFuture<Void> waiter = noneDelivered;
            if (waiter != null) {
                waiter.complete(null);
            }
        }
    }

    /** Completes once no message is in the listener's hands (at once when none is). */
    public CompletionStage<Void> noneDelivered() {
        CompletableFuture<Void> waiter = new CompletableFuture<>();
        noneDelivered = waiter;
        if (delivered.get() == 0) {
            waiter.complete(null);
        }
        return waiter;
    }

    /** The commit of these messages was answered (or failed: they are redelivered after their deadline). */
    void committed(List<Delivery> deliveries) {
        deliveries.forEach(held::remove);
    }

    /** Unfinished messages (prefetched or being processed). */
    public int count() {
        return (int) held.stream().filter(d -> !d.isFinished()).count();
    }

    public List<Delivery> unfinished() {
        return held.stream().filter(d -> !d.isFinished()).toList();
    }

    /**
     * Rolls back a finished-as-failed delivery (retry or dead queue); one that fails because Redis is unreachable
     * is kept and sent again once it answers ({@link SettlementRetries}).
     */
    CompletionStage<Void> rollback(Delivery d, Throwable reason) {
        String failureText = Delivery.failureText(reason);
        return scripts.rollback(d.slot(), policy.retryRule(), failureText, List.of(d.content()))
                .handle((result, failure) -> {
                    held.remove(d);
                    if (failure != null && retries.keepRollback(d.slot(), List.of(d.content()), failureText, failure)) {
                        return null;
                    }
                    if (failure != null) {
                        LOG.rollbackFailed(d, RmqClient.rootMessage(failure));
                    } else if (result.dead() > 0) {
                        LOG.movedToDeadQueue(d, scripts.keys().slot(d.slot()).dead(), String.valueOf(reason));
                        events.deadLettered(scripts.keys().topic(), result.dead());
                    }
                    return null;
                });
    }

    /** Returns unfinished messages of one slot to the store queue with no attempt counted. */
    public CompletionStage<Void> release(int slot, List<Delivery> deliveries) {
        List<Delivery> toRelease = new ArrayList<>();
        List<TopicScripts.PoppedMember> members = new ArrayList<>();
        for (Delivery d : deliveries) {
            if (d.finish() >= 0) {
                toRelease.add(d);
                members.add(d.member());
            }
        }
        if (toRelease.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return scripts.release(slot, members).handle((n, failure) -> {
            toRelease.forEach(held::remove);
            if (failure != null) {
                LOG.releaseFailed(toRelease.size(), slot, RmqClient.rootMessage(failure));
            }
            return null;
        });
    }

    public CompletionStage<Void> releaseAll(List<Delivery> deliveries) {
        return CompletableFuture.allOf(bySlot(deliveries).entrySet().stream()
                .map(e -> release(e.getKey(), e.getValue()).toCompletableFuture())
                .toArray(CompletableFuture[]::new));
    }

    /** Pushes back the deadlines of every unfinished message, so a slow but live consumer keeps them. */
    public void extendDeadlines() {
        if (held.isEmpty()) {
            return;
        }
        long timeout = policy.prepareTimeout().toMillis();
        bySlot(unfinished()).forEach((slot, list) -> scripts.extend(slot, timeout, list.stream().map(Delivery::content).toList())
                .exceptionally(f -> {
                    LOG.extendFailed(list.size(), slot, RmqClient.rootMessage(f));
                    return 0L;
                }));
    }

    private static Map<Integer, List<Delivery>> bySlot(List<Delivery> deliveries) {
        Map<Integer, List<Delivery>> bySlot = new HashMap<>();
        for (Delivery d : deliveries) {
            bySlot.computeIfAbsent(d.slot(), s -> new ArrayList<>()).add(d);
        }
        return bySlot;
    }
}
