package io.rmq.engine.support;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Bounds how many calls a group of {@link SlotBatcher}s (the slots of one topic's producer) have under way at once.
 * A batcher that finds every place taken waits in line, gathering what is added meanwhile, and gets the place of the
 * next call that returns: under load, the slots take turns with calls that carry more items each, so Redis runs a
 * script's fixed part (its call, its reads of the slot's keys, its counters) for many items instead of a few. While
 * fewer calls than the bound are under way, a batcher sends at once, as without a gate.
 *
 * <p>Thread-safe.
 */
public final class CallGate {

    private int limit;
    private int underWay;
    private final ArrayDeque<SlotBatcher<?>> waiting = new ArrayDeque<>();

    /** @param limit the most calls under way at once, at least 1 */
    public CallGate(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("a call gate needs room for at least one call, not " + limit);
        }
        this.limit = limit;
    }

    /** Changes the bound: raised, it lets batchers waiting in line send at once. */
    public void limit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("a call gate needs room for at least one call, not " + limit);
        }
        List<SlotBatcher<?>> admitted = new ArrayList<>();
        synchronized (this) {
            this.limit = limit;
            while (underWay < limit && !waiting.isEmpty()) {
                underWay++;
                admitted.add(waiting.poll());
            }
        }
        admitted.forEach(SlotBatcher::admitted);
    }

    /** Takes a place for {@code batcher}'s call: {@code true}, or {@code false} when it waits in line for one. */
    synchronized boolean enter(SlotBatcher<?> batcher) {
        if (underWay < limit) {
            underWay++;
            return true;
        }
        waiting.add(batcher);
        return false;
    }

    /** A call returned: its place goes to the first batcher in line, which sends at once, or is freed. */
    void leave() {
        SlotBatcher<?> next;
        synchronized (this) {
            next = waiting.poll();
            if (next == null) {
                underWay--;
            }
        }
        if (next != null) {
            next.admitted();
        }
    }

    /** Calls under way (for tests and diagnostics). */
    public synchronized int underWay() {
        return underWay;
    }
}
