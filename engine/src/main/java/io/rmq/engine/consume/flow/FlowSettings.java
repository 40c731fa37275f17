package io.rmq.engine.consume.flow;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A snapshot of a topic's flow hash {@code flow{<prefix><topic>}}: its configuration generation {@code gen} and its
 * fields as Redis holds them (field names: {@code docs/flow-control.md}, section Redis layout). Immutable; an absent
 * hash is {@link #NONE} (generation 0, no field: no flow control).
 */
public final class FlowSettings {

    /**
     * Fields the scripts rewrite as they run, not settings: the limiter's clock and the adaptive slow-down's
     * running counts. A change of these alone is no change of the settings.
     */
    private static final Set<String> RUNNING_STATE = Set.of("tat", "a.ok", "a.fail", "a.granted", "a.since");

    /** The settings of a topic without a flow hash. */
    public static final FlowSettings NONE = new FlowSettings(Map.of());

    private final long gen;
    private final Map<String, String> fields;

    private FlowSettings(Map<String, String> fields) {
        this.fields = Map.copyOf(fields);
        this.gen = number(fields.get("gen")).map(Double::longValue).orElse(0L);
    }

    /** The settings held by a flow hash's fields ({@code HGETALL}); an empty map is {@link #NONE}. */
    public static FlowSettings of(Map<String, String> fields) {
        return fields.isEmpty() ? NONE : new FlowSettings(fields);
    }

    /** The configuration generation, incremented by every change; 0 without a flow hash. */
    public long gen() {
        return gen;
    }

    /** Every field of the hash, the limiter's state included. */
    public Map<String, String> fields() {
        return fields;
    }

    /** A field's value, if the hash has it. */
    public Optional<String> field(String name) {
        return Optional.ofNullable(fields.get(name));
    }

    /** The topic's rate limit in messages per second ({@code rate}), if it has one. */
    public Optional<Double> rate() {
        return number(fields.get("rate")).filter(r -> r > 0);
    }

    /** The limit's bucket size ({@code burst}); 0 when absent: the limiter's default. */
    public int burst() {
        return number(fields.get("burst")).map(Double::intValue).orElse(0);
    }

    /** The rate limit with its burst, if the topic has one. */
    public Optional<FlowLimit> limit() {
        return rate().map(r -> new FlowLimit(r, burst()));
    }

    /** Whether the adaptive slow-down is switched on in the hash ({@code a.on = 1}). */
    public boolean adaptive() {
        return "1".equals(fields.get("a.on"));
    }

    /** The rate the adaptive slow-down holds the topic to now ({@code a.rate}), if it slowed the topic down. */
    public Optional<Double> adaptiveRate() {
        return number(fields.get("a.rate")).filter(r -> r > 0);
    }

    /** Why the adaptive slow-down last changed the rate ({@code a.reason}), if it did. */
    public Optional<String> adaptiveReason() {
        return field("a.reason").filter(r -> !r.isEmpty());
    }

    /** The rate deliveries are held to now: the lower of the limit and the adaptive rate; empty without either. */
    public Optional<Double> effectiveRate() {
        Optional<Double> limit = rate();
        Optional<Double> adaptive = adaptiveRate();
        if (adaptive.isPresent() && (limit.isEmpty() || adaptive.get() < limit.get())) {
            return adaptive;
        }
        return limit;
    }

    /** Whether consumers of the topic go through its limiter: a rate limit, or the adaptive slow-down. */
    public boolean throttles() {
        return rate().isPresent() || adaptive();
    }

    /** Whether {@code other} holds the same settings, the fields the scripts keep running state in left aside. */
    public boolean sameSettings(FlowSettings other) {
        return settingsOnly(fields).equals(settingsOnly(other.fields));
    }

    private static Map<String, String> settingsOnly(Map<String, String> fields) {
        Map<String, String> settings = new HashMap<>(fields);
        settings.keySet().removeAll(RUNNING_STATE);
        return settings;
    }

    private static Optional<Double> number(String value) {
        if (value == null || value.isEmpty()) {
            return Optional.empty();
        }
        try {
            double d = Double.parseDouble(value);
            return Double.isFinite(d) ? Optional.of(d) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty(); // a field written by hand: treated as absent, as the scripts do
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FlowSettings s && s.fields.equals(fields);
    }

    @Override
    public int hashCode() {
        return fields.hashCode();
    }

    @Override
    public String toString() {
        return "FlowSettings" + fields;
    }
}
