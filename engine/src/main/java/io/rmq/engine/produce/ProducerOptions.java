package io.rmq.engine.produce;

import java.time.Duration;
import java.util.Objects;

import io.rmq.engine.i18n.EngineArguments;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.topic.PriorityAging;

/**
 * How a {@link TopicProducer} confirms its sends. By default a send completes once the master has stored
 * or merged it. With {@link Builder#durableReplicas(int) durableReplicas} {@code n > 0}, a send completes
 * only once Redis reports that at least {@code n} replicas have received the write ({@code WAIT n timeout}),
 * and fails with {@link DurabilityException} (RMQ-0370) when they have not within
 * {@link Builder#durabilityTimeout(Duration) durabilityTimeout}: the write itself may then be kept or not.
 *
 * <p>A durable producer writes on a connection of its own, since {@code WAIT} blocks the connection it runs
 * on and covers every earlier write of that connection (on a Redis Cluster: a connection of its own to each
 * master, where the {@code WAIT} runs on the node that took the writes); the sends that arrive while a
 * {@code WAIT} is under way are confirmed together by the next one.
 *
 * <p>{@link Builder#priorityAging(PriorityAging) priorityAging} gives the starting pace of priority aging of a
 * {@code PRIORITY} topic ({@link TopicProducer#updatePriorityAging} changes it). Immutable and thread-safe.
 */
public final class ProducerOptions {

    /** Default of {@link Builder#durableReplicas(int)}: 0, a send is confirmed by the master alone. */
    public static final int DEFAULT_DURABLE_REPLICAS = 0;
    /** Default of {@link Builder#durabilityTimeout(Duration)}: 1 s. */
    public static final Duration DEFAULT_DURABILITY_TIMEOUT = Duration.ofSeconds(1);
    /**
     * The longest durability timeout: half the command timeout ({@link RedisAccess#DEFAULT_COMMAND_TIMEOUT}), so
     * that a send queued behind a {@code WAIT} is not timed out by the client.
     */
    public static final Duration MAX_DURABILITY_TIMEOUT = RedisAccess.DEFAULT_COMMAND_TIMEOUT.dividedBy(2);
    /** The largest number of replicas one may ask for. */
    public static final int MAX_DURABLE_REPLICAS = 1000;

    private static final ProducerOptions DEFAULTS = builder().build();

    private final int durableReplicas;
    private final Duration durabilityTimeout;
    private final PriorityAging priorityAging;

    private ProducerOptions(Builder b) {
        this.durableReplicas = b.durableReplicas;
        this.durabilityTimeout = b.durabilityTimeout;
        this.priorityAging = b.priorityAging;
    }

    /** The defaults: sends confirmed by the master alone. */
    public static ProducerOptions defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these options. */
    public Builder toBuilder() {
        return builder().durableReplicas(durableReplicas).durabilityTimeout(durabilityTimeout)
                .priorityAging(priorityAging);
    }

    /** Replicas that must have received a write before its send completes; 0: none. */
    public int durableReplicas() {
        return durableReplicas;
    }

    /** Whether sends wait for replicas ({@link #durableReplicas()} > 0). */
    public boolean durable() {
        return durableReplicas > 0;
    }

    /** How long a send waits for its replicas before it fails. */
    public Duration durabilityTimeout() {
        return durabilityTimeout;
    }

    /** The starting priority aging ({@link PriorityAging#OFF} by default); its epoch is the topic's. */
    public PriorityAging priorityAging() {
        return priorityAging;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProducerOptions other && durableReplicas == other.durableReplicas
                && durabilityTimeout.equals(other.durabilityTimeout) && priorityAging.equals(other.priorityAging);
    }

    @Override
    public int hashCode() {
        return Objects.hash(durableReplicas, durabilityTimeout, priorityAging);
    }

    @Override
    public String toString() {
        String aging = priorityAging.on() ? ", priorityAging=" + priorityAging.pacePerMilli() + "/ms" : "";
        return durable() ? "ProducerOptions[durableReplicas=" + durableReplicas + ", durabilityTimeout="
                + durabilityTimeout.toMillis() + " ms" + aging + "]" : "ProducerOptions[durableReplicas=0" + aging + "]";
    }

    /** Builds {@link ProducerOptions}; each setter checks its argument. Not thread-safe. */
    public static final class Builder {
        private int durableReplicas = DEFAULT_DURABLE_REPLICAS;
        private Duration durabilityTimeout = DEFAULT_DURABILITY_TIMEOUT;
        private PriorityAging priorityAging = PriorityAging.OFF;

        private Builder() {
        }

        /**
         * The starting priority aging of a {@code PRIORITY} topic's sends (for example
         * {@code PriorityAging.parse("1/10s")}); its epoch is ignored: the topic's is used. Default off.
         */
        public Builder priorityAging(PriorityAging aging) {
            this.priorityAging = Objects.requireNonNull(aging, "aging");
            return this;
        }

        /**
         * Replicas that must have received a write before its send completes, from 0 to
         * {@value #MAX_DURABLE_REPLICAS}. Default {@value #DEFAULT_DURABLE_REPLICAS}.
         */
        public Builder durableReplicas(int replicas) {
            if (replicas < 0 || replicas > MAX_DURABLE_REPLICAS) {
                throw EngineArguments.arg.durableReplicasOutOfRange(replicas, MAX_DURABLE_REPLICAS);
            }
            this.durableReplicas = replicas;
            return this;
        }

        /** How long a send waits for its replicas, from 1 ms to 5 s ({@link #MAX_DURABILITY_TIMEOUT}). Default 1 s. */
        public Builder durabilityTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.toMillis() < 1 || timeout.compareTo(MAX_DURABILITY_TIMEOUT) > 0) {
                throw EngineArguments.arg.durabilityTimeoutOutOfRange(timeout.toMillis(), MAX_DURABILITY_TIMEOUT.toMillis());
            }
            this.durabilityTimeout = timeout;
            return this;
        }

        public ProducerOptions build() {
            return new ProducerOptions(this);
        }
    }
}
