package io.rmq.engine.produce;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

import io.rmq.engine.i18n.EngineArguments;

/**
 * When a message expires: a message that has not been delivered by then is never delivered (it is removed and
 * counted, or kept in the dead queue if its consumer asks for it). Either a time ({@link #at}) or a time to live
 * counted from the send on the Redis clock ({@link #after}), as a {@code RANGE_MERGE} time range is. Immutable.
 */
public final class Expiry {

    private final String wireValue;
    private final String text;

    private Expiry(String wireValue, String text) {
        this.wireValue = wireValue;
        this.text = text;
    }

    /** Expires at {@code expiresAt} (compared with the Redis clock; a time already past expires the message at once). */
    public static Expiry at(Instant expiresAt) {
        Objects.requireNonNull(expiresAt, "expiresAt");
        return new Expiry(Long.toString(expiresAt.toEpochMilli()), "at " + expiresAt);
    }

    /**
     * Expires {@code timeToLive} after Redis stores the message (at least 1 ms).
     *
     * @throws IllegalArgumentException for a time to live under 1 ms
     */
    public static Expiry after(Duration timeToLive) {
        Objects.requireNonNull(timeToLive, "timeToLive");
        if (timeToLive.toMillis() < 1) {
            throw EngineArguments.arg.durationTooShort("timeToLive", 1, timeToLive.toMillis());
        }
        return new Expiry("+" + timeToLive.toMillis(), "after " + timeToLive.toMillis() + " ms");
    }

    /** The expiry as {@code send.lua} takes it: ms since the epoch, or {@code +<ms>} from the Redis clock at the send. */
    public String wireValue() {
        return wireValue;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Expiry e && e.wireValue.equals(wireValue);
    }

    @Override
    public int hashCode() {
        return wireValue.hashCode();
    }

    @Override
    public String toString() {
        return "Expiry[" + text + "]";
    }
}
