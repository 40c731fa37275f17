package io.rmq.connector.config;

import java.io.Serializable;
import java.util.Objects;
import java.util.Optional;

/**
 * One thing wrong with a channel's configuration: which attribute, the value found (credentials
 * masked) and what is allowed. Immutable.
 *
 * @param channel     the channel name
 * @param direction   {@link Direction#INCOMING} or {@link Direction#OUTGOING}
 * @param attribute   the attribute name, e.g. {@code slot-amount}
 * @param value       the value found, or {@code null} when the attribute is missing
 * @param requirement what is allowed, phrased to follow a colon, e.g.
 *                    {@code "a power of two from 1 to 16384 is required"}
 */
public record ConfigProblem(String channel, Direction direction, String attribute, String value, String requirement)
        implements Serializable {

    public ConfigProblem {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(direction, "direction");
        Objects.requireNonNull(attribute, "attribute");
        Objects.requireNonNull(requirement, "requirement");
    }

    /** The value found, empty when the attribute is missing. */
    public Optional<String> foundValue() {
        return Optional.ofNullable(value);
    }

    /** The problem without the channel: {@code attribute 'slot-amount' = '12' is invalid: a power of two ...}. */
    public String describe() {
        return value == null
                ? "attribute '" + attribute + "' is missing: " + requirement
                : "attribute '" + attribute + "' = '" + value + "' is invalid: " + requirement;
    }

    /** The channel as named in messages: {@code Channel 'prices' (incoming)}. */
    public String channelLabel() {
        return "Channel '" + channel + "' (" + direction.label() + ")";
    }

    /** The problem with its channel: {@code Channel 'prices' (incoming): attribute ...}. */
    @Override
    public String toString() {
        return channelLabel() + ": " + describe();
    }
}
