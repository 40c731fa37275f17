package io.rmq.engine.support;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * Bounds the script calls that a group of {@link SlotBatcher}s has under way together: a batcher whose slot has items
 * waiting takes a place before its call leaves, and gives it back when the call returns; without a free place it waits
 * in line, first come first served, and its items keep gathering meanwhile. Under load the calls then carry more items
 * each (each call's fixed cost in Redis is spread over more messages); a batcher alone, or a group with fewer calls
 * under way than places, waits for nothing.
 *
 * <p>A gate may bound only while a condition holds (asked before each call): a producer's gate bounds nothing on a
 * Redis Cluster, whose nodes work apart, and the producer learns the server's kind only once Redis is reached.
 *
 * <p>Thread-safe. The batchers in line are woken on the thread that freed a place, one after the other (never
 * recursively: a call that returns at once frees its place to the loop that woke it).
 */
public final class CallGate {

    private final AtomicInteger free;
    private final BooleanSupplier bounding;
    private final Queue<Runnable> line = new ConcurrentLinkedQueue<>();
    /** Wakers at work or owed: only one thread wakes the line at a time, and it goes round again for the others. */
    private final AtomicInteger waking = new AtomicInteger();

    /** @param places the most calls under way at once, at least 1 */
    public CallGate(int places) {
        this(places, () -> true);
    }

    /**
     * @param places   the most calls under way at once, at least 1
     * @param bounding whether the gate bounds the calls leaving now; while it says no, calls leave without a place
     */
    public CallGate(int places, BooleanSupplier bounding) {
        if (places < 1) {
            throw new IllegalArgumentException("a call gate needs at least one place, not " + places);
        }
        this.free = new AtomicInteger(places);
        this.bounding = bounding;
    }

    /** Whether a call leaving now needs a place. */
    boolean bounds() {
        return bounding.getAsBoolean();
    }

    /** Takes a place if one is free. */
    boolean tryEnter() {
        while (true) {
            int now = free.get();
            if (now == 0) {
                return false;
            }
            if (free.compareAndSet(now, now - 1)) {
                return true;
            }
        }
    }

    /**
     * Puts {@code retry} in line: it runs once a place is free (it then tries {@link #tryEnter()} itself). A place freed
     * between the caller's failed {@link #tryEnter()} and this call wakes the line at once, so no one waits for a
     * place that is free.
     */
    void waitInLine(Runnable retry) {
        line.add(retry);
        wake();
    }

    /** Gives a place back, and wakes the first in line. */
    void leave() {
        free.incrementAndGet();
        wake();
    }

    private void wake() {
        if (waking.getAndIncrement() != 0) {
            return;
        }
        int owed = 1;
        do {
            Runnable next;
            while (free.get() > 0 && (next = line.poll()) != null) {
                next.run();
            }
            owed = waking.addAndGet(-owed);
        } while (owed != 0);
    }
}
