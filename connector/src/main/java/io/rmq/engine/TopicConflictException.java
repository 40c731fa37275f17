package io.rmq.engine;

/**
 * A topic was used with a slot amount or type that differs from the definition recorded in Redis
 * when it was first used.
 */
public final class TopicConflictException extends IllegalStateException {

    private final TopicDefinition requested;
    private final String recorded;

    TopicConflictException(TopicDefinition requested, String recorded) {
        super("Topic '" + requested.name() + "' is recorded in Redis as " + describe(recorded)
                + " but is used here as " + describe(requested.registryValue())
                + "; a topic keeps its type and slot amount for life: use another topic name, or delete its keys and the '"
                + requested.name() + "' field of hash '" + TopicKeys.registryKey(requested.keyPrefix()) + "'");
        this.requested = requested;
        this.recorded = recorded;
    }

    public TopicDefinition requested() {
        return requested;
    }

    /** The recorded definition, {@code <TYPE>:<slot amount>}. */
    public String recorded() {
        return recorded;
    }

    private static String describe(String registryValue) {
        int colon = registryValue.indexOf(':');
        if (colon < 0) {
            return "'" + registryValue + "'";
        }
        return "type " + registryValue.substring(0, colon) + " with slot-amount " + registryValue.substring(colon + 1);
    }
}
