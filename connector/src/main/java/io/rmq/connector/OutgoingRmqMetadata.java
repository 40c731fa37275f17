package io.rmq.connector;

import io.rmq.connector.i18n.RmqExceptions;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.StringJoiner;

/**
 * How an outgoing message is scored and routed. Attach it to a message's metadata; every field is
 * optional, but a field the topic's type does not use (a priority sent to a FIXED_TIME topic, say) gets
 * the message nacked, since it signals a message meant for another topic:
 * <ul>
 * <li>{@code RANGE_MERGE}: the {@linkplain #getTimeRange() time range} (due at now + range; a pending
 * duplicate keeps its first due time). Without one, the channel's {@code time-range} applies; with
 * neither, the message is nacked.</li>
 * <li>{@code PRIORITY}: the {@linkplain #getPriority() priority} (higher is consumed first). Without one,
 * the channel's {@code priority} applies; with neither, the message is nacked.</li>
 * <li>{@code FIXED_TIME}: the {@linkplain #getDeliverAt() delivery time} or a {@linkplain #getDelay()
 * delay} counted from when the message is sent. With neither, or with a time in the past, the message is
 * due at once.</li>
 * </ul>
 * Any type: an {@linkplain #getExpiresAt() expiry time} or a {@linkplain #getTimeToLive() time to live} (counted
 * on the Redis clock from when Redis stores the message): a message not delivered by then is never delivered.
 * Without either, the channel's {@code time-to-live} applies; with neither, the message does not expire. A
 * pending duplicate keeps the expiry of the send whose due time or priority stands (see {@code docs/lifecycle.md}).
 * The {@linkplain #getSlotBasis() slot basis} chooses the slot ({@code CRC32(UTF-8 bytes) mod slotAmount});
 * without one, the content bytes do. Messages that should merge or be consumed serially need equal bases.
 *
 * <p>Immutable and thread-safe. Build with {@link #builder()}, copy and change with {@link #toBuilder()}.
 */
public final class OutgoingRmqMetadata {

    /**
     * The latest delivery time, 9999-12-31T23:59:59.999Z: a later one is a mistake (a score Redis could
     * not hold to the millisecond, a message that would never come).
     */
    public static final Instant MAX_DELIVER_AT = Instant.parse("9999-12-31T23:59:59.999Z");
    /** The longest delay or time range, in ms: the span from the epoch to {@link #MAX_DELIVER_AT}. */
    public static final long MAX_DURATION_MILLIS = MAX_DELIVER_AT.toEpochMilli();
    /** The most characters of a slot basis. */
    public static final int MAX_SLOT_BASIS_LENGTH = 1024;

    private final Double priority;
    private final Instant deliverAt;
    private final Duration delay;
    private final Duration timeRange;
    private final String slotBasis;
    private final String flowKey;
    private final Instant expiresAt;
    private final Duration timeToLive;
    private final String tenant;

    private OutgoingRmqMetadata(Builder builder) {
        this.priority = builder.priority;
        this.deliverAt = builder.deliverAt;
        this.delay = builder.delay;
        this.timeRange = builder.timeRange;
        this.slotBasis = builder.slotBasis;
        this.flowKey = builder.flowKey;
        this.expiresAt = builder.expiresAt;
        this.timeToLive = builder.timeToLive;
        this.tenant = builder.tenant;
    }

    /**
     * A builder with no field set.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder holding every field of this metadata, to derive a changed copy.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.priority = priority;
        builder.deliverAt = deliverAt;
        builder.delay = delay;
        builder.timeRange = timeRange;
        builder.slotBasis = slotBasis;
        builder.flowKey = flowKey;
        builder.expiresAt = expiresAt;
        builder.timeToLive = timeToLive;
        builder.tenant = tenant;
        return builder;
    }

    /**
     * The priority of a message to a PRIORITY topic; higher is consumed first.
     *
     * @return the priority, a finite number, or empty
     */
    public OptionalDouble getPriority() {
        return priority == null ? OptionalDouble.empty() : OptionalDouble.of(priority);
    }

    /**
     * The delivery time of a message to a FIXED_TIME topic (millisecond precision, Redis clock).
     *
     * @return the delivery time, or empty
     */
    public Optional<Instant> getDeliverAt() {
        return Optional.ofNullable(deliverAt);
    }

    /**
     * The delay of a message to a FIXED_TIME topic, counted from when the message is sent.
     *
     * @return the delay, zero or positive, or empty
     */
    public Optional<Duration> getDelay() {
        return Optional.ofNullable(delay);
    }

