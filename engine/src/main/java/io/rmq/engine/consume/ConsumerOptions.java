package io.rmq.engine.consume;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

import io.rmq.engine.consume.flow.AdaptiveSlowDown;
import io.rmq.engine.consume.flow.FlowLimit;
import io.rmq.engine.topic.FairShare;
import io.rmq.engine.topic.KeyLimits;
import io.rmq.engine.coordination.CoordinationOptions;
import io.rmq.engine.i18n.EngineArguments;
import io.rmq.engine.scripts.TopicScripts.RetryRule;
import io.rmq.engine.settlement.SettlementPolicy;
import io.rmq.engine.topic.PriorityAging;

/**
 * How a {@link TopicConsumer} pops, retries, shuts down and, optionally, coordinates with the other
 * consumers of its topic. Immutable; build with {@link #builder()}, copy with {@link #toBuilder()}.
 */
public final class ConsumerOptions {

    /** Retries before the dead queue: a message is delivered at most {@code 1 + maxRetries} times. */
    public static final int DEFAULT_MAX_RETRIES = 16;
    /** Default of {@link Builder#traceLinks(int)}. */
    public static final int DEFAULT_TRACE_LINKS = 32;
    /** How long a popped message may stay unacknowledged before it is rolled back. */
    public static final Duration DEFAULT_PREPARE_TIMEOUT = Duration.ofSeconds(30);
    /**
     * Most members one pop script call may move, also the most messages a consumer holds popped but not yet
     * delivered: enough for one consumer to keep Redis busy (the pop of the next batch overlaps the delivery
     * of this one), small enough that a consumer takes few messages ahead of its peers.
     */
    public static final int DEFAULT_BATCH_SIZE = 128;
    /** Delay before the first retry of a RANGE_MERGE or FIXED_TIME message; doubles per retry. */
    public static final Duration DEFAULT_RETRY_BACKOFF = Duration.ofSeconds(1);
    /** The cap of the retry backoff. */
    public static final Duration DEFAULT_RETRY_BACKOFF_MAX = Duration.ofSeconds(60);
    /** The safety poll of an idle slot, in case a wake notice was missed. */
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(5);
    /** How long a stopping consumer waits for the messages the application is processing. */
    public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(10);
    /** Most messages a slot's dead queue keeps; the oldest deaths beyond are deleted. */
    public static final int DEFAULT_DEAD_MAX_COUNT = 10_000;
    /** How long a dead message is kept. */
    public static final Duration DEFAULT_DEAD_MAX_AGE = Duration.ofDays(180);

    private final int maxRetries;
    private final Duration prepareTimeout;
    private final int batchSize;
    private final Duration retryBackoff;
    private final Duration retryBackoffMax;
    private final Duration pollInterval;
    private final Duration shutdownTimeout;
    private final int deadMaxCount;
    private final Duration deadMaxAge;
    private final CoordinationOptions coordination;
    private final boolean expiredToDead;
    private final boolean traced;
    private final int traceLinks;
    private final FlowLimit rateLimit;
    private final PriorityAging priorityAging;
    private final AdaptiveSlowDown adaptiveSlowDown;
    private final FairShare fairShare;
    private final KeyLimits keyLimits;

    private ConsumerOptions(Builder b) {
        this.maxRetries = b.maxRetries;
        this.prepareTimeout = b.prepareTimeout;
        this.batchSize = b.batchSize;
        this.retryBackoff = b.retryBackoff;
        this.retryBackoffMax = b.retryBackoffMax;
        this.pollInterval = b.pollInterval;
        this.shutdownTimeout = b.shutdownTimeout;
        this.deadMaxCount = b.deadMaxCount;
        this.deadMaxAge = b.deadMaxAge;
        this.coordination = b.coordination;
        this.expiredToDead = b.expiredToDead;
        this.traced = b.traced;
        this.traceLinks = b.traceLinks;
        this.rateLimit = b.rateLimit;
        this.priorityAging = b.priorityAging;
        this.adaptiveSlowDown = b.adaptiveSlowDown;
        this.fairShare = b.fairShare;
        this.keyLimits = b.keyLimits;
    }

