package io.rmq.engine.admin;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * How far a requeue or purge of dead messages has got, read while it runs and after it failed, and a way to
 * stop it: {@link #stop()} ends the operation after the script call under way (each call is atomic; what it
 * moved stays moved), and so does a {@linkplain #stopWhen condition} that says so when the operation consults it,
 * between its script calls. Thread-safe: the operation's thread adds and consults, any thread reads or stops.
 */
public final class AdminProgress {

    private final AtomicLong acted = new AtomicLong();
    private final List<BooleanSupplier> stopConditions = new CopyOnWriteArrayList<>();
    private volatile boolean stopped;

    /** How many messages the operation has requeued or purged so far. */
    public long acted() {
        return acted.get();
    }

    /** Asks the operation to stop after its current script call; it then returns what it moved. */
    public void stop() {
        stopped = true;
    }

    /** Whether {@link #stop()} was called, or a condition stopped the operation. */
    public boolean stopped() {
        return stopped;
    }

    /**
     * Adds a condition the operation consults before each of its script calls, on its own thread: once it answers
     * {@code true}, the operation stops as by {@link #stop()}. A condition that talks to Redis or a client should
     * do so at most now and then (it is consulted as often as every call).
     */
    public void stopWhen(BooleanSupplier condition) {
        stopConditions.add(condition);
    }

    /** Whether the operation should stop now: stopped, or one of its conditions says so (which stops it). */
    boolean shouldStop() {
        if (!stopped) {
            for (BooleanSupplier condition : stopConditions) {
                if (condition.getAsBoolean()) {
                    stop();
                    break;
                }
            }
        }
        return stopped;
    }

    void add(long n) {
        acted.addAndGet(n);
    }
}