    /**
     * The time range of a message to a RANGE_MERGE topic: the message is due that long after it is
     * first sent, and duplicates sent meanwhile merge into it.
     *
     * @return the time range, at least 1 ms, or empty
     */
    public Optional<Duration> getTimeRange() {
        return Optional.ofNullable(timeRange);
    }

    /**
     * The string whose CRC32 chooses the slot, instead of the content bytes: the slot basis set, or else the
     * {@linkplain #getFlowKey() flow key}.
     *
     * @return the slot basis, or empty
     */
    public Optional<String> getSlotBasis() {
        return Optional.ofNullable(slotBasis != null ? slotBasis : flowKey);
    }

    /**
     * The key the message counts against for the consumers' limits per key ({@code key-concurrency},
     * {@code key-rate-limit}); it is also the message's slot basis, so all messages of a key are in one slot.
     *
     * @return the flow key, or empty (the slot basis, if any, is the key)
     */
    public Optional<String> getFlowKey() {
        return Optional.ofNullable(flowKey);
    }

    /**
     * When the message expires (millisecond precision, Redis clock): not delivered by then, it is never delivered.
     *
     * @return the expiry time, or empty
     */
    public Optional<Instant> getExpiresAt() {
        return Optional.ofNullable(expiresAt);
    }

    /**
     * How long after Redis stores the message it expires: not delivered by then, it is never delivered.
     *
     * @return the time to live, at least 1 ms, or empty
     */
    public Optional<Duration> getTimeToLive() {
        return Optional.ofNullable(timeToLive);
    }

    /** Equal when every field is equal. */
    /**
     * The tenant the message is sent for (fair share between tenants, see {@code docs/flow-control.md}): it waits in
     * its tenant's queue of its slot, and consumers with fair share serve the tenants by weight.
     *
     * @return the tenant, or empty (the channel's {@code tenant-from-key} decides, else none)
     */
    public Optional<String> getTenant() {
        return Optional.ofNullable(tenant);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OutgoingRmqMetadata other
                && Objects.equals(priority, other.priority)
                && Objects.equals(deliverAt, other.deliverAt)
                && Objects.equals(delay, other.delay)
                && Objects.equals(timeRange, other.timeRange)
                && Objects.equals(slotBasis, other.slotBasis)
                && Objects.equals(flowKey, other.flowKey)
                && Objects.equals(expiresAt, other.expiresAt)
                && Objects.equals(timeToLive, other.timeToLive)
                && Objects.equals(tenant, other.tenant);
    }

    /** Consistent with {@link #equals(Object)}. */
    @Override
    public int hashCode() {
        return Objects.hash(priority, deliverAt, delay, timeRange, slotBasis, flowKey, expiresAt, timeToLive, tenant);
    }

    /** The fields that are set, e.g. {@code OutgoingRmqMetadata[priority=5.0, slotBasis=sku-1]}. */
    @Override
    public String toString() {
        StringJoiner fields = new StringJoiner(", ", "OutgoingRmqMetadata[", "]");
        if (priority != null) {
            fields.add("priority=" + priority);
        }
        if (deliverAt != null) {
            fields.add("deliverAt=" + deliverAt);
        }
        if (delay != null) {
            fields.add("delay=" + delay);
        }
        if (timeRange != null) {
            fields.add("timeRange=" + timeRange);
        }
        if (slotBasis != null) {
            fields.add("slotBasis=" + slotBasis);
        }
        if (flowKey != null) {
            fields.add("flowKey=" + flowKey);
        }
        if (expiresAt != null) {
            fields.add("expiresAt=" + expiresAt);
        }
        if (timeToLive != null) {
            fields.add("timeToLive=" + timeToLive);
        }
        if (tenant != null) {
            fields.add("tenant=" + tenant);
        }
        return fields.toString();
    }

    /**
     * Builds {@link OutgoingRmqMetadata}. Every setter checks its argument and throws
     * {@link IllegalArgumentException} when it cannot be used; no field has a default (an unset field
     * leaves the choice to the channel). Not thread-safe.
     */
    public static final class Builder {
        private Double priority;
        private Instant deliverAt;
        private Duration delay;
        private Duration timeRange;
        private String slotBasis;
        private String flowKey;
        private Instant expiresAt;
        private Duration timeToLive;
        private String tenant;

        private Builder() {
        }

        /**
         * Sets the priority of a message to a PRIORITY topic; higher is consumed first, and a pending
         * duplicate takes the last priority sent. Not set by default.
         *
         * @param priority a finite number (not NaN nor infinite)
         * @return this builder
         */
        public Builder withPriority(double priority) {
            if (!Double.isFinite(priority)) {
                throw RmqExceptions.ex.invalidMetadataValue("priority", priority, "a finite number is required");
            }
            this.priority = priority;
            return this;
        }

