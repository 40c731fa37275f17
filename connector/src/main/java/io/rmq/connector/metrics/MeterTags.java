package io.rmq.connector.metrics;

import java.util.Objects;

import io.rmq.engine.topic.TopicDefinition;

/**
 * The tags of one meter: the topic, and the channel for per-channel meters. Immutable.
 *
 * @param topic   {@code <key-prefix><topic name>}: unique within one Redis, as the store queue's key is
 * @param channel the channel name, or {@code null} for per-topic meters
 */
public record MeterTags(String topic, String channel) {

    public MeterTags {
        Objects.requireNonNull(topic, "topic");
    }

    /** The tags of a per-topic meter. */
    public static MeterTags of(TopicDefinition topic) {
        return new MeterTags(topicTag(topic), null);
    }

    /** The tags of a per-channel meter. */
    public static MeterTags of(TopicDefinition topic, String channel) {
        return new MeterTags(topicTag(topic), Objects.requireNonNull(channel, "channel"));
    }

    /** The value of the {@code topic} tag of a topic: its key prefix and name. */
    public static String topicTag(TopicDefinition topic) {
        return topic.keyPrefix() + topic.name();
    }

    /** Whether the meter has the {@code channel} tag. */
    public boolean hasChannel() {
        return channel != null;
    }
}
