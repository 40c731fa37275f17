package io.rmq.engine.pending;

import java.time.Instant;

/**
 * What Redis holds about one message, read by {@link PendingMessages#find}; {@code null} for what it does not hold.
 *
 * @param pending   whether a copy waits in the store queue
 * @param inFlight  whether a copy is being consumed
 * @param dueAt     the pending copy's due time (RANGE_MERGE, FIXED_TIME)
 * @param priority  the pending copy's priority (PRIORITY)
 * @param attempts  failed deliveries so far (0 when none is recorded)
 * @param deadAt    when it moved to the dead queue; {@code null} when it is not dead
 * @param expiresAt its recorded expiry; {@code null} when none is recorded
 */
public record MessageState(boolean pending, boolean inFlight, Instant dueAt, Double priority, int attempts,
        Instant deadAt, Instant expiresAt) {

    /** Whether it is in the dead queue (its retries used up). */
    public boolean dead() {
        return deadAt != null;
    }

    /** Whether Redis holds anything about it: pending, in flight or dead. */
    public boolean found() {
        return pending || inFlight || dead();
    }
}
