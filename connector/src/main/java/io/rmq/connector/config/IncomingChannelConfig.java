package io.rmq.connector.config;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import org.eclipse.microprofile.config.Config;

import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.flow.AdaptiveSlowDown;
import io.rmq.engine.consume.flow.FlowLimit;
import io.rmq.engine.coordination.CoordinationOptions;
import io.rmq.engine.topic.FairShare;
import io.rmq.engine.topic.KeyLimits;

/**
 * The checked configuration of one incoming channel: beside what every channel has ({@link ChannelConfig}),
 * how it consumes ({@link ConsumerOptions}, including the optional ZooKeeper coordination) and how content
 * becomes a payload without a codec. Immutable and thread-safe (the codec, if any, must be thread-safe itself).
 *
 * <p>Created from the channel's {@link Config} as the runtime gives it to the connector, where
 * channel-level attributes already take precedence over connector-level ones.
 */
public final class IncomingChannelConfig extends ChannelConfig {

    private final ConsumerOptions consumerOptions;
    private final PayloadType payloadType;
    private final FailureStrategy failureStrategy;
    private final boolean batch;

    private IncomingChannelConfig(Common common, ConsumerOptions consumerOptions, PayloadType payloadType,
            FailureStrategy failureStrategy, boolean batch) {
        super(common);
        this.consumerOptions = consumerOptions;
        this.payloadType = payloadType;
        this.failureStrategy = failureStrategy;
        this.batch = batch;
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
        Common common = Common.read(a);
        ConsumerOptions.Builder options = ConsumerOptions.builder();
        a.apply(RmqAttribute.MAX_RETRIES, a.integer(RmqAttribute.MAX_RETRIES), options::maxRetries);
        a.apply(RmqAttribute.PREPARE_TIMEOUT, a.millis(RmqAttribute.PREPARE_TIMEOUT), options::prepareTimeout);
        a.apply(RmqAttribute.BATCH_SIZE, a.integer(RmqAttribute.BATCH_SIZE), options::batchSize);
        a.apply(RmqAttribute.RETRY_BACKOFF, a.millis(RmqAttribute.RETRY_BACKOFF), options::retryBackoff);
        a.apply(RmqAttribute.RETRY_BACKOFF_MAX, a.millis(RmqAttribute.RETRY_BACKOFF_MAX), options::retryBackoffMax);
        a.apply(RmqAttribute.POLL_INTERVAL, a.millis(RmqAttribute.POLL_INTERVAL), options::pollInterval);
        a.apply(RmqAttribute.SHUTDOWN_TIMEOUT, a.millis(RmqAttribute.SHUTDOWN_TIMEOUT), options::shutdownTimeout);
        a.apply(RmqAttribute.DEAD_MAX_COUNT, a.integer(RmqAttribute.DEAD_MAX_COUNT), options::deadMaxCount);
        a.apply(RmqAttribute.DEAD_MAX_AGE, a.millis(RmqAttribute.DEAD_MAX_AGE), options::deadMaxAge);
        options.expiredToDead(a.flag(RmqAttribute.EXPIRED_TO_DEAD));
        options.rateLimit(rateLimit(a));
        options.priorityAging(AgingAttributes.priorityAging(a, common.topic()));
        options.adaptiveSlowDown(adaptiveSlowDown(a));
        FairShare fairShare = fairShare(a);
        KeyLimits keyLimits = KeyLimitAttributes.keyLimits(a);
        if (fairShare.on() && keyLimits.on()) {
            a.problem(RmqAttribute.FAIR_SHARE, "true", "a channel limits keys or shares between tenants, not both: remove "
                    + RmqAttribute.KEY_CONCURRENCY.attributeName() + " and " + RmqAttribute.KEY_RATE_LIMIT.attributeName()
                    + ", or " + RmqAttribute.FAIR_SHARE.attributeName());
        }
        options.fairShare(fairShare);
        options.keyLimits(keyLimits);
        options.coordination(CoordinationAttributes.coordination(a));
        PayloadType payloadType = a.payloadType();
        FailureStrategy failureStrategy = a.failureStrategy();
        boolean batch = a.flag(RmqAttribute.BATCH);
        Common withCodec = common.withCodec(a);
        if (a.hasProblems()) {
            return null;
        }
        return new IncomingChannelConfig(withCodec, options.build(), payloadType, failureStrategy, batch);
    }