        /**
         * Sets the delivery time of a message to a FIXED_TIME topic; a time in the past means due at once.
         * Not set by default; do not combine with {@link #withDelay(Duration)}.
         *
         * @param deliverAt the time, representable in epoch milliseconds and not after {@link #MAX_DELIVER_AT}
         * @return this builder
         */
        public Builder withDeliverAt(Instant deliverAt) {
            requireNonNull("deliverAt", deliverAt);
            try {
                deliverAt.toEpochMilli();
            } catch (ArithmeticException e) {
                throw RmqExceptions.ex.invalidMetadataValue("deliverAt", deliverAt,
                        "a time representable in epoch milliseconds is required");
            }
            if (deliverAt.isAfter(MAX_DELIVER_AT)) {
                throw RmqExceptions.ex.invalidMetadataValue("deliverAt", deliverAt,
                        "a time not after " + MAX_DELIVER_AT + " is required");
            }
            this.deliverAt = deliverAt;
            return this;
        }

        /**
         * Sets the delay of a message to a FIXED_TIME topic: it is due that long after it is sent (the
         * delay is resolved when the channel sends the message, not now). Not set by default; do not
         * combine with {@link #withDeliverAt(Instant)}.
         *
         * @param delay zero or positive, at most {@link #MAX_DURATION_MILLIS} ms
         * @return this builder
         */
        public Builder withDelay(Duration delay) {
            this.delay = requireMillis("delay", delay, 0, "a duration from 0 to " + MAX_DURATION_MILLIS
                    + " ms is required");
            return this;
        }

        /**
         * Sets the time range of a message to a RANGE_MERGE topic: the message is due that long after it
         * is first sent, and duplicates sent meanwhile merge into it. Not set by default (the channel's
         * {@code time-range} applies).
         *
         * @param timeRange at least 1 ms, at most {@link #MAX_DURATION_MILLIS} ms
         * @return this builder
         */
        public Builder withTimeRange(Duration timeRange) {
            this.timeRange = requireMillis("timeRange", timeRange, 1, "a duration from 1 to " + MAX_DURATION_MILLIS
                    + " ms is required");
            return this;
        }

        /**
         * Sets the string whose CRC32 (of its UTF-8 bytes) chooses the slot, e.g. a product id. Not set by
         * default (the content bytes choose the slot).
         *
         * @param slotBasis a string of 1 to {@value #MAX_SLOT_BASIS_LENGTH} characters (an empty one is
         *                  refused: it is usually a missing id, and would route every such message to one slot)
         * @return this builder
         */
        public Builder withSlotBasis(String slotBasis) {
            requireNonNull("slotBasis", slotBasis);
            if (slotBasis.isEmpty() || slotBasis.length() > MAX_SLOT_BASIS_LENGTH) {
                throw RmqExceptions.ex.invalidMetadataValue("slotBasis", slotBasis.length() > 64
                        ? slotBasis.substring(0, 64) + "... (" + slotBasis.length() + " characters)" : slotBasis,
                        "a string of 1 to " + MAX_SLOT_BASIS_LENGTH + " characters is required; leave it unset to"
                                + " route by the content");
            }
            this.slotBasis = slotBasis;
            return this;
        }

        /**
         * Sets the tenant the message is sent for (fair share between tenants, see {@code docs/flow-control.md}): it
         * waits in its tenant's queue of its slot and merges only with that tenant's pending duplicate; consumers
         * with {@code fair-share=true} serve each slot's tenants by weight. Not set by default (the channel's
         * {@code tenant-from-key} applies, else none). A message with a tenant cannot carry an expiry.
         *
         * @param tenant a string of 1 to {@value #MAX_SLOT_BASIS_LENGTH} characters
         * @return this builder
         */
        public Builder withTenant(String tenant) {
            requireNonNull("tenant", tenant);
            if (tenant.isEmpty() || tenant.length() > MAX_SLOT_BASIS_LENGTH) {
                throw RmqExceptions.ex.invalidMetadataValue("tenant", tenant.length() > 64
                        ? tenant.substring(0, 64) + "... (" + tenant.length() + " characters)" : tenant,
                        "a string of 1 to " + MAX_SLOT_BASIS_LENGTH + " characters is required; leave it unset for"
                                + " no tenant");
            }
            this.tenant = tenant;
            return this;
        }

