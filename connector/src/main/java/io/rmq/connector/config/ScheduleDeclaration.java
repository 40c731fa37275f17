package io.rmq.connector.config;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;

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
        String value = value(topic.type(), channel.defaultPriority(), channel.defaultTimeRange());
        return new ScheduleDefinition(name, topic, payload, slotBasis, timing, missed,
                ScheduleDefinition.checkedValue(name, topic.type(), value, setting(topic.type())));
    }

    /** The value a topic of {@code type} needs for the score: the schedule's own, else the channel's default; null when none. */
    String value(TopicType type, OptionalDouble channelPriority, Optional<Duration> channelTimeRange) {
        return switch (type) {
            case PRIORITY -> priority.orElseGet(() -> channelPriority.isPresent()
                    ? Double.toString(channelPriority.getAsDouble()) : null);
            case RANGE_MERGE -> timeRange.orElseGet(() -> channelTimeRange.map(d -> Long.toString(d.toMillis())).orElse(null));
            case FIXED_TIME -> null;
        };
    }

    /** The property of that value on a topic of {@code type}. */
    String setting(TopicType type) {
        return ScheduleAttributes.PREFIX + name + "." + (type == TopicType.PRIORITY ? "priority" : "time-range");
    }
}