    public static Builder builder() {
        return new Builder();
    }

    public static ConsumerOptions defaults() {
        return builder().build();
    }

    public Builder toBuilder() {
        return new Builder().maxRetries(maxRetries).prepareTimeout(prepareTimeout).batchSize(batchSize)
                .retryBackoff(retryBackoff).retryBackoffMax(retryBackoffMax).pollInterval(pollInterval)
                .shutdownTimeout(shutdownTimeout).deadMaxCount(deadMaxCount).deadMaxAge(deadMaxAge)
                .coordination(coordination).expiredToDead(expiredToDead).traced(traced).traceLinks(traceLinks)
                .rateLimit(rateLimit).priorityAging(priorityAging).adaptiveSlowDown(adaptiveSlowDown).fairShare(fairShare)
                .keyLimits(keyLimits);
    }

    public int maxRetries() {
        return maxRetries;
    }

    /** What settling this consumer's deliveries follows: its retries and its prepare timeout. */
    public SettlementPolicy settlementPolicy() {
        return new SettlementPolicy(new RetryRule(maxRetries, retryBackoff.toMillis(), retryBackoffMax.toMillis()),
                prepareTimeout, traced, traceLinks);
    }

    public Duration prepareTimeout() {
        return prepareTimeout;
    }

    public int batchSize() {
        return batchSize;
    }

    public Duration retryBackoff() {
        return retryBackoff;
    }

    public Duration retryBackoffMax() {
        return retryBackoffMax;
    }

    public Duration pollInterval() {
        return pollInterval;
    }

    public Duration shutdownTimeout() {
        return shutdownTimeout;
    }

    /** Most messages a slot's dead queue keeps (retention; see {@link ExpiredMessageSweeper}). */
    public int deadMaxCount() {
        return deadMaxCount;
    }

    /** How long a dead message is kept (retention; see {@link ExpiredMessageSweeper}). */
    public Duration deadMaxAge() {
        return deadMaxAge;
    }

    /**
     * How the consumer coordinates through ZooKeeper so that each slot is consumed by one consumer at
     * a time across the cluster; empty (the default) for competing consumers on every slot.
     */
    public Optional<CoordinationOptions> coordination() {
        return Optional.ofNullable(coordination);
    }

    /**
     * Whether the messages this consumer's pops (and the sweeper it starts) find expired are kept in the dead queue,
     * with the failure {@code expired}, rather than dropped. Default false.
     */
    public boolean expiredToDead() {
        return expiredToDead;
    }

    /** Whether pops take out the popped messages' trace entries ({@code Delivery#trace()}). */
    public boolean traced() {
        return traced;
    }

    /** The most send contexts a trace entry given back by a rollback or a release keeps. */
    public int traceLinks() {
        return traceLinks;
    }

    /**
     * The topic rate limit this consumer starts with, if one is configured: its pops are then held to the limit
     * kept in Redis for the topic, cluster-wide. Empty: the consumer pops unthrottled and pays nothing for it.
     */
    public Optional<FlowLimit> rateLimit() {
        return Optional.ofNullable(rateLimit);
    }

    /**
     * The priority aging of the topic this consumer starts with ({@link PriorityAging#OFF} by default): with aging on,
     * its commits and rollbacks forget the first send times of the members that leave the slot (see
     * {@link TopicConsumer#updatePriorityAging}).
     */
    public PriorityAging priorityAging() {
        return priorityAging;
    }

    /**
     * The adaptive slow-down this consumer runs, if configured: it reports its deliveries' outcomes to the topic's
     * limiter, which slows the topic down while too many fail. Empty: the consumer runs it only if the topic's
     * flow hash switches it on ({@code a.on}).
     */
    public Optional<AdaptiveSlowDown> adaptiveSlowDown() {
        return Optional.ofNullable(adaptiveSlowDown);
    }

    /**
     * The fair-share settings this consumer starts with ({@link FairShare#OFF} by default): on, its pops serve each
     * slot's tenants by weight; {@code TopicConsumer.updateFairShare} changes them.
     */
    public FairShare fairShare() {
        return fairShare;
    }

