package io.rmq.engine.consume;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * Decides when each assigned slot of a consumer is popped next: at once after a full batch, at the
 * earliest due time the pop script reported, on a wake notice, and otherwise after the safety poll
 * interval. Slots are served round-robin, from a slot given at construction: consumers of one topic that start
 * at different slots do not pop the same slot at the same moment (where all but one would find nothing) when many
 * slots fall due together. Times are {@link System#nanoTime()} values.
 *
 * <p>A slot whose last pop took every due member (fewer than asked) and reported members due later is
 * <em>sparse</em> (a scheduled slot between due times): its next pop asks for {@link #popCount about twice what it
 * found} (at least {@value #SPARSE_POP_MIN}) instead of all the room in the prefetch, so that when many such slots
 * fall due at once, several are popped concurrently instead of one after another (each pop reserves the room it
 * asks for). A pop that fills its count, or finds nothing waiting later, makes the slot dense again: a backlog's pops
 * are full or empty it, so its pops stay as large as the room (sizing down every drained slot split a backlog's
 * commits: Redis commands per consumed message rose from 0.15 to 0.19-0.30 with four consumers). A wake notice
 * for a member due later (a delay above 0: the slot held nothing due sooner) makes a dense slot sparse too: the
 * slot is a scheduled one whose first due time has not come, and its first pop then asks for
 * {@value #SPARSE_POP_MIN}; if it fills them, the slot is dense again from the next pop on.
 *
 * <p>A slot whose last pop found nothing waiting at all is <em>parked</em>: its safety poll is not a pop
 * but part of one {@code EXISTS} over the store queues of all parked slots that are due
 * ({@link #parkedDue}); only when that finds a member are they popped again ({@link #checkDone}). A
 * wake notice, a reconnection, a resume or a new assignment unparks a slot at once.
 *
 * <p>With coordination, each assigned slot carries the epoch it is owned under; a slot newly
 * assigned (or under a new epoch) is first claimed (a pop of 0 members), and nothing is popped while
 * the consumer is paused (its ZooKeeper connection is suspended). Without coordination every slot is
 * assigned with epoch 0 and counts as claimed.
 *
 * <p>Confined to the consumer's loop thread, except {@link #assignedSlots()}, which returns a snapshot.
 */
final class SlotScheduler {

    private static final long RETRY_AFTER_FAILURE_NANOS = Duration.ofSeconds(1).toNanos();
    /** The fewest members a pop of a sparse slot asks for. */
    static final int SPARSE_POP_MIN = 16;

    private final long pollNanos;
    private long[] dueAt;
    private boolean[] assigned;
    private boolean[] popping;
    /** A wake notice that arrived while the slot was being popped: applied when the pop returns. */
    private long[] wokenAt;
    private boolean[] woken;
    private long[] epochs;
    private boolean[] claimed;
    /** The slot's last pop found nothing waiting: its safety poll is an existence check (see the class comment). */
    private boolean[] parked;
    /**
     * The slot's due time is its safety poll (a parked slot's check included) or a retry, not the due time of a member
     * its last pop or a wake notice reported.
     */
    private boolean[] polled;
    /**
     * Members the slot's last pop found when it took every due one and more were due later (0 for none); -1 when it
     * filled its count or nothing waited later.
     */
    private int[] sparse;
    private volatile int[] assignedSlots;
    private boolean paused;
    /** No unclaimed slot below this one: claims are found in one pass even over thousands of slots. */
    private int claimScanFrom;
    private int poppingCount;
    private int next;

    /** @param allSlots whether every slot starts assigned (no coordination) or none does */
    SlotScheduler(int slotAmount, Duration pollInterval, boolean allSlots) {
        this(slotAmount, pollInterval, allSlots, 0);
    }

    /**
     * @param allSlots  whether every slot starts assigned (no coordination) or none does
     * @param firstSlot where the round-robin starts (taken modulo the slot amount)
     */
    SlotScheduler(int slotAmount, Duration pollInterval, boolean allSlots, int firstSlot) {
        this.pollNanos = pollInterval.toNanos();
        this.next = slotAmount == 0 ? 0 : Math.floorMod(firstSlot, slotAmount);
        this.dueAt = new long[slotAmount];
        this.assigned = new boolean[slotAmount];
        this.popping = new boolean[slotAmount];
        this.wokenAt = new long[slotAmount];
        this.woken = new boolean[slotAmount];
        this.epochs = new long[slotAmount];
        this.claimed = new boolean[slotAmount];
        this.parked = new boolean[slotAmount];
        this.polled = new boolean[slotAmount];
        this.sparse = new int[slotAmount];
        Arrays.fill(sparse, -1);
        int[] all = new int[allSlots ? slotAmount : 0];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        assign(all);
    }

    /** The slots this scheduler can assign: the topic's amount, or what it grew to ({@link #grow}). */
    int slotAmount() {
        return dueAt.length;
    }

    /**
     * The topic grew to {@code slotAmount} slots: the new ones can be assigned, and without coordination
     * ({@code assignAll}) are assigned at once, due now.
     */
    void grow(int slotAmount, boolean assignAll) {
        if (slotAmount <= dueAt.length) {
            return;
        }
        int from = dueAt.length;
        dueAt = Arrays.copyOf(dueAt, slotAmount);
        wokenAt = Arrays.copyOf(wokenAt, slotAmount);
        epochs = Arrays.copyOf(epochs, slotAmount);
        assigned = Arrays.copyOf(assigned, slotAmount);
        popping = Arrays.copyOf(popping, slotAmount);
        woken = Arrays.copyOf(woken, slotAmount);
        claimed = Arrays.copyOf(claimed, slotAmount);
        parked = Arrays.copyOf(parked, slotAmount);
        polled = Arrays.copyOf(polled, slotAmount);
        sparse = Arrays.copyOf(sparse, slotAmount);
        Arrays.fill(sparse, from, slotAmount, -1);
        if (assignAll && assignedSlots.length == from) {
            int[] all = new int[slotAmount];
            for (int i = 0; i < slotAmount; i++) {
                all[i] = i;
            }
            assign(all);
        } else {
            claimScanFrom = Math.min(claimScanFrom, from);
        }
    }

    /** Assigns exactly these slots, without coordination (epoch 0). */
    void assign(int[] slots) {
        TreeMap<Integer, Long> epochless = new TreeMap<>();
        for (int s : slots) {
            epochless.put(s, 0L);
        }
        assign(epochless);
    }

    /** Assigns exactly these slots, each owned under its epoch (0: no coordination, nothing to claim). */
    void assign(Map<Integer, Long> slotEpochs) {
        long now = System.nanoTime();
        boolean[] wanted = new boolean[assigned.length];
        slotEpochs.keySet().forEach(s -> wanted[s] = true);
        for (int s = 0; s < assigned.length; s++) {
            long epoch = wanted[s] ? slotEpochs.get(s) : 0;
            if (wanted[s] && (!assigned[s] || epochs[s] != epoch)) {
                dueAt[s] = now;
                claimed[s] = epoch == 0;
                parked[s] = false;
            }
            assigned[s] = wanted[s];
            epochs[s] = epoch;
        }
        claimScanFrom = 0;
        int[] copy = slotEpochs.keySet().stream().mapToInt(Integer::intValue).toArray();
        Arrays.sort(copy);
        assignedSlots = copy;
    }

    /** Stops assigning one slot (it was found owned under a newer epoch). */
    void unassign(int slot) {
        if (!assigned[slot]) {
            return;
        }
        assigned[slot] = false;
        epochs[slot] = 0;
        parked[slot] = false;
        assignedSlots = Arrays.stream(assignedSlots).filter(s -> s != slot).toArray();
    }

    int[] assignedSlots() {
        return assignedSlots;
    }

    boolean isAssigned(int slot) {
        return assigned[slot];
    }

    /** The epoch the slot is owned under, 0 without coordination or when it is not assigned. */
    long epoch(int slot) {
        return epochs[slot];
    }

    /** Pauses or resumes popping (and claiming) altogether. */
    void pause(boolean pause) {
        if (paused && !pause) {
            Arrays.fill(dueAt, System.nanoTime());
            Arrays.fill(parked, false);
            claimScanFrom = 0;
        }
        paused = pause;
    }

    boolean isPaused() {
        return paused;
    }

    /** An assigned slot that still has to be claimed under its epoch and is not being popped, or -1. */
    int nextUnclaimedSlot() {
        if (paused) {
            return -1;
        }
        for (int s = claimScanFrom; s < assigned.length; s++) {
            if (assigned[s] && !claimed[s] && !popping[s]) {
                claimScanFrom = s + 1;
                return s;
            }
        }
        claimScanFrom = assigned.length;
        return -1;
    }

    /** The pop script accepted the slot's epoch (POPPED or HANDOVER). */
    void claimed(int slot, long epoch) {
        if (assigned[slot] && epochs[slot] == epoch) {
            claimed[slot] = true;
        }
    }

    /** Members requested by pops under way. */
    int popping() {
        return poppingCount;
    }

    /**
     * How many members to ask of {@code slot} with {@code room} left in the prefetch: all of it, or for a sparse slot
     * (see the class comment) twice what its last pop found, at least {@value #SPARSE_POP_MIN}, at most {@code room}.
     */
    int popCount(int slot, int room) {
        int found = sparse[slot];
        if (found < 0) {
            return room;
        }
        return (int) Math.min(room, Math.max(SPARSE_POP_MIN, 2L * found));
    }

    /** The next assigned, claimed slot that is due, not parked and not being popped, or -1. */
    int nextDueSlot(long now) {
        if (paused) {
            return -1;
        }
        int n = dueAt.length;
        for (int i = 0; i < n; i++) {
            int s = (next + i) % n;
            if (assigned[s] && claimed[s] && !popping[s] && !parked[s] && dueAt[s] - now <= 0) {
                next = (s + 1) % n;
                return s;
            }
        }
        return -1;
    }

    /**
     * The slot {@link #nextDueSlot} just returned was not popped (the rate limit gave no permits): it comes first
     * again, so that a throttled consumer keeps serving its slots in turn rather than skipping every other one.
     */
    void notPopped(int slot) {
        next = slot;
    }

    /** The earliest due time of an assigned slot that is not being popped, or {@code Long.MAX_VALUE}. */
    long earliestDue() {
        return earliestDue(false);
    }

    /**
     * The earliest time a member is due in an assigned slot that is not being popped, as its last pop or a wake notice
     * reported it (not a parked slot's existence check, a safety poll or a retry), or {@code Long.MAX_VALUE}.
     */
    long earliestPopDue() {
        return earliestDue(true);
    }

    private long earliestDue(boolean popsOnly) {
        if (paused) {
            return Long.MAX_VALUE;
        }
        long earliest = 0;
        boolean any = false;
        for (int s = 0; s < dueAt.length; s++) {
            if (assigned[s] && claimed[s] && !popping[s] && !(popsOnly && polled[s])
                    && (!any || dueAt[s] - earliest < 0)) {
                earliest = dueAt[s];
                any = true;
            }
        }
        return any ? earliest : Long.MAX_VALUE;
    }

    /**
     * When the safety poll of a parked slot is due, every parked slot (assigned, claimed, not being
     * checked), due or not: they are checked together and stay in step from then on, so that slots
     * parked at slightly different times cost one check per interval, not one each. They count as being
     * popped (of 0 members) until {@link #checkDone} or {@link #checkFailed}. Empty while paused or
     * when no parked slot is due.
     */
    int[] parkedDue(long now) {
        if (paused) {
            return new int[0];
        }
        int[] checked = new int[dueAt.length];
        int n = 0;
        boolean anyDue = false;
        for (int s = 0; s < dueAt.length; s++) {
            if (parked[s] && assigned[s] && claimed[s] && !popping[s]) {
                checked[n++] = s;
                anyDue |= dueAt[s] - now <= 0;
            }
        }
        if (!anyDue) {
            return new int[0];
        }
        for (int i = 0; i < n; i++) {
            popping[checked[i]] = true;
        }
        return Arrays.copyOf(checked, n);
    }

    /** The existence check of {@link #parkedDue}'s slots returned: pop them all at once if it found a member. */
    void checkDone(int[] slots, boolean anyPending, long now) {
        for (int s : slots) {
            popping[s] = false;
            rescanIfUnclaimed(s);
            if (anyPending) {
                parked[s] = false;
                dueAt[s] = now;
            } else {
                dueAt[s] = now + pollNanos;
            }
            applyWake(s);
        }
    }

    /** The existence check failed: the slots stay parked and are checked again after a second. */
    void checkFailed(int[] slots, long now) {
        for (int s : slots) {
            popFailed(s, 0, now);
        }
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
        popDone(slot, count, -1, nextDelayMillis, now);
    }

    /**
     * @param popped          the members the pop returned, or -1 when not known (the slot then counts as dense)
     * @param nextDelayMillis from the pop script: 0 = more may be due, > 0 = ms until the next member
     *                        is due, -1 = nothing waits
     */
    void popDone(int slot, int count, int popped, long nextDelayMillis, long now) {
        popping[slot] = false;
        sparse[slot] = popped >= 0 && popped < count && nextDelayMillis > 0 ? popped : -1;
        rescanIfUnclaimed(slot);
        poppingCount -= count;
        parked[slot] = nextDelayMillis < 0;
        if (nextDelayMillis == 0) {
            dueAt[slot] = now;
            polled[slot] = false;
        } else if (nextDelayMillis > 0) {
            long delay = Duration.ofMillis(nextDelayMillis).toNanos();
            dueAt[slot] = now + Math.min(delay, pollNanos);
            polled[slot] = delay > pollNanos;
        } else {
            dueAt[slot] = now + pollNanos;
            polled[slot] = true;
        }
        applyWake(slot);
    }

    /** A claim that failed, or a pop under an epoch that changed meanwhile, leaves a claim to make. */
    private void rescanIfUnclaimed(int slot) {
        if (assigned[slot] && !claimed[slot]) {
            claimScanFrom = Math.min(claimScanFrom, slot);
        }
    }

    private void applyWake(int slot) {
        if (woken[slot]) {
            woken[slot] = false;
            parked[slot] = false;
            if (wokenAt[slot] - dueAt[slot] < 0) {
                dueAt[slot] = wokenAt[slot];
                polled[slot] = false;
            }
        }
    }

    void popFailed(int slot, int count, long now) {
        popping[slot] = false;
        rescanIfUnclaimed(slot);
        poppingCount -= count;
        dueAt[slot] = now + RETRY_AFTER_FAILURE_NANOS;
        polled[slot] = true;
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
        } else {
            parked[slot] = false;
            if (at - dueAt[slot] < 0) {
                dueAt[slot] = at;
                polled[slot] = false;
            }
            if (delayMillis > 0 && sparse[slot] < 0) {
                sparse[slot] = 0;
            }
        }
    }

    void wakeAll() {
        long now = System.nanoTime();
        Arrays.fill(dueAt, now);
        Arrays.fill(parked, false);
    }
}
