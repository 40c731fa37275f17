package io.rmq.connector.config;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import org.eclipse.microprofile.config.Config;

import io.rmq.engine.produce.ProducerOptions;
import io.rmq.engine.topic.KeyLimits;

/**
 * The checked configuration of one outgoing channel: beside what every channel has ({@link ChannelConfig}),
 * the defaults for messages whose metadata lacks a time range or priority, the bounds of what it writes, and
 * how sends are confirmed. Immutable and thread-safe (the codec, if any, must be thread-safe itself).
 *
 * <p>Created from the channel's {@link Config} as the runtime gives it to the connector, where
 * channel-level attributes already take precedence over connector-level ones.
 */
public final class OutgoingChannelConfig extends ChannelConfig {

    /** Default of {@code max-inflight}: most messages one outgoing channel writes to Redis at once. */
    public static final int DEFAULT_MAX_INFLIGHT = 1024;
    /** Default of {@code max-message-size}: the most bytes one message's content may have (1 MiB). */
    public static final int DEFAULT_MAX_MESSAGE_SIZE = 1024 * 1024;
    /** The largest {@code max-message-size}: Redis's limit on a string (512 MiB). */
    public static final int MAX_MAX_MESSAGE_SIZE = 512 * 1024 * 1024;

    private final Optional<Duration> defaultTimeRange;
    private final OptionalDouble defaultPriority;
    private final int maxInflight;
    private final int maxMessageSize;
    private final ProducerOptions producerOptions;
    private final Optional<Duration> defaultTimeToLive;
    private final List<ScheduleDeclaration> schedules;
    private final Pattern tenantFromKey;
    private final KeyLimits keyLimits;

    private OutgoingChannelConfig(Common common, Optional<Duration> defaultTimeRange, OptionalDouble defaultPriority,
            int maxInflight, int maxMessageSize, ProducerOptions producerOptions, Optional<Duration> defaultTimeToLive,
            List<ScheduleDeclaration> schedules, Pattern tenantFromKey, KeyLimits keyLimits) {
        super(common);
        this.tenantFromKey = tenantFromKey;
        this.defaultTimeToLive = defaultTimeToLive;
        this.defaultTimeRange = defaultTimeRange;
        this.defaultPriority = defaultPriority;
        this.maxInflight = maxInflight;
        this.maxMessageSize = maxMessageSize;
        this.producerOptions = producerOptions;
        this.schedules = List.copyOf(schedules);
        this.keyLimits = keyLimits;
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
        Common common = Common.read(a);
        Optional<Duration> timeRange = a.optionalMillis(RmqAttribute.TIME_RANGE);
        OptionalDouble priority = a.optionalFiniteDouble(RmqAttribute.PRIORITY);
        Optional<Duration> timeToLive = a.optionalMillis(RmqAttribute.TIME_TO_LIVE);
        int maxInflight = a.integer(RmqAttribute.MAX_INFLIGHT);
        int maxMessageSize = a.integer(RmqAttribute.MAX_MESSAGE_SIZE);
        Common withCodec = common.withCodec(a);
        ProducerOptions producerOptions = DurabilityAttributes.producerOptions(a).toBuilder()
                .priorityAging(AgingAttributes.priorityAging(a, common.topic())).build();
        List<ScheduleDeclaration> schedules = ScheduleAttributes.read(a);
        Pattern tenantFromKey = tenantFromKey(a);
        KeyLimits keyLimits = KeyLimitAttributes.keyLimits(a);
        if (common.topic() != null) {
            ScheduleAttributes.checkValues(a, schedules, common.topic().type(), priority, timeRange);
        }
        if (a.hasProblems()) {
            return null;
        }
        return new OutgoingChannelConfig(withCodec, timeRange, priority, maxInflight, maxMessageSize, producerOptions,
                timeToLive, schedules, tenantFromKey, keyLimits);
    }

    /** The {@code tenant-from-key} expression, {@code null} without one; a problem recorded when it cannot be used. */
    private static Pattern tenantFromKey(ChannelAttributes a) {
        Optional<String> regex = a.raw(RmqAttribute.TENANT_FROM_KEY);
        if (regex.isEmpty()) {
            return null;
        }
        try {
            Pattern pattern = Pattern.compile(regex.get());
            if (pattern.matcher("").groupCount() == 1) {
                return pattern;
            }
        } catch (PatternSyntaxException e) {
            // reported below
        }
        a.problem(RmqAttribute.TENANT_FROM_KEY, regex.get(),
                "a regular expression with exactly one group is required, e.g. ^([^:]+):");
        return null;
    }

    /**
     * The tenant of a message with slot basis {@code slotBasis} by {@code tenant-from-key}: the expression's group
     * where it finds a match, else empty (also without the attribute or a slot basis).
     */
    public Optional<String> tenantFromKey(String slotBasis) {
        if (tenantFromKey == null || slotBasis == null) {
            return Optional.empty();
        }
        Matcher m = tenantFromKey.matcher(slotBasis);
        return m.find() && m.group(1) != null && !m.group(1).isEmpty() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /** The time range of RANGE_MERGE messages whose metadata gives none ({@code time-range}); no default. */
    public Optional<Duration> defaultTimeRange() {
        return defaultTimeRange;
    }

    /** The priority of PRIORITY messages whose metadata gives none ({@code priority}); no default. */
    public OptionalDouble defaultPriority() {
        return defaultPriority;
    }

    /** The time to live of messages whose metadata gives no expiry ({@code time-to-live}); no default (they never expire). */
    public Optional<Duration> defaultTimeToLive() {
        return defaultTimeToLive;
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

    /**
     * How sends are confirmed: by the master alone (default, {@code durability=none}), or also by replicas
     * ({@code durability=replicas:<n>}, waiting up to {@code durability-timeout}).
     */
    public ProducerOptions producerOptions() {
        return producerOptions;
    }

    /**
     * The recurring schedules the channel declares ({@code schedules.<name>.<field>}, see docs/schedules.md):
     * recorded in Redis when the channel starts; every instance with an outgoing channel of the topic runs them.
     */
    public List<ScheduleDeclaration> schedules() {
        return schedules;
    }

    /**
     * The limits per key the channel names ({@code key-concurrency}, {@code key-rate-limit}); with any, each message
     * sent records its key (its flow key or slot basis) for the consumers' limits. {@link KeyLimits#NONE}: none.
     */
    public KeyLimits keyLimits() {
        return keyLimits;
    }

    /** The configuration with the Redis credentials masked. */
    @Override
    public String toString() {
        return "OutgoingChannelConfig[" + commonAttributes() + ", defaultTimeRange=" + defaultTimeRange.map(d -> d.toMillis() + " ms")
                        .orElse("none")
                + ", defaultPriority=" + (defaultPriority.isPresent() ? defaultPriority.getAsDouble() : "none")
                + ", defaultTimeToLive=" + defaultTimeToLive.map(d -> d.toMillis() + " ms").orElse("none")
                + ", maxInflight=" + maxInflight + ", maxMessageSize=" + maxMessageSize + ", durability="
                + (producerOptions.durable() ? "replicas:" + producerOptions.durableReplicas() + " within "
                        + producerOptions.durabilityTimeout().toMillis() + " ms" : "none")
                + (producerOptions.priorityAging().on() ? ", priorityAging=" + producerOptions.priorityAging()
                        .pacePerMilli() + "/ms" : "")
                + (schedules.isEmpty() ? "" : ", schedules=" + schedules.stream().map(ScheduleDeclaration::name).toList()) + "]";
    }
}
