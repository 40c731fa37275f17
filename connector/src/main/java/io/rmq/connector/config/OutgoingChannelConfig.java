package io.rmq.connector.config;

import io.rmq.connector.RmqCodec;
import io.rmq.engine.produce.ProducerOptions;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.topic.TopicDefinition;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.eclipse.microprofile.config.Config;

/**
 * The checked configuration of one outgoing channel: where Redis is, which topic it writes to, the
 * defaults for messages whose metadata lacks a time range or priority, and how payloads become
 * content. Immutable and thread-safe (the codec, if any, must be thread-safe itself).
 *
 * <p>Created from the channel's {@link Config} as the runtime gives it to the connector, where
 * channel-level attributes already take precedence over connector-level ones.
 */
public final class OutgoingChannelConfig {

    /** Default of {@code max-inflight}: most messages one outgoing channel writes to Redis at once. */
    public static final int DEFAULT_MAX_INFLIGHT = 1024;
    /** Default of {@code max-message-size}: the most bytes one message's content may have (1 MiB). */
    public static final int DEFAULT_MAX_MESSAGE_SIZE = 1024 * 1024;
    /** The largest {@code max-message-size}: Redis's limit on a string (512 MiB). */
    public static final int MAX_MAX_MESSAGE_SIZE = 512 * 1024 * 1024;

    private final String channel;
    private final RedisAccess redisAccess;
    private final TopicDefinition topic;
    private final Optional<Duration> defaultTimeRange;
    private final OptionalDouble defaultPriority;
    private final int maxInflight;
    private final int maxMessageSize;
    private final Optional<String> codecClassName;
    private final Optional<RmqCodec> codec;
    private final ProducerOptions producerOptions;

    private OutgoingChannelConfig(String channel, RedisAccess redisAccess, TopicDefinition topic,
            Optional<Duration> defaultTimeRange, OptionalDouble defaultPriority, int maxInflight, int maxMessageSize,
            Optional<String> codecClassName, Optional<RmqCodec> codec, ProducerOptions producerOptions) {
        this.channel = channel;
        this.redisAccess = redisAccess;
        this.topic = topic;
        this.defaultTimeRange = defaultTimeRange;
        this.defaultPriority = defaultPriority;
        this.maxInflight = maxInflight;
        this.maxMessageSize = maxMessageSize;
        this.codecClassName = codecClassName;
        this.codec = codec;
        this.producerOptions = producerOptions;
    }

    /**
     * Reads and checks an outgoing channel's attributes, instantiating its codec if one is set.
     *
     * @param config the channel's configuration; must contain {@code channel-name}
     * @return the configuration
     * @throws RmqConfigurationException naming every problem found, when there is at least one
     */
    public static OutgoingChannelConfig from(Config config) {
        return ChannelAttributes.readOrThrow(config, Direction.OUTGOING, OutgoingChannelConfig::read);
    }

    /**
     * Checks an outgoing channel's attributes without throwing; the codec, if set, is instantiated to
     * check it.
     *
     * @param config the channel's configuration
     * @return every problem found, empty when the configuration is usable
     */
    public static List<ConfigProblem> validate(Config config) {
        return ChannelAttributes.problemsOf(config, Direction.OUTGOING, OutgoingChannelConfig::read);
    }

    private static OutgoingChannelConfig read(ChannelAttributes a) {
        RedisAccess redisAccess = a.redisAccess();
        TopicDefinition topic = a.topic();
        Optional<Duration> timeRange = a.optionalMillis(RmqAttribute.TIME_RANGE);
        OptionalDouble priority = a.optionalFiniteDouble(RmqAttribute.PRIORITY);
        int maxInflight = a.integer(RmqAttribute.MAX_INFLIGHT);
        int maxMessageSize = a.integer(RmqAttribute.MAX_MESSAGE_SIZE);
        Optional<String> codecClassName = a.raw(RmqAttribute.CODEC);
        Optional<RmqCodec> codec = a.codec(codecClassName);
        ProducerOptions producerOptions = a.producerOptions();
        if (a.hasProblems()) {
            return null;
        }
        return new OutgoingChannelConfig(a.channel(), redisAccess, topic, timeRange, priority, maxInflight,
                maxMessageSize, codecClassName, codec, producerOptions);
    }

    /** The channel name. */
    public String channel() {
        return channel;
    }

    /** The Lettuce URI of the Redis server, credentials included (never log it; see {@link #toString()}). */
    public String redisUri() {
        return redisAccess.uri();
    }

    /** How to reach and log in to Redis: the URI, the credentials given apart and the trusted certificates. */
    public RedisAccess redisAccess() {
        return redisAccess;
    }

    /** The topic written to. */
    public TopicDefinition topic() {
        return topic;
    }

    /** The time range of RANGE_MERGE messages whose metadata gives none ({@code time-range}); no default. */
    public Optional<Duration> defaultTimeRange() {
        return defaultTimeRange;
    }

    /** The priority of PRIORITY messages whose metadata gives none ({@code priority}); no default. */
    public OptionalDouble defaultPriority() {
        return defaultPriority;
    }

    /** Most messages being written to Redis at once. Default {@value #DEFAULT_MAX_INFLIGHT}. */
    public int maxInflight() {
        return maxInflight;
    }

    /**
     * The most bytes one message's content may have (after encoding); a larger one is nacked (RMQ-2100).
     * Default {@value #DEFAULT_MAX_MESSAGE_SIZE}.
     */
    public int maxMessageSize() {
        return maxMessageSize;
    }

    /** The codec's class name, when {@code codec} is set. */
    public Optional<String> codecClassName() {
        return codecClassName;
    }

    /** The codec instance, when {@code codec} is set; without one, payloads must be String or byte[]. */
    public Optional<RmqCodec> codec() {
        return codec;
    }

    /**
     * How sends are confirmed: by the master alone (default, {@code durability=none}), or also by replicas
     * ({@code durability=replicas:<n>}, waiting up to {@code durability-timeout}).
     */
    public ProducerOptions producerOptions() {
        return producerOptions;
    }

    /** The configuration with the Redis credentials masked. */
    @Override
    public String toString() {
        return "OutgoingChannelConfig[channel=" + channel + ", redis=" + redisAccess
                + ", topic=" + topic + ", defaultTimeRange=" + defaultTimeRange.map(d -> d.toMillis() + " ms")
                        .orElse("none")
                + ", defaultPriority=" + (defaultPriority.isPresent() ? defaultPriority.getAsDouble() : "none")
                + ", maxInflight=" + maxInflight + ", maxMessageSize=" + maxMessageSize
                + ", codec=" + codecClassName.orElse("none") + ", durability="
                + (producerOptions.durable() ? "replicas:" + producerOptions.durableReplicas() + " within "
                        + producerOptions.durabilityTimeout().toMillis() + " ms" : "none") + "]";
    }
}
