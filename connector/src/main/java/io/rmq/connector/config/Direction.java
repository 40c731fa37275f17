package io.rmq.connector.config;

import java.util.Locale;

/**
 * The direction of a channel ({@link #INCOMING} or {@link #OUTGOING}), or the directions an
 * attribute applies to (either of those, or {@link #INCOMING_AND_OUTGOING}).
 */
public enum Direction {
    /** Messages flow from Redis to the application. */
    INCOMING,
    /** Messages flow from the application to Redis. */
    OUTGOING,
    /** An attribute that applies to both directions. */
    INCOMING_AND_OUTGOING;

    /** Whether an attribute declared with this direction applies to a channel of {@code channelDirection}. */
    public boolean appliesTo(Direction channelDirection) {
        return this == INCOMING_AND_OUTGOING || this == channelDirection;
    }

    /** The word used in messages and docs: {@code incoming}, {@code outgoing} or {@code both}. */
    public String label() {
        return this == INCOMING_AND_OUTGOING ? "both" : name().toLowerCase(Locale.ROOT);
    }
}