    /**
     * The limits per key this consumer starts with ({@link KeyLimits#NONE}: none): with a limit it pops with
     * {@code pop_flow.lua}, holding back the messages of keys at their limit; without, it pays nothing for it.
     */
    public KeyLimits keyLimits() {
        return keyLimits;
    }

    @Override
    public String toString() {
        return "ConsumerOptions[maxRetries=" + maxRetries + ", prepareTimeout=" + prepareTimeout + ", batchSize="
                + batchSize + ", retryBackoff=" + retryBackoff + ", retryBackoffMax=" + retryBackoffMax
                + ", pollInterval=" + pollInterval + ", shutdownTimeout=" + shutdownTimeout + ", deadMaxCount=" + deadMaxCount + ", deadMaxAge=" + deadMaxAge
                + ", expiredToDead=" + expiredToDead + ", traced=" + traced + ", rateLimit=" + (rateLimit == null ? "none" : rateLimit)
                + (priorityAging.on() ? ", priorityAging=" + priorityAging.pacePerMilli() + "/ms" : "")
                + ", adaptiveSlowDown=" + (adaptiveSlowDown == null ? "none" : adaptiveSlowDown)
                + ", fairShare=" + fairShare
                + ", keyLimits=" + keyLimits
                + ", coordination="
                + (coordination == null ? "none" : coordination) + "]";
    }

    /** Builds {@link ConsumerOptions}; every setter validates its argument. Not thread-safe. */
    public static final class Builder {
        private int maxRetries = DEFAULT_MAX_RETRIES;
        private Duration prepareTimeout = DEFAULT_PREPARE_TIMEOUT;
        private int batchSize = DEFAULT_BATCH_SIZE;
        private Duration retryBackoff = DEFAULT_RETRY_BACKOFF;
        private Duration retryBackoffMax = DEFAULT_RETRY_BACKOFF_MAX;
        private Duration pollInterval = DEFAULT_POLL_INTERVAL;
        private Duration shutdownTimeout = DEFAULT_SHUTDOWN_TIMEOUT;
        private int deadMaxCount = DEFAULT_DEAD_MAX_COUNT;
        private Duration deadMaxAge = DEFAULT_DEAD_MAX_AGE;
        private CoordinationOptions coordination;
        private boolean expiredToDead;
        private boolean traced;
        private int traceLinks = DEFAULT_TRACE_LINKS;
        private FlowLimit rateLimit;
        private PriorityAging priorityAging = PriorityAging.OFF;
        private AdaptiveSlowDown adaptiveSlowDown;
        private FairShare fairShare = FairShare.OFF;
        private KeyLimits keyLimits = KeyLimits.NONE;

        private Builder() {
        }

        /** Retries before the dead queue, {@code >= 0}. Default 16. */
        public Builder maxRetries(int maxRetries) {
            if (maxRetries < 0) {
                throw EngineArguments.arg.negativeCount("maxRetries", maxRetries);
            }
            this.maxRetries = maxRetries;
            return this;
        }

        /** Time a popped message may stay unacknowledged, at least 100 ms. Default 30 s. */
        public Builder prepareTimeout(Duration prepareTimeout) {
            this.prepareTimeout = atLeast("prepareTimeout", prepareTimeout, Duration.ofMillis(100));
            return this;
        }

        /** Most members per pop, from 1 to 10000. Default 32. */
        public Builder batchSize(int batchSize) {
            if (batchSize < 1 || batchSize > 10_000) {
                throw EngineArguments.arg.batchSizeOutOfRange(batchSize, 10_000);
            }
            this.batchSize = batchSize;
            return this;
        }

        /** First retry delay of timed messages, {@code >= 0}. Default 1 s. */
        public Builder retryBackoff(Duration retryBackoff) {
            this.retryBackoff = atLeast("retryBackoff", retryBackoff, Duration.ZERO);
            return this;
        }

        /** Cap of the retry delay, {@code >= 0}. Default 60 s. */
        public Builder retryBackoffMax(Duration retryBackoffMax) {
            this.retryBackoffMax = atLeast("retryBackoffMax", retryBackoffMax, Duration.ZERO);
            return this;
        }

