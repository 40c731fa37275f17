package io.rmq.engine.support;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Gathers the writes of one slot into script calls, one call under way at a time: an item is sent
 * at once when no call for the slot is under way, and otherwise joins the next call, which leaves as
 * soon as the current one returns. No timer: under load a call carries everything that arrived
 * during the previous round trip, and an isolated item waits for nothing. Items of a slot reach
 * Redis in the order they were added. Used for commits and for sends.
 *
 * <p>With a {@link CallGate} shared by the batchers of a group (a producer's slots), a call also waits for a place in
 * the gate: under load the group's calls are fewer and larger.
 *
 * <p>Thread-safe: {@link #add} may be called from any thread; calls complete on Lettuce's threads.
 * A call whose stage is already complete when it returns (a failure raised at once, say) does not
 * deepen the stack: the next call leaves from the same loop.
 *
 * @param <T> an item, e.g. a delivery to commit
 */
public final class SlotBatcher<T> {

    /** Completes once {@code target} items have been answered. */
    private record Waiter(long target, CompletableFuture<Void> done) {
    }

    private final int maxPerCall;
    private final Function<List<T>, CompletionStage<?>> call;
    private final Queue<T> pending = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean sending = new AtomicBoolean();
    private final AtomicLong added = new AtomicLong();
    /** Items whose call has returned; written under {@link #waiters}' lock. */
    private long answered;
    private final PriorityQueue<Waiter> waiters = new PriorityQueue<>((a, b) -> Long.compare(a.target, b.target));
    /** Shared with other batchers, or {@code null}. */
    private final CallGate gate;
    /** Whether this batcher waits in the gate's line (once at most). */
    private final AtomicBoolean inLine = new AtomicBoolean();
    private final Runnable retry = () -> {
        inLine.set(false);
        trySend();
    };

    /**
     * @param maxPerCall the most items one call carries (bounds the script's run time)
     * @param call       sends a batch and settles its items, whatever the outcome; its stage only tells
     *                   when the next call may leave (a failure of it is ignored here)
     */
    public SlotBatcher(int maxPerCall, Function<List<T>, CompletionStage<?>> call) {
        this(maxPerCall, null, call);
    }

    /**
     * @param maxPerCall the most items one call carries (bounds the script's run time)
     * @param gate       shared with the other slots' batchers: bounds their calls under way together ({@code null}:
     *                   no bound but this slot's one call)
     * @param call       sends a batch and settles its items, whatever the outcome; its stage only tells
     *                   when the next call may leave (a failure of it is ignored here)
     */
    public SlotBatcher(int maxPerCall, CallGate gate, Function<List<T>, CompletionStage<?>> call) {
        this.maxPerCall = maxPerCall;
        this.gate = gate;
        this.call = call;
    }

    public void add(T item) {
        added.incrementAndGet();
        pending.add(item);
        trySend();
    }

    /**
     * Adds an item without sending it: it leaves with the next {@link #send()}, {@link #add}, or call
     * that returns, whichever comes first.
     */
    public void hold(T item) {
        added.incrementAndGet();
        pending.add(item);
    }

    /** Sends what is pending, at once when no call is under way, else when the call under way returns. */
    public void send() {
        trySend();
    }

    /** Completes when everything added so far has been sent and answered. */
    public CompletionStage<Void> flushed() {
        long target = added.get();
        CompletableFuture<Void> done = new CompletableFuture<>();
        boolean now;
        synchronized (waiters) {
            now = answered >= target;
            if (!now) {
                waiters.add(new Waiter(target, done));
            }
        }
        if (now) {
            done.complete(null);
        } else {
            trySend();
        }
        return done;
    }

    private void trySend() {
        while (!pending.isEmpty() && sending.compareAndSet(false, true)) {
            // whether this call takes a place: asked per call, since whether the gate bounds may change (it learns the
            // server's kind once Redis is reached)
            boolean gated = gate != null && gate.bounds();
            if (gated && !gate.tryEnter()) {
                // the group's calls under way fill the gate: the items gather until a place frees
                sending.set(false);
                if (inLine.compareAndSet(false, true)) {
                    gate.waitInLine(retry);
                }
                return;
            }
            List<T> batch = new ArrayList<>(Math.min(maxPerCall, 16));
            T item;
            while (batch.size() < maxPerCall && (item = pending.poll()) != null) {
                batch.add(item);
            }
            if (batch.isEmpty()) {
                sending.set(false);
                leaveGate(gated);
                continue;
            }
            CompletableFuture<?> reply;
            try {
                reply = call.apply(batch).toCompletableFuture();
            } catch (RuntimeException e) {
                reply = CompletableFuture.failedFuture(e);
            }
            int size = batch.size();
            if (reply.isDone()) {
                answered(size);
                leaveGate(gated);
                continue;
            }
            reply.whenComplete((r, f) -> {
                answered(size);
                leaveGate(gated);
                trySend();
            });
            return;
        }
    }

    private void leaveGate(boolean gated) {
        if (gated) {
            gate.leave();
        }
    }

    /** Counts a call's items as answered, wakes the waiters they satisfy, and lets the next call leave. */
    private void answered(int size) {
        List<CompletableFuture<Void>> ready = null;
        synchronized (waiters) {
            answered += size;
            while (!waiters.isEmpty() && waiters.peek().target <= answered) {
                if (ready == null) {
                    ready = new ArrayList<>();
                }
                ready.add(waiters.poll().done);
            }
        }
        sending.set(false);
        if (ready != null) {
            ready.forEach(done -> done.complete(null));
        }
    }
}
