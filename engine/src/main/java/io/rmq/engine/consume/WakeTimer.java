package io.rmq.engine.consume;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The one timer of a consumer's loop: fires once at the earliest time it was armed for, on the
 * loop's executor. Arming it for a later time than the pending one changes nothing.
 *
 * <p>Confined to the consumer's loop thread.
 */
final class WakeTimer {

    private final ScheduledExecutorService loop;
    private final Runnable task;
    private ScheduledFuture<?> timer;
    private long at = Long.MAX_VALUE;

    WakeTimer(ScheduledExecutorService loop, Runnable task) {
        this.loop = loop;
        this.task = task;
    }

    /** Fires at {@code atNanos} ({@link System#nanoTime()}), unless it already fires no later. */
    void arm(long atNanos) {
        if (timer != null && !timer.isDone() && at - atNanos <= 0) {
            return;
        }
        cancel();
        at = atNanos;
        timer = loop.schedule(() -> {
            timer = null;
            at = Long.MAX_VALUE;
            task.run();
        }, Math.max(0, atNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    void cancel() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
