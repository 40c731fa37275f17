package io.rmq.engine.pending;

import java.time.Instant;

/**
 * What Redis holds about one message, read by {@link PendingMessages#find}; {@code null} for what it does not hold.
 *
 * @param pending   whether a copy waits in the store queue
 * @param inFlight  whether a copy is being consumed
 * @param dueAt     the pending copy's due time (RANGE_MERGE, FIXED_TIME)
 * @param priority  the pending copy's priority (PRIORITY); with priority aging {@code score + k * (since - E0)}
 * @param attempts  failed deliveries so far (0 when none is recorded)
 * @param deadAt    when it moved to the dead queue; {@code null} when it is not dead
 * @param expiresAt its recorded expiry; {@code null} when none is recorded
 * @param agedScore with priority aging: the pending copy's stored (aged) score, by which it ranks; {@code null}
 *                  otherwise
 */
public record MessageState(boolean pending, boolean inFlight, Instant dueAt, Double priority, int attempts,
        Instant deadAt, Instant expiresAt, Double agedScore) {

    /** A state without an aged score (no priority aging). */
    public MessageState(boolean pending, boolean inFlight, Instant dueAt, Double priority, int attempts,
            Instant deadAt, Instant expiresAt) {
        this(pending, inFlight, dueAt, priority, attempts, deadAt, expiresAt, null);
    }

    /** Whether it is in the dead queue (its retries used up). */
    public boolean dead() {
        return deadAt != null;
    }

    /** Whether Redis holds anything about it: pending, in flight or dead. */
    public boolean found() {
        return pending || inFlight || dead();
    }
}
