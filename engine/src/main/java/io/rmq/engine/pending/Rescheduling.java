package io.rmq.engine.pending;

/**
 * What {@link PendingMessages#reschedule} or {@link PendingMessages#reprioritize} did.
 *
 * @param rescheduled whether the message was pending and now has the due time or priority given
 * @param inFlight    whether a copy is being consumed (it is not changed)
 */
public record Rescheduling(boolean rescheduled, boolean inFlight) {
}
