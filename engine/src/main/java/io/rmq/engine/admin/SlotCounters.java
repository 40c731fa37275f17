package io.rmq.engine.admin;

import java.util.List;

/**
 * What the scripts have counted in one slot (or, added up, a topic) since it was first used: kept in
 * Redis in the slot's counters hash {@code counters{<prefix><topic>_<slot>}}, so every producer and
 * consumer of the cluster counts in the same place, and any process that reads Redis sees the
 * cluster-wide totals. Each script call adds its outcome with one {@code HINCRBY} (never one per
 * message). Rates come from two readings: {@code (later - earlier) / elapsed}. Immutable.
 *
 * @param sent         messages sent (stored and merged)
 * @param merged       of those sent, merged into a pending duplicate
 * @param delivered    messages popped for delivery (prefetched ones included)
 * @param acked        deliveries committed
 * @param nacked       deliveries rolled back: failed (nacked) or expired (the sweeper)
 * @param dead         of those rolled back, moved to the dead queue
 * @param released     popped messages returned undelivered (a consumer stopped, or lost its slot)
 * @param requeued     dead messages requeued by an operator
 * @param purged       dead messages purged by an operator
 * @param trimmed      dead messages deleted by the retention ({@code dead-max-count}, {@code dead-max-age})
 * @param cancelled    pending messages cancelled by an application (or removed by an operator)
 * @param rescheduled  pending messages given a new due time or priority by an application
 * @param expired      messages that expired before delivery (never delivered)
 * @param ticked       messages sent by recurring schedules (one per tick)
 */
public record SlotCounters(long sent, long merged, long delivered, long acked, long nacked, long dead,
        long released, long requeued, long purged, long trimmed, long cancelled, long rescheduled, long expired,
        long ticked) {

    /** Nothing counted. */
    public static final SlotCounters ZERO = new SlotCounters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    /** The counter names, in the order of the components, as the counters hash and {@code stats.lua} name them. */
    public static final List<String> NAMES = List.of("sent", "merged", "delivered", "acked", "nacked", "dead",
            "released", "requeued", "purged", "trimmed", "cancelled", "rescheduled", "expired", "ticked");

    /** The sum of both. */
    public SlotCounters plus(SlotCounters o) {
        return new SlotCounters(sent + o.sent, merged + o.merged, delivered + o.delivered, acked + o.acked,
                nacked + o.nacked, dead + o.dead, released + o.released, requeued + o.requeued, purged + o.purged,
                trimmed + o.trimmed, cancelled + o.cancelled, rescheduled + o.rescheduled, expired + o.expired,
                ticked + o.ticked);
    }

    /** The counters in the order of {@link #NAMES}. */
    public long[] values() {
        return new long[] { sent, merged, delivered, acked, nacked, dead, released, requeued, purged, trimmed, cancelled, rescheduled, expired,
            ticked };
    }

    /** Counters from values in the order of {@link #NAMES}. */
    static SlotCounters of(List<Long> values) {
        return new SlotCounters(values.get(0), values.get(1), values.get(2), values.get(3), values.get(4),
                values.get(5), values.get(6), values.get(7), values.get(8), values.get(9), values.get(10),
                values.get(11), values.get(12), values.get(13));
    }
}
