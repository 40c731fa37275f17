package io.rmq.engine.scripts;

/** What {@code tick.lua} did with a tick of a recurring schedule (its reply's first element, 1 to 7). */
public enum TickStatus {
    /** The tick's message was written (stored, or merged into the pending one). */
    SENT,
    /** A missed tick recorded without a message (policy SKIP). */
    SKIPPED,
    /** The tick was recorded before (by this or another instance): nothing was done. */
    ALREADY,
    /** The schedule is paused: nothing was recorded. */
    PAUSED,
    /** The schedule's state is gone: it was removed. */
    REMOVED,
    /** The tick is still in the future by the Redis clock; the detail says by how many ms. */
    EARLY,
    /** Ticks were missed while nothing ran the schedule: the one catch-up message was written (policy CATCH_UP). */
    CAUGHT_UP;

    static TickStatus of(long code) {
        return values()[(int) code - 1];
    }
}
