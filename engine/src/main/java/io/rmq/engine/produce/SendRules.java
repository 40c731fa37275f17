package io.rmq.engine.produce;

import java.time.Duration;
import java.time.Instant;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import io.rmq.engine.scripts.SendResult;
import io.rmq.engine.topic.TopicType;

/**
 * What a message sent to a topic of each {@link TopicType} carries, and how it is written:
 *
 * <table>
 *   <caption>Send parameters per topic type</caption>
 *   <tr><th>type</th><th>needs</th><th>may not carry</th></tr>
 *   <tr><td>{@code RANGE_MERGE}</td><td>a time range</td><td>a priority, a delivery time or delay</td></tr>
 *   <tr><td>{@code PRIORITY}</td><td>a priority</td><td>a time range, a delivery time or delay</td></tr>
 *   <tr><td>{@code FIXED_TIME}</td><td>nothing (a delivery time, else a delay from the send, else now)</td>
 *       <td>a priority, a time range</td></tr>
 * </table>
 *
 * A sender checks the parameters a message carries with {@link #misplaced}, fills in its own defaults
 * ({@link Parameters#orDefaults}), checks them with {@link #missing} and then {@linkplain #write writes}.
 * Stateless; thread-safe.
 */
public final class SendRules {

    private SendRules() {
    }

    /** A send parameter, as a reason names it. */
    public enum Parameter {
        /** The priority of a {@code PRIORITY} message. */
        PRIORITY("a priority"),
        /** The time range of a {@code RANGE_MERGE} message. */
        TIME_RANGE("a time range"),
        /** The delivery time, or the delay, of a {@code FIXED_TIME} message. */
        DELIVERY_TIME("a delivery time or delay");

        private final String description;

        Parameter(String description) {
            this.description = description;
        }

        /** The parameter in words: {@code a time range}, {@code a priority}, {@code a delivery time or delay}. */
        public String description() {
            return description;
        }
    }

    /**
     * The parameters of one send; each may be absent. Immutable.
     *
     * @param timeRange the time range ({@code RANGE_MERGE})
     * @param priority  the priority ({@code PRIORITY})
     * @param deliverAt the delivery time ({@code FIXED_TIME}); wins over {@code delay}
     * @param delay     the delay from the send ({@code FIXED_TIME})
     * @param slotBasis what chooses the slot, or {@code null} for the content
     * @param expiry    when the message expires (any type), or {@code null} for never
     * @param trace     the trace context of the send, or {@code null} for none
     */
    public record Parameters(Optional<Duration> timeRange, OptionalDouble priority, Optional<Instant> deliverAt,
            Optional<Duration> delay, String slotBasis, Expiry expiry, SendTrace trace) {

        /** Parameters of a send without a trace context. */
        public Parameters(Optional<Duration> timeRange, OptionalDouble priority, Optional<Instant> deliverAt,
                Optional<Duration> delay, String slotBasis, Expiry expiry) {
            this(timeRange, priority, deliverAt, delay, slotBasis, expiry, null);
        }

        /** Parameters of a message that does not expire. */
        public Parameters(Optional<Duration> timeRange, OptionalDouble priority, Optional<Instant> deliverAt,
                Optional<Duration> delay, String slotBasis) {
            this(timeRange, priority, deliverAt, delay, slotBasis, null);
        }

        /** These parameters, with {@code defaultExpiry} when they have no expiry ({@code null}: none). */
        public Parameters orDefaultExpiry(Expiry defaultExpiry) {
            return expiry != null ? this : new Parameters(timeRange, priority, deliverAt, delay, slotBasis, defaultExpiry, trace);
        }

        /** These parameters, with {@code sendTrace} as the send's trace context ({@code null}: none). */
        public Parameters withTrace(SendTrace sendTrace) {
            return new Parameters(timeRange, priority, deliverAt, delay, slotBasis, expiry, sendTrace);
        }

        /** These parameters, with {@code defaultTimeRange} and {@code defaultPriority} where they have none. */
        public Parameters orDefaults(Optional<Duration> defaultTimeRange, OptionalDouble defaultPriority) {
            return new Parameters(timeRange.or(() -> defaultTimeRange),
                    priority.isPresent() ? priority : defaultPriority, deliverAt, delay, slotBasis, expiry, trace);
        }

        private boolean has(Parameter parameter) {
            return switch (parameter) {
                case TIME_RANGE -> timeRange.isPresent();
                case PRIORITY -> priority.isPresent();
                case DELIVERY_TIME -> deliverAt.isPresent() || delay.isPresent();
            };
        }
    }

    /** The first parameter {@code parameters} carry that a topic of {@code type} does not take, if any. */
    public static Optional<Parameter> misplaced(TopicType type, Parameters parameters) {
        for (Parameter p : Parameter.values()) { // in this order, the reason names the first
            if (p != used(type) && parameters.has(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** The parameter a topic of {@code type} needs and {@code parameters} lack, if any. */
    public static Optional<Parameter> missing(TopicType type, Parameters parameters) {
        Parameter needed = used(type);
        return needed != Parameter.DELIVERY_TIME && !parameters.has(needed) ? Optional.of(needed) : Optional.empty();
    }

    /**
     * The write of one message to a topic of {@code type}, its parameters checked first ({@link #misplaced},
     * {@link #missing}): nothing is written until it is run. A {@code FIXED_TIME} delay counts from when it is run.
     *
     * @throws NoSuchElementException when the parameter the type needs is {@link #missing}
     */
    public static Supplier<CompletionStage<SendResult>> write(TopicProducer producer, TopicType type, byte[] content,
            Parameters parameters) {
        return write(producer, type, content, parameters, null);
    }

    /**
     * {@link #write(TopicProducer, TopicType, byte[], Parameters)} for {@code tenant} (fair share; {@code null}: none),
     * see {@link TopicProducer#sendAt(byte[], Instant, String, Expiry, SendTrace, String)}.
     */
    public static Supplier<CompletionStage<SendResult>> write(TopicProducer producer, TopicType type, byte[] content,
            Parameters parameters, String tenant) {
        String basis = parameters.slotBasis();
        Expiry expiry = parameters.expiry();
        SendTrace trace = parameters.trace();
        return switch (type) {
            case RANGE_MERGE -> {
                Duration range = parameters.timeRange().orElseThrow();
                yield () -> producer.sendInRange(content, range, basis, expiry, trace, tenant);
            }
            case PRIORITY -> {
                double priority = parameters.priority().getAsDouble();
                yield () -> producer.sendWithPriority(content, priority, basis, expiry, trace, tenant);
            }
            case FIXED_TIME -> () -> producer.sendAt(content, parameters.deliverAt()
                    .orElseGet(() -> Instant.now().plus(parameters.delay().orElse(Duration.ZERO))), basis, expiry, trace,
                    tenant);
        };
    }

    /** The parameter a topic of {@code type} takes. */
    private static Parameter used(TopicType type) {
        return switch (type) {
            case RANGE_MERGE -> Parameter.TIME_RANGE;
            case PRIORITY -> Parameter.PRIORITY;
            case FIXED_TIME -> Parameter.DELIVERY_TIME;
        };
    }
}
