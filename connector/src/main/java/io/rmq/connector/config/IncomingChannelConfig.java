package io.rmq.connector.config;

import io.rmq.connector.RmqCodec;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.coordination.CoordinationOptions;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.topic.TopicDefinition;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.eclipse.microprofile.config.Config;

/**
 * The checked configuration of one incoming channel: where Redis is, which topic it consumes and
 * how ({@link ConsumerOptions}, including the optional ZooKeeper coordination), and how content
 * becomes a payload. Immutable and thread-safe (the
 * codec, if any, must be thread-safe itself).
 *
 * <p>Created from the channel's {@link Config} as the runtime gives it to the connector, where
 * channel-level attributes already take precedence over connector-level ones.
 */
public final class IncomingChannelConfig {

    private final String channel;
    private final RedisAccess redisAccess;
    private final TopicDefinition topic;
    private final ConsumerOptions consumerOptions;
    private final PayloadType payloadType;
    private final Optional<String> codecClassName;
    private final Optional<RmqCodec> codec;

    private IncomingChannelConfig(String channel, RedisAccess redisAccess, TopicDefinition topic,
            ConsumerOptions consumerOptions, PayloadType payloadType, Optional<String> codecClassName,
            Optional<RmqCodec> codec) {
        this.channel = channel;
        this.redisAccess = redisAccess;
        this.topic = topic;
        this.consumerOptions = consumerOptions;
        this.payloadType = payloadType;
        this.codecClassName = codecClassName;
        this.codec = codec;
    }

    /**
     * Reads and checks an incoming channel's attributes, instantiating its codec if one is set.
     *
     * @param config the channel's configuration; must contain {@code channel-name}
     * @return the configuration
     * @throws RmqConfigurationException naming every problem found, when there is at least one
     */
    public static IncomingChannelConfig from(Config config) {
        return ChannelAttributes.readOrThrow(config, Direction.INCOMING, IncomingChannelConfig::read);
    }

    /**
     * Checks an incoming channel's attributes without throwing; the codec, if set, is instantiated to
     * check it.
     *
     * @param config the channel's configuration
     * @return every problem found, empty when the configuration is usable
     */
    public static List<ConfigProblem> validate(Config config) {
        return ChannelAttributes.problemsOf(config, Direction.INCOMING, IncomingChannelConfig::read);
    }

    /** Reads every attribute; {@code null} when there are problems (recorded in {@code attributes}). */
    private static IncomingChannelConfig read(ChannelAttributes a) {
        RedisAccess redisAccess = a.redisAccess();
        TopicDefinition topic = a.topic();
        ConsumerOptions.Builder options = ConsumerOptions.builder();
        apply(a, RmqAttribute.MAX_RETRIES, a.integer(RmqAttribute.MAX_RETRIES), options::maxRetries);
        apply(a, RmqAttribute.PREPARE_TIMEOUT, a.millis(RmqAttribute.PREPARE_TIMEOUT), options::prepareTimeout);
        apply(a, RmqAttribute.BATCH_SIZE, a.integer(RmqAttribute.BATCH_SIZE), options::batchSize);
        apply(a, RmqAttribute.RETRY_BACKOFF, a.millis(RmqAttribute.RETRY_BACKOFF), options::retryBackoff);
        apply(a, RmqAttribute.RETRY_BACKOFF_MAX, a.millis(RmqAttribute.RETRY_BACKOFF_MAX), options::retryBackoffMax);
        apply(a, RmqAttribute.POLL_INTERVAL, a.millis(RmqAttribute.POLL_INTERVAL), options::pollInterval);
        apply(a, RmqAttribute.SHUTDOWN_TIMEOUT, a.millis(RmqAttribute.SHUTDOWN_TIMEOUT), options::shutdownTimeout);
        apply(a, RmqAttribute.DEAD_MAX_COUNT, a.integer(RmqAttribute.DEAD_MAX_COUNT), options::deadMaxCount);
        apply(a, RmqAttribute.DEAD_MAX_AGE, a.millis(RmqAttribute.DEAD_MAX_AGE), options::deadMaxAge);
        options.coordination(coordination(a));
        PayloadType payloadType = a.payloadType();
        Optional<String> codecClassName = a.raw(RmqAttribute.CODEC);
        Optional<RmqCodec> codec = a.codec(codecClassName);
        if (a.hasProblems()) {
            return null;
        }
        return new IncomingChannelConfig(a.channel(), redisAccess, topic, options.build(), payloadType, codecClassName,
                codec);
    }

