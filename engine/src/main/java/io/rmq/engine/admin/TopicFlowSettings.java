package io.rmq.engine.admin;

import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * What a topic's flow hash holds, typed: the limits and weights in force (each absent when not set), the state of
 * the adaptive slow-down, and what configuration last asked for ({@code cfg:<field>}, the starting values). Values
 * that cannot be read as their type are shown as absent (and stay visible in {@link #fields()}). Immutable.
 *
 * @param gen            the configuration generation, 0 when nothing was ever set
 * @param rate           the topic limit, messages per second
 * @param burst          the topic limit's burst, messages (absent: a tenth of a second's worth)
 * @param keyConcurrency at most this many messages of one key consumed at once
 * @param keyRate        per key, messages per second
 * @param keyBurst       per key, the burst
 * @param fair           fair share between tenants: {@code on}, {@code off} or {@code draining} ({@code off} when absent)
 * @param weights        the tenants' own weights, by tenant
 * @param defaultWeight  the weight of tenants without one of their own (absent: 1)
 * @param agingPace      priority aging, points per millisecond (absent: no aging)
 * @param agingEpoch     priority aging's epoch, ms since the Unix epoch
 * @param adaptive       the adaptive slow-down's settings and state
 * @param configured     what configuration last asked for, by field (without the {@code cfg:} prefix)
 * @param fields         the hash as stored, without the {@code cfg:} fields
 */
public record TopicFlowSettings(long gen, OptionalDouble rate, OptionalInt burst, OptionalInt keyConcurrency,
        OptionalDouble keyRate, OptionalInt keyBurst, String fair, Map<String, Double> weights,
        OptionalDouble defaultWeight, OptionalDouble agingPace, OptionalLong agingEpoch, Adaptive adaptive,
        Map<String, String> configured, Map<String, String> fields) {

    /**
     * The adaptive slow-down.
     *
     * @param on        whether it is switched on
     * @param threshold the failure ratio above which it slows down (absent: its default)
     * @param floor     the lowest rate, messages per second (absent: its default)
     * @param rate      the rate it imposes now, messages per second (absent: it does not slow down now)
     * @param reason    why it changed the rate last ({@code ""}: never)
     * @param changed   when it changed the rate last
     */
    public record Adaptive(boolean on, OptionalDouble threshold, OptionalDouble floor, OptionalDouble rate,
            String reason, Optional<Instant> changed) {
    }

    /** The settings held by {@code hash}, a flow hash read as a whole. */
    public static TopicFlowSettings of(Map<String, String> hash) {
        Map<String, String> fields = new TreeMap<>();
        Map<String, String> configured = new TreeMap<>();
        Map<String, Double> weights = new TreeMap<>();
        hash.forEach((field, value) -> {
            if (field.startsWith("cfg:")) {
                configured.put(field.substring(4), value);
                return;
            }
            fields.put(field, value);
            if (field.startsWith(FlowField.WEIGHT_PREFIX)) {
                decimal(value).ifPresent(w -> weights.put(field.substring(FlowField.WEIGHT_PREFIX.length()), w));
            }
        });
        OptionalLong changed = whole(fields.get("a.changed"));
        Adaptive adaptive = new Adaptive("1".equals(fields.get(FlowField.ADAPTIVE_ON)),
                decimal(fields.get(FlowField.ADAPTIVE_THRESHOLD)), decimal(fields.get(FlowField.ADAPTIVE_FLOOR)),
                decimal(fields.get("a.rate")), fields.getOrDefault("a.reason", ""),
                changed.isPresent() ? Optional.of(Instant.ofEpochMilli(changed.getAsLong())) : Optional.empty());
        return new TopicFlowSettings(whole(fields.get("gen")).orElse(0), decimal(fields.get(FlowField.RATE)),
                integer(fields.get(FlowField.BURST)), integer(fields.get(FlowField.KEY_CONCURRENCY)),
                decimal(fields.get(FlowField.KEY_RATE)), integer(fields.get(FlowField.KEY_BURST)),
                fields.getOrDefault(FlowField.FAIR, "off"), Collections.unmodifiableMap(weights),
                decimal(fields.get(FlowField.DEFAULT_WEIGHT)), decimal(fields.get(FlowField.AGING_PACE)),
                whole(fields.get(FlowField.AGING_EPOCH)), adaptive, Collections.unmodifiableMap(configured),
                Collections.unmodifiableMap(fields));
    }

    /** The rate the topic's consumers keep to now: the lower of the limit and the adaptive rate; absent: none. */
    public OptionalDouble effectiveRate() {
        if (adaptive.on() && adaptive.rate().isPresent()
                && (rate.isEmpty() || adaptive.rate().getAsDouble() < rate.getAsDouble())) {
            return adaptive.rate();
        }
        return rate;
    }

    private static OptionalDouble decimal(String value) {
        try {
            double d = value == null ? Double.NaN : Double.parseDouble(value);
            return Double.isFinite(d) ? OptionalDouble.of(d) : OptionalDouble.empty();
        } catch (NumberFormatException e) {
            return OptionalDouble.empty();
        }
    }

    private static OptionalLong whole(String value) {
        OptionalDouble d = decimal(value);
        return d.isPresent() ? OptionalLong.of((long) d.getAsDouble()) : OptionalLong.empty();
    }

    private static OptionalInt integer(String value) {
        OptionalDouble d = decimal(value);
        return d.isPresent() && d.getAsDouble() <= Integer.MAX_VALUE ? OptionalInt.of((int) d.getAsDouble())
                : OptionalInt.empty();
    }
}
