package io.rmq.engine.admin;

import java.util.concurrent.TimeUnit;

import io.rmq.engine.i18n.EngineExceptions;

/**
 * Keeps the requeues of one topic at or below a rate (a redrive velocity), all of them together: before each
 * batch an operation takes an allowance, waiting while the budget is spent, and gives back what its batch did
 * not use. The budget grows at the rate the taker gives, up to one second's worth; it starts full. So two
 * requeues of 100/s on one topic move 100 messages per second between them, not 200. Thread-safe: shared by
 * the operations on one topic; a waiting operation holds no lock.
 */
final class RatePacer {

    private long lastNanos = System.nanoTime();
    private double budget = -1; // full at the first taking

    /**
     * Takes an allowance of at least 1 and at most {@code max} messages at {@code perSecond}, after waiting as long
     * as the rate requires.
     *
     * @throws IllegalStateException when interrupted while waiting
     */
    int take(int perSecond, int max) {
        while (true) {
            long waitNanos;
            synchronized (this) {
                long now = System.nanoTime();
                budget = budget < 0 ? perSecond
                        : Math.min(perSecond, budget + (now - lastNanos) * (double) perSecond / TimeUnit.SECONDS.toNanos(1));
                lastNanos = now;
                if (budget >= 1) {
                    int taken = (int) Math.min(Math.floor(budget), max);
                    budget -= taken;
                    return taken;
                }
                waitNanos = (long) ((1 - budget) * TimeUnit.SECONDS.toNanos(1) / perSecond) + 1;
            }
            try {
                TimeUnit.NANOSECONDS.sleep(waitNanos); // pacing is the point: nothing to wait for but time
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw EngineExceptions.ex.requeuePacingInterrupted(e);
            }
        }
    }

    /** Gives back {@code n} messages of an allowance that a batch did not use. */
    synchronized void giveBack(long n) {
        budget += n;
    }
}
