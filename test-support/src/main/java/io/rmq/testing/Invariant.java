package io.rmq.testing;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Shows that something does <em>not</em> happen, which takes letting time pass: checks a condition
 * throughout a window and fails at the first check where it does not hold.
 *
 * <p>Only for such assertions ("nothing is delivered before its due time", "nothing is popped while
 * ZooKeeper is down"). A test that waits for something to happen waits for the event itself instead: a
 * latch or future, Awaitility on a state, a log line ({@link LogRecorder}). Keep the window short, and
 * say in the test why it is long enough for the unwanted event to have shown.
 */
public final class Invariant {

    private static final long CHECK_EVERY_MS = 20;

    private Invariant() {
    }

    /**
     * Checks {@code condition} now, every {@value #CHECK_EVERY_MS} ms for {@code window}, and once more at
     * its end.
     *
     * @throws AssertionError at the first check where the condition does not hold
     */
    public static void holdsFor(Duration window, String what, BooleanSupplier condition) {
        long start = System.nanoTime();
        long end = start + window.toNanos();
        while (true) {
            boolean last = System.nanoTime() - end >= 0;
            if (!condition.getAsBoolean()) {
                throw new AssertionError("expected " + what + " throughout " + window.toMillis() + " ms, but it stopped"
                        + " holding after " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms");
            }
            if (last) {
                return;
            }
            try {
                TimeUnit.MILLISECONDS.sleep(Math.min(CHECK_EVERY_MS, Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()))));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while checking that " + what, e);
            }
        }
    }
}
