package io.rmq.connector.config;

import java.util.Optional;

import io.rmq.connector.RmqCodec;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.topic.TopicDefinition;

/**
 * What the checked configuration of every channel holds, incoming or outgoing: its name, where Redis
 * is, its topic and its codec. Immutable and thread-safe (the codec, if any, must be thread-safe itself).
 *
 * <p>Created from the channel's configuration as the runtime gives it to the connector, where
 * channel-level attributes already take precedence over connector-level ones.
 */
public abstract sealed class ChannelConfig permits IncomingChannelConfig, OutgoingChannelConfig {

    private final String channel;
    private final RedisAccess redisAccess;
    private final TopicDefinition topic;
    private final Optional<String> codecClassName;
    private final Optional<RmqCodec> codec;
    private final Tracing tracing;

    ChannelConfig(Common common) {
        this.channel = common.channel();
        this.redisAccess = common.redisAccess();
        this.topic = common.topic();
        this.codecClassName = common.codecClassName();
        this.codec = common.codec();
        this.tracing = common.tracing();
    }

    /**
     * Whether the channel traces its messages ({@code tracing-enabled}) and the most send contexts a message keeps
     * and a process span links ({@code tracing-max-links}).
     */
    public record Tracing(boolean enabled, int maxLinks) {
    }

    /** How the channel traces (see {@code docs/tracing.md}). */
    public Tracing tracing() {
        return tracing;
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

    /** The topic the channel consumes or writes to. */
    public TopicDefinition topic() {
        return topic;
    }

    /** The codec's class name, when {@code codec} is set. */
    public Optional<String> codecClassName() {
        return codecClassName;
    }

    /**
     * The codec instance, when {@code codec} is set; without one, an outgoing channel's payloads must be
     * {@code String} or {@code byte[]} and an incoming channel's payloads are of its {@code payload-type}.
     */
    public Optional<RmqCodec> codec() {
        return codec;
    }

    /** The attributes every channel has, with the Redis credentials masked, for {@link #toString()}. */
    final String commonAttributes() {
        return "channel=" + channel + ", redis=" + redisAccess + ", topic=" + topic + ", codec="
                + codecClassName.orElse("none") + ", tracing=" + (tracing.enabled() ? "max " + tracing.maxLinks() + " links" : "off");
    }

    /**
     * The attributes every channel has, as read from its configuration: {@code null} values where
     * there were problems (recorded). Read in two steps, so that problems are reported in the order
     * the attributes are declared: the Redis access and the topic first, the codec after the channel's
     * own attributes of payloads and message defaults.
     */
    record Common(String channel, RedisAccess redisAccess, TopicDefinition topic, Optional<String> codecClassName,
            Optional<RmqCodec> codec, Tracing tracing) {

        /** The Redis access, the topic and the tracing; no codec yet. */
        static Common read(ChannelAttributes a) {
            return new Common(a.channel(), RedisAccessAttributes.redisAccess(a), TopicAttributes.topic(a),
                    Optional.empty(), Optional.empty(), new Tracing(a.flag(RmqAttribute.TRACING_ENABLED),
                            a.integer(RmqAttribute.TRACING_MAX_LINKS)));
        }

        /** These attributes with the codec, instantiated. */
        Common withCodec(ChannelAttributes a) {
            Optional<String> className = a.raw(RmqAttribute.CODEC);
            return new Common(channel, redisAccess, topic, className, CodecAttribute.instantiate(a, className), tracing);
        }
    }
}
