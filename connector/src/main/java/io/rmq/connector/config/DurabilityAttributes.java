package io.rmq.connector.config;

import java.time.Duration;

import io.rmq.engine.produce.ProducerOptions;

/** Builds an outgoing channel's {@link ProducerOptions} from {@code durability} and {@code durability-timeout}. Stateless. */
final class DurabilityAttributes {

    private DurabilityAttributes() {
    }

    /** The DURABILITY value's syntax, as the requirement of a problem says it. */
    static final String DURABILITY_REQUIREMENT = "'none' or 'replicas:<n>' with n from 1 to "
            + ProducerOptions.MAX_DURABLE_REPLICAS + " is required";

    /** How an outgoing channel confirms its sends: {@code durability} and {@code durability-timeout}. */
    static ProducerOptions producerOptions(ChannelAttributes a) {
        int replicas = durableReplicas(a, a.string(RmqAttribute.DURABILITY));
        Duration timeout = a.millis(RmqAttribute.DURABILITY_TIMEOUT);
        return ProducerOptions.builder().durableReplicas(replicas).durabilityTimeout(timeout).build();
    }

    /** The replicas {@code durability} asks for: 0 for {@code none}; a problem and 0 for anything but replicas:n. */
    private static int durableReplicas(ChannelAttributes a, String value) {
        if (value.equalsIgnoreCase("none")) {
            return 0;
        }
        String prefix = "replicas:";
        if (value.regionMatches(true, 0, prefix, 0, prefix.length())) {
            try {
                int n = Integer.parseInt(value.substring(prefix.length()).trim());
                if (n >= 1 && n <= ProducerOptions.MAX_DURABLE_REPLICAS) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        a.problem(RmqAttribute.DURABILITY, value, DURABILITY_REQUIREMENT);
        return 0;
    }
}