    /** The channel's fair-share settings; a problem recorded when they cannot be read. */
    private static FairShare fairShare(ChannelAttributes a) {
        boolean on = a.flag(RmqAttribute.FAIR_SHARE);
        Optional<String> weights = a.raw(RmqAttribute.TENANT_WEIGHTS);
        if (!on) {
            weights.ifPresent(w -> a.problem(RmqAttribute.TENANT_WEIGHTS, w,
                    "it applies only with " + RmqAttribute.FAIR_SHARE.attributeName() + "=true"));
            return FairShare.OFF;
        }
        try {
            return FairShare.of(true, weights.orElse(null));
        } catch (IllegalArgumentException e) {
            a.problem(RmqAttribute.TENANT_WEIGHTS, weights.orElse(""),
                    "<tenant>:<weight>,... with weights above 0 is required, e.g. a:3,b:1 (" + e.getMessage() + ")");
            return FairShare.OFF;
        }
    }

    /** The channel's rate limit, {@code null} without one; a problem recorded when it cannot be read. */
    private static FlowLimit rateLimit(ChannelAttributes a) {
        Optional<String> rate = a.raw(RmqAttribute.RATE_LIMIT);
        int burst = a.integer(RmqAttribute.RATE_LIMIT_BURST);
        if (rate.isEmpty()) {
            if (burst > 0) { // a burst of 0, the default, is no mistake
                a.problem(RmqAttribute.RATE_LIMIT_BURST, Integer.toString(burst),
                        "it applies only with " + RmqAttribute.RATE_LIMIT.attributeName() + ", which is not set");
            }
            return null;
        }
        try {
            return FlowLimit.parse(rate.get(), burst);
        } catch (IllegalArgumentException e) {
            a.problem(RmqAttribute.RATE_LIMIT, rate.get(),
                    "<amount>/s, <amount>/m or <amount>/h with an amount above 0 is required, e.g. 500/s");
            return null;
        }
    }

    /** The channel's adaptive slow-down, {@code null} without one; a problem recorded when it cannot be read. */
    private static AdaptiveSlowDown adaptiveSlowDown(ChannelAttributes a) {
        OptionalDouble threshold = a.optionalFiniteDouble(RmqAttribute.ADAPTIVE_FAILURE_THRESHOLD);
        Optional<String> floor = a.raw(RmqAttribute.ADAPTIVE_FLOOR);
        if (!a.flag(RmqAttribute.ADAPTIVE_SLOW_DOWN)) {
            // the default threshold, written out, is no mistake
            boolean thresholdSet = threshold.isPresent() && threshold.getAsDouble() != AdaptiveSlowDown.DEFAULT_FAILURE_THRESHOLD;
            if (thresholdSet || floor.isPresent()) {
                RmqAttribute set = thresholdSet ? RmqAttribute.ADAPTIVE_FAILURE_THRESHOLD : RmqAttribute.ADAPTIVE_FLOOR;
                a.problem(set, a.raw(set).orElse(""), "it applies only with "
                        + RmqAttribute.ADAPTIVE_SLOW_DOWN.attributeName() + "=true, which is not set");
            }
            return null;
        }
        double ratio = threshold.orElse(AdaptiveSlowDown.DEFAULT_FAILURE_THRESHOLD);
        if (!(ratio > 0 && ratio < 1)) {
            a.problem(RmqAttribute.ADAPTIVE_FAILURE_THRESHOLD, Double.toString(ratio),
                    "a ratio above 0 and below 1 is required, e.g. 0.5");
            return null;
        }
        double perSecond = 0;
        if (floor.isPresent()) {
            try {
                perSecond = FlowLimit.parse(floor.get(), 0).perSecond();
            } catch (IllegalArgumentException e) {
                a.problem(RmqAttribute.ADAPTIVE_FLOOR, floor.get(),
                        "<amount>/s, <amount>/m or <amount>/h with an amount above 0 is required, e.g. 5/s");
                return null;
            }
        }
        return new AdaptiveSlowDown(ratio, perSecond);
    }

    /** How the topic is consumed: retries, timeouts, batch size, polling. */
    public ConsumerOptions consumerOptions() {
        return consumerOptions;
    }

    /** The payload type of received messages when there is no codec. Default {@link PayloadType#STRING}. */
    public PayloadType payloadType() {
        return payloadType;
    }

    /** What a failed message becomes. Default {@link FailureStrategy#RETRY}. */
    public FailureStrategy failureStrategy() {
        return failureStrategy;
    }

    /** Whether each message carries a {@code List} of the payloads popped together. Default {@code false}. */
    public boolean batch() {
        return batch;
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
        return "IncomingChannelConfig[" + commonAttributes() + ", " + consumerOptions + ", payloadType="
                + payloadType.attributeValue() + ", failureStrategy=" + failureStrategy.attributeValue() + ", batch="
                + batch + "]";
    }
}
