package io.rmq.engine.admin;

import java.util.Optional;

/**
 * One slot of a topic, read atomically by one script call. Immutable.
 *
 * @param slot               the slot number
 * @param pending            messages in the store queue
 * @param due                pending messages due now (the lag); for {@code PRIORITY} topics every pending message
 * @param oldestDueAgeMillis how long the oldest due message has been due (Redis clock), 0 when none is
 *                           due; always 0 for {@code PRIORITY} topics, whose scores are not times
 * @param inFlight           messages in the prepare queue (being consumed)
 * @param dead               messages in the dead queue
 * @param paused             whether consumption of the slot is paused
 * @param owner              the slot's owner under serial consumption, if any was recorded
 * @param counters           what the scripts have counted in the slot (cluster-wide, kept in Redis)
 */
public record SlotStats(int slot, long pending, long due, long oldestDueAgeMillis, long inFlight, long dead,
        boolean paused, Optional<SlotOwner> owner, SlotCounters counters) {

    /** A slot's state with nothing counted ({@link SlotCounters#ZERO}). */
    public SlotStats(int slot, long pending, long due, long oldestDueAgeMillis, long inFlight, long dead,
            boolean paused, Optional<SlotOwner> owner) {
        this(slot, pending, due, oldestDueAgeMillis, inFlight, dead, paused, owner, SlotCounters.ZERO);
    }
}
