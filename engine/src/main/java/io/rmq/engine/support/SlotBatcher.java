package io.rmq.engine.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * Gathers the writes of one slot into script calls, one call under way at a time: an item is sent
 * at once when no call for the slot is under way, and otherwise joins the next call, which leaves as
 * soon as the current one returns. No timer: under load a call carries everything that arrived
 * during the previous round trip, and an isolated item waits for nothing. Items of a slot reach
 * Redis in the order they were added. Used for commits and for sends.
 *
 * <p>Thread-safe: {@link #add} may be called from any thread; calls complete on Lettuce's threads.
 *
 * @param <T> an item, e.g. a delivery to commit
 */
public final class SlotBatcher<T> {

    private final int maxPerCall;
    private final Function<List<T>, CompletionStage<?>> call;
    private final Queue<T> pending = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean sending = new AtomicBoolean();
    private volatile CompletableFuture<Void> idle = CompletableFuture.completedFuture(null);

    /**
     * @param maxPerCall the most items one call carries (bounds the script's run time)
     * @param call       sends a batch and settles its items, whatever the outcome; its stage only tells
     *                   when the next call may leave (a failure of it is ignored here)
     */
    public SlotBatcher(int maxPerCall, Function<List<T>, CompletionStage<?>> call) {
        this.maxPerCall = maxPerCall;
        this.call = call;
    }

    public void add(T item) {
        pending.add(item);
        trySend();
    }

    /**
     * Adds an item without sending it: it leaves with the next {@link #send()}, {@link #add}, or call
     * that returns, whichever comes first.
     */
    public void hold(T item) {
        pending.add(item);
    }

    /** Sends what is pending, at once when no call is under way, else when the call under way returns. */
    public void send() {
        trySend();
    }

    /** Completes when everything added so far has been sent and answered. */
    public CompletionStage<Void> flushed() {
        trySend();
        return pending.isEmpty() ? idle : idle.thenCompose(v -> flushed());
    }

    private void trySend() {
        if (pending.isEmpty() || !sending.compareAndSet(false, true)) {
            return;
        }
        List<T> batch = new ArrayList<>();
        T item;
        while (batch.size() < maxPerCall && (item = pending.poll()) != null) {
            batch.add(item);
        }
        if (batch.isEmpty()) {
            sending.set(false);
            trySend();
            return;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        idle = done;
        CompletionStage<?> reply;
        try {
            reply = call.apply(batch);
        } catch (RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        reply.whenComplete((r, f) -> {
            sending.set(false);
            done.complete(null);
            trySend();
        });
    }
}
