package io.rmq.engine.settlement;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The messages one consumer holds in prepare queues (prefetched or delivered, not yet committed or
 * rolled back); they leave by a commit, a rollback or a release, all made by {@link Settlement}.
 *
 * <p>It also counts the messages in the listener's hands, so that a stopping consumer learns from
 * {@link #noneDelivered()} the moment the last of them is settled.
 *
 * <p>Thread-safe: the set and the count are concurrent.
 */
public final class HeldMessages {

    private final Set<Delivery> held = ConcurrentHashMap.newKeySet();
    private final AtomicInteger delivered = new AtomicInteger();
    private volatile CompletableFuture<Void> noneDelivered;

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

    /** Unfinished messages (prefetched or being processed). */
    public int count() {
        return (int) held.stream().filter(d -> !d.isFinished()).count();
    }

    public List<Delivery> unfinished() {
        return held.stream().filter(d -> !d.isFinished()).toList();
    }

    /** These messages left their prepare queue (committed, rolled back or released), or were answered for. */
    void removeAll(List<Delivery> deliveries) {
        deliveries.forEach(held::remove);
    }

    /** Whether no message is held. */
    boolean isEmpty() {
        return held.isEmpty();
    }
}
