package io.rmq.engine.admin;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import io.rmq.engine.i18n.EngineExceptions;

/**
 * A change of a topic's flow settings: the settings it sets or removes, applied at once by
 * {@link TopicFlow#apply(FlowUpdate)} (one generation step, nothing written when one value is refused). Built with
 * {@link #builder()}; each value is checked as it is added. Immutable.
 */
public final class FlowUpdate {

    private static final MathContext DIGITS = new MathContext(15);

    private final Map<String, String> fields;

    private FlowUpdate(Map<String, String> fields) {
        this.fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    /** A new, empty change. */
    public static Builder builder() {
        return new Builder();
    }

    /** The settings changed, by field name of the flow hash, in the order given; {@code ""} removes one. */
    public Map<String, String> fields() {
        return fields;
    }

    /** Whether the change names no setting. */
    public boolean isEmpty() {
        return fields.isEmpty();
    }

    /**
     * {@code value} as the flow hash holds a decimal of {@code field}: plain, 15 significant digits at most.
     *
     * @throws IllegalArgumentException naming the setting when {@code value} is not above 0 or is infinite (RMQ-0675)
     */
    public static String decimal(String field, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw EngineExceptions.ex.badFlowValue(field, Double.toString(value), "a number above 0");
        }
        return new BigDecimal(value, DIGITS).stripTrailingZeros().toPlainString();
    }

    @Override
    public String toString() {
        return fields.toString();
    }

    /** Collects the settings of a {@link FlowUpdate}. Not thread-safe. */
    public static final class Builder {

        private final Map<String, String> fields = new LinkedHashMap<>();

        private Builder() {
        }

        /** The topic limit: {@code perSecond} messages per second, {@code burst} at once (0: a tenth of a second's worth). */
        public Builder rate(double perSecond, int burst) {
            return field(FlowField.RATE, decimal(FlowField.RATE, perSecond)).field(FlowField.BURST, Integer.toString(burst));
        }

        /** Only the topic limit's burst (0: a tenth of a second's worth). */
        public Builder burst(int burst) {
            return field(FlowField.BURST, Integer.toString(burst));
        }

        /** No topic limit (and no burst). */
        public Builder removeRate() {
            return field(FlowField.RATE, "").field(FlowField.BURST, "");
        }

        /** At most {@code limit} messages of one key being consumed at once. */
        public Builder keyConcurrency(int limit) {
            return field(FlowField.KEY_CONCURRENCY, Integer.toString(limit));
        }

        /** No per-key concurrency limit. */
        public Builder removeKeyConcurrency() {
            return field(FlowField.KEY_CONCURRENCY, "");
        }

        /** Per key, at most {@code perSecond} messages per second, {@code burst} at once (0: the default). */
        public Builder keyRate(double perSecond, int burst) {
            field(FlowField.KEY_RATE, decimal(FlowField.KEY_RATE, perSecond));
            return field(FlowField.KEY_BURST, burst == 0 ? "" : Integer.toString(burst));
        }

        /** No per-key rate limit (and no per-key burst). */
        public Builder removeKeyRate() {
            return field(FlowField.KEY_RATE, "").field(FlowField.KEY_BURST, "");
        }

        /** Fair share between tenants on or off. */
        public Builder fair(boolean on) {
            return field(FlowField.FAIR, on ? "on" : "off");
        }

        /** {@code tenant}'s weight in fair share. */
        public Builder weight(String tenant, double weight) {
            return field(FlowField.weight(tenant), decimal(FlowField.weight(tenant), weight));
        }

        /** {@code tenant} falls back to the default weight. */
        public Builder removeWeight(String tenant) {
            return field(FlowField.weight(tenant), "");
        }

        /** The weight of tenants without one of their own. */
        public Builder defaultWeight(double weight) {
            return field(FlowField.DEFAULT_WEIGHT, decimal(FlowField.DEFAULT_WEIGHT, weight));
        }

        /** Tenants without a weight of their own weigh 1. */
        public Builder removeDefaultWeight() {
            return field(FlowField.DEFAULT_WEIGHT, "");
        }

        /** Priority aging: a waiting message gains {@code pointsPerMilli} priority points per millisecond. */
        public Builder agingPace(double pointsPerMilli) {
            return field(FlowField.AGING_PACE, decimal(FlowField.AGING_PACE, pointsPerMilli));
        }

        /** No priority aging (the aging epoch stays recorded). */
        public Builder removeAging() {
            return field(FlowField.AGING_PACE, "");
        }

        /** Adaptive slow-down on or off. */
        public Builder adaptive(boolean on) {
            return field(FlowField.ADAPTIVE_ON, on ? "1" : "0");
        }

        /** Adaptive slow-down: slows down when more than {@code ratio} of the outcomes are failures. */
        public Builder adaptiveThreshold(double ratio) {
            return field(FlowField.ADAPTIVE_THRESHOLD, decimal(FlowField.ADAPTIVE_THRESHOLD, ratio));
        }

        /** Adaptive slow-down: never below {@code perSecond} messages per second. */
        public Builder adaptiveFloor(double perSecond) {
            return field(FlowField.ADAPTIVE_FLOOR, decimal(FlowField.ADAPTIVE_FLOOR, perSecond));
        }

        /**
         * Any setting by its field name in the flow hash ({@link FlowField}), {@code ""} removing it.
         *
         * @throws IllegalArgumentException naming the setting and the value when it is not allowed
         */
        public Builder field(String field, String value) {
            FlowField.check(field, value);
            fields.put(field, value);
            return this;
        }

        /** The change. */
        public FlowUpdate build() {
            return new FlowUpdate(fields);
        }
    }
}
