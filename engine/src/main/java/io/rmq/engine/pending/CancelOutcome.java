package io.rmq.engine.pending;

/** What a cancel did, in one word (see {@link Cancellation}). */
public enum CancelOutcome {
    /** The message was pending and is removed: it will not be delivered (a copy in flight, if any, still is). */
    CANCELLED,
    /** The message was not pending, but a copy is being consumed: it is not cancelled, and will be delivered. */
    IN_FLIGHT,
    /** Neither pending nor in flight: never sent, consumed already, dead, or cancelled before. */
    NOT_FOUND
}
