package io.rmq.engine.topic;

import io.rmq.engine.i18n.EngineExceptions;

/**
 * A topic was used with a type that differs from the definition recorded in Redis when it was first used, or
 * with more slots than Redis records (a topic grows only through {@code RmqAdmin.growTopic}), or with fewer slots
 * than it ever had. An amount the topic had before it grew is accepted: the configuration was written before
 * the growth.
 */
public final class TopicConflictException extends IllegalStateException {

    private final TopicDefinition requested;
    private final String recorded;

    public TopicConflictException(TopicDefinition requested, String recorded) {
        super(EngineExceptions.ex.topicConflict(requested.name(), describe(recorded), describe(requested.registryValue()),
                TopicKeys.registryKey(requested.keyPrefix())));
        this.requested = requested;
        this.recorded = recorded;
    }

    /** The topic is used with more slots than the {@code recordedAmount} Redis records: it has not grown (RMQ-0410). */
    public TopicConflictException(TopicDefinition requested, String recorded, int recordedAmount) {
        super(EngineExceptions.ex.topicNotGrown(requested.name(), recordedAmount, requested.slotAmount()));
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

    /** A registry value {@code <TYPE>:<slot amount>} for a message: {@code type PRIORITY with slot-amount 16}. */
    public static String describe(String registryValue) {
        int colon = registryValue.indexOf(':');
        if (colon < 0) {
            return "'" + registryValue + "'";
        }
        return "type " + registryValue.substring(0, colon) + " with slot-amount " + registryValue.substring(colon + 1);
    }
}
