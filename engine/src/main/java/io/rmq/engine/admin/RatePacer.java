package io.rmq.engine.admin;

import java.util.concurrent.TimeUnit;

import io.rmq.engine.i18n.EngineExceptions;

/**
 * Keeps a long-running operation at or below a rate (a redrive velocity): before each batch it says
 * how many messages may go now, waiting when the rate's budget is spent. Not thread-safe: one
 * operation, one pacer.
 */
final class RatePacer {

    private final int perSecond;
    private final long start = System.nanoTime();
    private long used;

    /** @param perSecond the most messages per second; {@link Integer#MAX_VALUE} for no limit */
    RatePacer(int perSecond) {
        this.perSecond = perSecond;
    }

    /** How many messages may go now (at least 1), after waiting as long as the rate requires. */
    int allowance() {
        if (perSecond == Integer.MAX_VALUE) {
            return Integer.MAX_VALUE;
        }
        while (true) {
            long elapsedNanos = System.nanoTime() - start;
            long budget = perSecond + elapsedNanos * perSecond / TimeUnit.SECONDS.toNanos(1) - used;
            if (budget >= 1) {
                return (int) Math.min(budget, perSecond);
            }
            long waitNanos = TimeUnit.SECONDS.toNanos(1) / perSecond;
            try {
                TimeUnit.NANOSECONDS.sleep(waitNanos); // pacing is the point: nothing to wait for but time
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw EngineExceptions.ex.requeuePacingInterrupted(e);
            }
        }
    }

    /** {@code n} messages went. */
    void used(long n) {
        used += n;
    }
}
