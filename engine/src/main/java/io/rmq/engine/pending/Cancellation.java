package io.rmq.engine.pending;

/**
 * What {@link PendingMessages#cancel} did. A pending copy and an in-flight copy of one message may exist at once
 * (a copy sent while another is being consumed is queued again): the pending copy is then removed
 * ({@code cancelled}) and {@code inFlight} still says that the other copy is being consumed, and will be
 * delivered (or retried, if its consumer fails).
 *
 * @param cancelled whether a pending copy was removed
 * @param inFlight  whether a copy is being consumed (popped, not yet committed or rolled back)
 */
public record Cancellation(boolean cancelled, boolean inFlight) {

    /** {@link CancelOutcome#CANCELLED} when a pending copy was removed, else IN_FLIGHT or NOT_FOUND. */
    public CancelOutcome outcome() {
        if (cancelled) {
            return CancelOutcome.CANCELLED;
        }
        return inFlight ? CancelOutcome.IN_FLIGHT : CancelOutcome.NOT_FOUND;
    }
}