        /**
         * Sets the key the message counts against for the consuming channels' limits per key ({@code key-concurrency},
         * {@code key-rate-limit}, see {@code docs/flow-control.md}). The flow key is the message's slot basis too (all
         * messages of a key are in one slot, where their limit is kept): give either, or the same value to both; a
         * different {@linkplain #withSlotBasis(String) slot basis} is refused by {@link #build()} (RMQ-2410). Not set by
         * default: the slot basis, if any, is the key.
         *
         * @param flowKey a string of 1 to {@value #MAX_SLOT_BASIS_LENGTH} characters
         * @return this builder
         */
        public Builder withFlowKey(String flowKey) {
            requireNonNull("flowKey", flowKey);
            if (flowKey.isEmpty() || flowKey.length() > MAX_SLOT_BASIS_LENGTH) {
                throw RmqExceptions.ex.invalidMetadataValue("flowKey", flowKey.length() > 64
                        ? flowKey.substring(0, 64) + "... (" + flowKey.length() + " characters)" : flowKey,
                        "a string of 1 to " + MAX_SLOT_BASIS_LENGTH + " characters is required");
            }
            this.flowKey = flowKey;
            return this;
        }

        /**
         * Sets when the message expires, for a topic of any type: a message not delivered by then (Redis clock) is
         * never delivered; it is removed and counted, or kept in the dead queue if the consuming channel says
         * {@code expired-to-dead=true}. A time already past expires it at once. Not set by default (the channel's
         * {@code time-to-live} applies); do not combine with {@link #withTimeToLive(Duration)}.
         *
         * @param expiresAt the time, representable in epoch milliseconds and not after {@link #MAX_DELIVER_AT}
         * @return this builder
         */
        public Builder withExpiresAt(Instant expiresAt) {
            requireNonNull("expiresAt", expiresAt);
            try {
                expiresAt.toEpochMilli();
            } catch (ArithmeticException e) {
                throw RmqExceptions.ex.invalidMetadataValue("expiresAt", expiresAt,
                        "a time representable in epoch milliseconds is required");
            }
            if (expiresAt.isAfter(MAX_DELIVER_AT)) {
                throw RmqExceptions.ex.invalidMetadataValue("expiresAt", expiresAt,
                        "a time not after " + MAX_DELIVER_AT + " is required");
            }
            this.expiresAt = expiresAt;
            return this;
        }

        /**
         * Sets how long after Redis stores it the message expires (counted on the Redis clock), for a topic of any
         * type; see {@link #withExpiresAt(Instant)}. Not set by default (the channel's {@code time-to-live} applies);
         * do not combine with {@link #withExpiresAt(Instant)}.
         *
         * @param timeToLive at least 1 ms, at most {@link #MAX_DURATION_MILLIS} ms
         * @return this builder
         */
        public Builder withTimeToLive(Duration timeToLive) {
            this.timeToLive = requireMillis("timeToLive", timeToLive, 1, "a duration from 1 to " + MAX_DURATION_MILLIS
                    + " ms is required");
            return this;
        }

        /**
         * Builds the metadata.
         *
         * @return the metadata
         * @throws IllegalStateException when both a delivery time and a delay are set (RMQ-2003), or both an expiry
         *                               time and a time to live (RMQ-2320)
         */
        public OutgoingRmqMetadata build() {
            if (deliverAt != null && delay != null) {
                throw RmqExceptions.ex.conflictingDeliveryTime(deliverAt, delay);
            }
            if (expiresAt != null && timeToLive != null) {
                throw RmqExceptions.ex.conflictingExpiry(expiresAt, timeToLive);
            }
            if (slotBasis != null && flowKey != null && !slotBasis.equals(flowKey)) {
                throw RmqExceptions.ex.conflictingFlowKey(slotBasis, flowKey);
            }
            return new OutgoingRmqMetadata(this);
        }

        private static <T> T requireNonNull(String property, T value) {
            if (value == null) {
                throw RmqExceptions.ex.invalidMetadataValue(property, null, "a non-null value is required");
            }
            return value;
        }

        private static Duration requireMillis(String property, Duration value, long minMillis, String requirement) {
            requireNonNull(property, value);
            try {
                if (value.isNegative() || value.toMillis() < minMillis || value.toMillis() > MAX_DURATION_MILLIS) {
                    throw RmqExceptions.ex.invalidMetadataValue(property, value, requirement);
                }
            } catch (ArithmeticException e) {
                throw RmqExceptions.ex.invalidMetadataValue(property, value,
                        requirement + " (and it must fit in a long of milliseconds)");
            }
            return value;
        }
    }
}
