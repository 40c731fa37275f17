package io.rmq.engine.admin;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How far a requeue or purge of dead messages has got, read while it runs and after it failed, and a way to
 * stop it: {@link #stop()} ends the operation after the script call under way (each call is atomic; what it
 * moved stays moved). Thread-safe: the operation's thread adds, any thread reads or stops.
 */
public final class AdminProgress {

    private final AtomicLong acted = new AtomicLong();
    private volatile boolean stopped;

    /** How many messages the operation has requeued or purged so far. */
    public long acted() {
        return acted.get();
    }

    /** Asks the operation to stop after its current script call; it then returns what it moved. */
    public void stop() {
        stopped = true;
    }

    /** Whether {@link #stop()} was called. */
    public boolean stopped() {
        return stopped;
    }

    void add(long n) {
        acted.addAndGet(n);
    }
}
