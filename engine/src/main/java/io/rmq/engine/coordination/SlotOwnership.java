package io.rmq.engine.coordination;

import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a worker may pop, as its {@link SlotCoordinator} last learnt it: its slots, each with the
 * epoch it owns it under, and whether it may pop them now. Immutable.
 *
 * @param epochs     slot to ownership epoch, in slot order
 * @param active     {@code false} while the ZooKeeper connection is suspended or the session is
 *                   lost: the worker must stop popping (what it already popped it may finish)
 * @param generation the assignment generation the slots come from, 0 when none was read yet
 */
public record SlotOwnership(SortedMap<Integer, Long> epochs, boolean active, long generation) {

    /** No slots, not active: before the first assignment, after the session was lost, after close. */
    public static final SlotOwnership NONE = new SlotOwnership(new TreeMap<>(), false, 0);

    public SlotOwnership {
        Objects.requireNonNull(epochs, "epochs");
        epochs = Collections.unmodifiableSortedMap(new TreeMap<>(epochs));
    }

    /** The slots, ascending. */
    public int[] slots() {
        return epochs.keySet().stream().mapToInt(Integer::intValue).toArray();
    }

    /** The same slots, with popping suspended. */
    SlotOwnership suspended() {
        return new SlotOwnership(epochs, false, generation);
    }

    @Override
    public String toString() {
        return "SlotOwnership[" + (active ? "active" : "suspended") + ", generation " + generation + ", slots "
                + SlotAssignment.ranges(List.copyOf(epochs.keySet())) + "]";
    }
}
