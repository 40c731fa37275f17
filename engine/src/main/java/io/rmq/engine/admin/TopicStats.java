package io.rmq.engine.admin;

import java.util.List;

import io.rmq.engine.topic.TopicDefinition;

/**
 * A topic's state: each slot's counts, and their totals. Each slot is read atomically; the slots
 * one after another, so totals may mix instants a few milliseconds apart. Immutable.
 */
public record TopicStats(TopicDefinition topic, List<SlotStats> slots) {

    public TopicStats {
        slots = List.copyOf(slots);
    }

    public long pending() {
        return slots.stream().mapToLong(SlotStats::pending).sum();
    }

    public long due() {
        return slots.stream().mapToLong(SlotStats::due).sum();
    }

    /** The age of the oldest due message over all slots, ms; 0 when none is due. */
    public long oldestDueAgeMillis() {
        return slots.stream().mapToLong(SlotStats::oldestDueAgeMillis).max().orElse(0);
    }

    public long inFlight() {
        return slots.stream().mapToLong(SlotStats::inFlight).sum();
    }

    public long dead() {
        return slots.stream().mapToLong(SlotStats::dead).sum();
    }

    /** The counters of all slots, added up (cluster-wide). */
    public SlotCounters counters() {
        return slots.stream().map(SlotStats::counters).reduce(SlotCounters.ZERO, SlotCounters::plus);
    }

    /** Whether consumption is paused: every slot is (a pause or resume under way shows as partly paused, false). */
    public boolean paused() {
        return !slots.isEmpty() && slots.stream().allMatch(SlotStats::paused);
    }
}
