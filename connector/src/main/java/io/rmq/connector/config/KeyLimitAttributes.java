package io.rmq.connector.config;

import java.util.Optional;

import io.rmq.engine.consume.flow.FlowLimit;
import io.rmq.engine.topic.KeyLimits;

/**
 * Reads a channel's limits per key: {@code key-concurrency}, {@code key-rate-limit} and {@code key-rate-limit-burst}.
 * An incoming channel's consumer applies them; an outgoing channel's producer, given any, records each message's key.
 */
final class KeyLimitAttributes {

    private KeyLimitAttributes() {
    }

    /** The channel's limits per key, {@link KeyLimits#NONE} without any; problems recorded in {@code a}. */
    static KeyLimits keyLimits(ChannelAttributes a) {
        int concurrency = concurrency(a);
        Optional<String> rate = a.raw(RmqAttribute.KEY_RATE_LIMIT);
        int burst = a.integer(RmqAttribute.KEY_RATE_LIMIT_BURST);
        double perSecond = 0;
        if (rate.isEmpty()) {
            if (burst > 0) { // a burst of 0, the default, is no mistake
                a.problem(RmqAttribute.KEY_RATE_LIMIT_BURST, Integer.toString(burst),
                        "it applies only with " + RmqAttribute.KEY_RATE_LIMIT.attributeName() + ", which is not set");
            }
        } else {
            try {
                perSecond = FlowLimit.parse(rate.get(), 0).perSecond();
            } catch (IllegalArgumentException e) {
                a.problem(RmqAttribute.KEY_RATE_LIMIT, rate.get(),
                        "<amount>/s, <amount>/m or <amount>/h with an amount above 0 is required, e.g. 50/s");
            }
        }
        return new KeyLimits(concurrency, perSecond, burst);
    }

    private static int concurrency(ChannelAttributes a) {
        Optional<String> value = a.raw(RmqAttribute.KEY_CONCURRENCY);
        if (value.isEmpty()) {
            return 0;
        }
        try {
            int n = Integer.parseInt(value.get().trim());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        a.problem(RmqAttribute.KEY_CONCURRENCY, value.get(), "a whole number of messages, 1 or more, is required");
        return 0;
    }
}