    /**
     * The coordination settings when {@code zookeeper-connect} is set, else {@code null} (competing
     * consumers). The other {@code zookeeper-*} attributes are read and checked either way, since they
     * may be set for every channel of the connector.
     */
    private static CoordinationOptions coordination(ChannelAttributes a) {
        Optional<String> connect = a.raw(RmqAttribute.ZOOKEEPER_CONNECT);
        CoordinationOptions.Builder builder;
        try {
            builder = CoordinationOptions.builder(connect.orElse("localhost:2181"));
        } catch (IllegalArgumentException e) {
            a.problem(RmqAttribute.ZOOKEEPER_CONNECT, connect.orElse(""), e.getMessage());
            builder = CoordinationOptions.builder("localhost:2181");
        }
        apply(a, RmqAttribute.ZOOKEEPER_ROOT, a.string(RmqAttribute.ZOOKEEPER_ROOT), builder::root);
        apply(a, RmqAttribute.ZOOKEEPER_SESSION_TIMEOUT, a.millis(RmqAttribute.ZOOKEEPER_SESSION_TIMEOUT),
                builder::sessionTimeout);
        apply(a, RmqAttribute.ZOOKEEPER_CONNECTION_TIMEOUT, a.millis(RmqAttribute.ZOOKEEPER_CONNECTION_TIMEOUT),
                builder::connectionTimeout);
        apply(a, RmqAttribute.ZOOKEEPER_REBALANCE_DELAY, a.millis(RmqAttribute.ZOOKEEPER_REBALANCE_DELAY),
                builder::rebalanceDelay);
        Optional<String[]> credentials = a.zooKeeperCredentials();
        if (credentials.isPresent()) {
            builder.digestCredentials(credentials.get()[0], credentials.get()[1]);
        }
        return connect.isPresent() ? builder.build() : null;
    }

    /**
     * Hands a value to the {@link ConsumerOptions} builder, which has the last word on what it accepts;
     * a refusal becomes a problem of the attribute (the declared bounds normally prevent it).
     */
    private static <T> void apply(ChannelAttributes a, RmqAttribute attribute, T value, Consumer<T> setter) {
        try {
            setter.accept(value);
        } catch (IllegalArgumentException e) {
            Object shown = value instanceof Duration d ? d.toMillis() : value;
            a.problem(attribute, String.valueOf(shown), e.getMessage());
        }
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

    /** The topic consumed. */
    public TopicDefinition topic() {
        return topic;
    }

    /** How the topic is consumed: retries, timeouts, batch size, polling. */
    public ConsumerOptions consumerOptions() {
        return consumerOptions;
    }

    /** The payload type of received messages when there is no codec. Default {@link PayloadType#STRING}. */
    public PayloadType payloadType() {
        return payloadType;
    }

    /** The codec's class name, when {@code codec} is set. */
    public Optional<String> codecClassName() {
        return codecClassName;
    }

    /** The codec instance, when {@code codec} is set; it replaces {@link #payloadType()}. */
    public Optional<RmqCodec> codec() {
        return codec;
    }

    /** Retries before the dead queue. Default {@value ConsumerOptions#DEFAULT_MAX_RETRIES}. */
    public int maxRetries() {
        return consumerOptions.maxRetries();
    }

    /** Time a popped message may stay unacknowledged. Default 30 s. */
    public Duration prepareTimeout() {
        return consumerOptions.prepareTimeout();
    }

    /** Most members per pop, also the prefetch bound per slot. Default {@value ConsumerOptions#DEFAULT_BATCH_SIZE}. */
    public int batchSize() {
        return consumerOptions.batchSize();
    }

    /** First retry delay of timed messages. Default 1 s. */
    public Duration retryBackoff() {
        return consumerOptions.retryBackoff();
    }

    /** Cap of the retry delay. Default 60 s. */
    public Duration retryBackoffMax() {
        return consumerOptions.retryBackoffMax();
    }

    /** Safety poll of an idle slot. Default 5 s. */
    public Duration pollInterval() {
        return consumerOptions.pollInterval();
    }

    /** Grace period for in-process messages at shutdown. Default 10 s. */
    public Duration shutdownTimeout() {
        return consumerOptions.shutdownTimeout();
    }

    /**
     * Serial consumption per slot across the cluster, coordinated through ZooKeeper; present when
     * {@code zookeeper-connect} is set. The same as {@code consumerOptions().coordination()}.
     */
    public Optional<CoordinationOptions> coordination() {
        return consumerOptions.coordination();
    }

    /** The configuration with the Redis credentials masked. */
    @Override
    public String toString() {
        return "IncomingChannelConfig[channel=" + channel + ", redis=" + redisAccess
                + ", topic=" + topic + ", " + consumerOptions + ", payloadType=" + payloadType.attributeValue()
                + ", codec=" + codecClassName.orElse("none") + "]";
    }
}
