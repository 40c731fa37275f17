package io.rmq.engine;

import java.time.Duration;
import java.util.Arrays;

/**
 * Decides when each assigned slot of a consumer is popped next: at once after a full batch, at the
 * earliest due time the pop script reported, on a wake notice, and otherwise after the safety poll
 * interval. Slots are served round-robin. Times are {@link System#nanoTime()} values.
 *
 * <p>Confined to the consumer's loop thread, except {@link #assignedSlots()}, which returns a snapshot.
 */
final class SlotScheduler {

    private static final long RETRY_AFTER_FAILURE_NANOS = Duration.ofSeconds(1).toNanos();

    private final long pollNanos;
    private final long[] dueAt;
    private final boolean[] assigned;
    private final boolean[] popping;
    /** A wake notice that arrived while the slot was being popped: applied when the pop returns. */
    private final long[] wokenAt;
    private final boolean[] woken;
    private volatile int[] assignedSlots;
    private int poppingCount;
    private int next;

    SlotScheduler(int slotAmount, Duration pollInterval) {
        this.pollNanos = pollInterval.toNanos();
        this.dueAt = new long[slotAmount];
        this.assigned = new boolean[slotAmount];
        this.popping = new boolean[slotAmount];
        this.wokenAt = new long[slotAmount];
        this.woken = new boolean[slotAmount];
        int[] all = new int[slotAmount];
        for (int i = 0; i < slotAmount; i++) {
            all[i] = i;
        }
        assign(all);
    }

    void assign(int[] slots) {
        long now = System.nanoTime();
        boolean[] wanted = new boolean[assigned.length];
        for (int s : slots) {
            wanted[s] = true;
        }
        for (int s = 0; s < assigned.length; s++) {
            if (wanted[s] && !assigned[s]) {
                dueAt[s] = now;
            }
            assigned[s] = wanted[s];
        }
        int[] copy = slots.clone();
        Arrays.sort(copy);
        assignedSlots = copy;
    }

    int[] assignedSlots() {
        return assignedSlots;
    }

    /** Members requested by pops under way. */
    int popping() {
        return poppingCount;
    }

    /** The next assigned slot that is due and not being popped, or -1. */
    int nextDueSlot(long now) {
        int n = dueAt.length;
        for (int i = 0; i < n; i++) {
            int s = (next + i) % n;
            if (assigned[s] && !popping[s] && dueAt[s] - now <= 0) {
                next = (s + 1) % n;
                return s;
            }
        }
        return -1;
    }

    /** The earliest due time of an assigned slot that is not being popped, or {@code Long.MAX_VALUE}. */
    long earliestDue() {
        long earliest = 0;
        boolean any = false;
        for (int s = 0; s < dueAt.length; s++) {
            if (assigned[s] && !popping[s] && (!any || dueAt[s] - earliest < 0)) {
                earliest = dueAt[s];
                any = true;
            }
        }
        return any ? earliest : Long.MAX_VALUE;
    }

    void popStarted(int slot, int count) {
        popping[slot] = true;
        poppingCount += count;
    }

    /**
     * @param nextDelayMillis from the pop script: 0 = more may be due, > 0 = ms until the next member
     *                        is due, -1 = nothing waits
     */
    void popDone(int slot, int count, long nextDelayMillis, long now) {
        popping[slot] = false;
        poppingCount -= count;
        if (nextDelayMillis == 0) {
            dueAt[slot] = now;
        } else if (nextDelayMillis > 0) {
            dueAt[slot] = now + Math.min(Duration.ofMillis(nextDelayMillis).toNanos(), pollNanos);
        } else {
            dueAt[slot] = now + pollNanos;
        }
        applyWake(slot);
    }

    private void applyWake(int slot) {
        if (woken[slot]) {
            woken[slot] = false;
            if (wokenAt[slot] - dueAt[slot] < 0) {
                dueAt[slot] = wokenAt[slot];
            }
        }
    }

    void popFailed(int slot, int count, long now) {
        popping[slot] = false;
        poppingCount -= count;
        dueAt[slot] = now + RETRY_AFTER_FAILURE_NANOS;
        woken[slot] = false;
    }

    void wake(int slot, long delayMillis) {
        if (slot < 0 || slot >= dueAt.length || !assigned[slot]) {
            return;
        }
        long at = System.nanoTime() + Duration.ofMillis(Math.max(0, delayMillis)).toNanos();
        if (popping[slot]) {
            // The pop under way may have run before the write that sent this notice.
            if (!woken[slot] || at - wokenAt[slot] < 0) {
                wokenAt[slot] = at;
                woken[slot] = true;
            }
        } else if (at - dueAt[slot] < 0) {
            dueAt[slot] = at;
        }
    }

    void wakeAll() {
        long now = System.nanoTime();
        Arrays.fill(dueAt, now);
    }
}
