package io.rmq.connector.config;

import java.util.Optional;

import io.rmq.engine.schedule.MissedPolicy;
import io.rmq.engine.schedule.ScheduleDefinition;
import io.rmq.engine.schedule.ScheduleTiming;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;

/**
 * A recurring schedule declared on an outgoing channel ({@code schedules.<name>.*}), checked; it becomes a
 * {@link ScheduleDefinition} once the channel's topic is registered ({@link #definition}). Immutable.
 *
 * @param priority  the schedule's {@code priority}, if set
 * @param timeRange the schedule's {@code time-range} in ms, if set
 */
public record ScheduleDeclaration(String name, byte[] payload, String slotBasis, ScheduleTiming timing,
        MissedPolicy missed, Optional<String> priority, Optional<String> timeRange) {

    /**
     * The definition for {@code topic} (the registered one): the value its type needs is the schedule's own, else
     * the channel's default ({@code priority}, {@code time-range}).
     *
     * @throws IllegalArgumentException when the type needs a value that neither gives (RMQ-0545)
     */
    public ScheduleDefinition definition(TopicDefinition topic, OutgoingChannelConfig channel) {
        String value = switch (topic.type()) {
            case PRIORITY -> priority.orElseGet(() -> channel.defaultPriority().isPresent()
                    ? Double.toString(channel.defaultPriority().getAsDouble()) : null);
            case RANGE_MERGE -> timeRange.orElseGet(() -> channel.defaultTimeRange().map(d -> Long.toString(d.toMillis()))
                    .orElse(null));
            case FIXED_TIME -> null;
        };
        String setting = ScheduleAttributes.PREFIX + name + "." + (topic.type() == TopicType.PRIORITY ? "priority" : "time-range");
        return new ScheduleDefinition(name, topic, payload, slotBasis, timing, missed,
                topic.type() == TopicType.FIXED_TIME ? null : ScheduleDefinition.checkedValue(name, topic.type(), value, setting));
    }
}
