package io.rmq.benchmarks;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The window of a benchmark's sender: at most {@code size} messages sent and not yet answered. A sender that finds it
 * full waits until the answers have brought it down to three quarters, then fills it again, as a Reactive Streams
 * subscriber requests more in batches: it is woken once per quarter of a window, not once per answer. (A
 * {@link java.util.concurrent.Semaphore} of one permit per message woke the sender for nearly every answer: its
 * parking and unparking took half the JVM's CPU time in the connector's send phase, and 12 to 16 % sending and
 * consuming at once, on both sides.)
 *
 * <p>One thread acquires; any thread releases.
 */
final class SendWindow {

    private final int size;
    /** A waiting sender goes on once at most this many are unanswered. */
    private final int resume;
    private final AtomicInteger unanswered = new AtomicInteger();
    private volatile Thread waiter;

    SendWindow(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("a send window holds at least one message: " + size);
        }
        this.size = size;
        this.resume = size - Math.max(1, size / 4);
    }

    /** Takes room for {@code n} messages ({@code n <= size}), waiting while the window is full. */
    void acquire(int n) throws InterruptedException {
        if (!tryAcquire(n, Long.MAX_VALUE)) {
            throw new IllegalStateException("unreachable: an untimed wait ended without room");
        }
    }

    /**
     * Takes room for {@code n} messages, waiting at most {@code timeout} for the window to have it.
     *
     * @return whether it took the room
     */
    boolean tryAcquire(int n, long timeout, TimeUnit unit) throws InterruptedException {
        return tryAcquire(n, unit.toNanos(timeout));
    }

    private boolean tryAcquire(int n, long timeoutNanos) throws InterruptedException {
        if (n > size) {
            throw new IllegalArgumentException(n + " messages do not fit a window of " + size);
        }
        if (unanswered.get() + n > size) {
            long deadline = System.nanoTime() + timeoutNanos;
            waiter = Thread.currentThread();
            try {
                // set before the check: a release that brings it down after the check sees the waiter and unparks it
                while (unanswered.get() > Math.min(resume, size - n)) {
                    long left = timeoutNanos == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - System.nanoTime();
                    if (left <= 0) {
                        return false;
                    }
                    if (left == Long.MAX_VALUE) {
                        LockSupport.park(this);
                    } else {
                        LockSupport.parkNanos(this, left);
                    }
                    if (Thread.interrupted()) {
                        throw new InterruptedException();
                    }
                }
            } finally {
                waiter = null;
            }
        }
        unanswered.addAndGet(n);
        return true;
    }

    /** {@code n} messages answered. */
    void release(int n) {
        int left = unanswered.addAndGet(-n);
        if (left <= resume) {
            Thread w = waiter;
            if (w != null) {
                LockSupport.unpark(w);
            }
        }
    }

    /** How many messages are sent and not answered. */
    int unanswered() {
        return unanswered.get();
    }
}
