package io.rmq.connector.config;

import java.util.Optional;

import io.rmq.engine.topic.PriorityAging;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;

/** Reads an outgoing channel's {@code priority-aging}: the starting pace of priority aging of its topic. Stateless. */
final class AgingAttributes {

    /** The value's syntax, as the requirement of a problem says it. */
    static final String PACE_REQUIREMENT = "<points>/<time> with points above 0 is required, the time a unit (ms, s, m,"
            + " h) optionally after a count, e.g. 1/10s (one point per 10 seconds) or 5/m";

    private AgingAttributes() {
    }

    /**
     * The pace {@code priority-aging} asks for ({@link PriorityAging#OFF} when it is not set), its epoch left to the
     * topic; a problem, and off, when it cannot be read or the topic is not {@code PRIORITY}.
     *
     * @param topic the channel's topic, {@code null} when it could not be read (its own problem is recorded)
     */
    static PriorityAging priorityAging(ChannelAttributes a, TopicDefinition topic) {
        Optional<String> pace = a.raw(RmqAttribute.PRIORITY_AGING);
        if (pace.isEmpty()) {
            return PriorityAging.OFF;
        }
        PriorityAging aging;
        try {
            aging = PriorityAging.parse(pace.get());
        } catch (IllegalArgumentException e) {
            a.problem(RmqAttribute.PRIORITY_AGING, pace.get(), PACE_REQUIREMENT);
            return PriorityAging.OFF;
        }
        if (topic != null && topic.type() != TopicType.PRIORITY) {
            a.problem(RmqAttribute.PRIORITY_AGING, pace.get(), "it applies only to PRIORITY topics: topic '"
                    + topic.name() + "' is " + topic.type().name() + " (remove the attribute or use a PRIORITY topic)");
            return PriorityAging.OFF;
        }
        return aging;
    }
}