        /** Safety poll of an idle slot, at least 10 ms. Default 5 s. */
        public Builder pollInterval(Duration pollInterval) {
            this.pollInterval = atLeast("pollInterval", pollInterval, Duration.ofMillis(10));
            return this;
        }

        /** Grace period for in-process messages at shutdown, {@code >= 0}. Default 10 s. */
        public Builder shutdownTimeout(Duration shutdownTimeout) {
            this.shutdownTimeout = atLeast("shutdownTimeout", shutdownTimeout, Duration.ZERO);
            return this;
        }

        /** Most messages a slot's dead queue keeps, {@code >= 0}; the oldest deaths beyond are deleted. Default 10000. */
        public Builder deadMaxCount(int deadMaxCount) {
            if (deadMaxCount < 0) {
                throw EngineArguments.arg.negativeCount("deadMaxCount", deadMaxCount);
            }
            this.deadMaxCount = deadMaxCount;
            return this;
        }

        /** How long a dead message is kept, at least 1 s. Default 180 days. */
        public Builder deadMaxAge(Duration deadMaxAge) {
            this.deadMaxAge = atLeast("deadMaxAge", deadMaxAge, Duration.ofSeconds(1));
            return this;
        }

        /**
         * Serial consumption per slot across the cluster, coordinated through ZooKeeper; {@code null}
         * (the default) for competing consumers on every slot. With coordination, the consumer also
         * hands a slot's next message to its listener only once the previous one is committed or
         * rolled back.
         */
        public Builder coordination(CoordinationOptions coordination) {
            this.coordination = coordination;
            return this;
        }

        /** Keep expired messages in the dead queue (failure {@code expired}) instead of dropping them. Default false. */
        public Builder expiredToDead(boolean expiredToDead) {
            this.expiredToDead = expiredToDead;
            return this;
        }

        /**
         * Pops take out the popped messages' trace entries, to be read ({@code Delivery#trace()}) and given back with
         * a rollback or a release (see {@code docs/tracing.md}). Default false: pops do not read the trace hash.
         */
        public Builder traced(boolean traced) {
            this.traced = traced;
            return this;
        }

        /** The most send contexts a trace entry given back keeps (>= 0). Default {@value #DEFAULT_TRACE_LINKS}. */
        public Builder traceLinks(int traceLinks) {
            if (traceLinks < 0) {
                throw EngineArguments.arg.negativeCount("traceLinks", traceLinks);
            }
            this.traceLinks = traceLinks;
            return this;
        }

        /** The fair-share settings to start with; {@code null}: {@link FairShare#OFF}. */
        public Builder fairShare(FairShare fairShare) {
            this.fairShare = fairShare == null ? FairShare.OFF : fairShare;
            return this;
        }

        /** Holds the consumer's pops to the topic's rate limit, starting with {@code rateLimit}; {@code null}: none. */
        public Builder rateLimit(FlowLimit rateLimit) {
            this.rateLimit = rateLimit;
            return this;
        }

        /** The topic's priority aging to start with (its epoch is the topic's); default off. */
        public Builder priorityAging(PriorityAging aging) {
            this.priorityAging = Objects.requireNonNull(aging, "aging");
            return this;
        }

        /** Runs the adaptive slow-down with these settings; {@code null}: as the topic's flow hash says. */
        public Builder adaptiveSlowDown(AdaptiveSlowDown adaptiveSlowDown) {
            this.adaptiveSlowDown = adaptiveSlowDown;
            return this;
        }

        /** Limits the consumer's messages per key, starting with {@code keyLimits}; {@code null}: none. */
        public Builder keyLimits(KeyLimits keyLimits) {
            this.keyLimits = keyLimits == null ? KeyLimits.NONE : keyLimits;
            return this;
        }

        public ConsumerOptions build() {
            return new ConsumerOptions(this);
        }

        private static Duration atLeast(String name, Duration value, Duration min) {
            Objects.requireNonNull(value, name);
            if (value.compareTo(min) < 0) {
                throw EngineArguments.arg.durationTooShort(name, min.toMillis(), value.toMillis());
            }
            return value;
        }

    }
}
