package io.rmq.engine.topic;

import java.util.Map;

import io.rmq.engine.i18n.EngineArguments;

/**
 * The limits per key of a topic (docs/flow-control.md, "Limits per key"): at most {@code concurrency} messages of
 * one key in consumers' hands at once across the cluster ({@code 0}: no limit), and at most {@code perSecond}
 * deliveries of one key per second ({@code 0}: no limit), up to {@code burst} at once after a quiet time
 * ({@code 0}: one). A message's key is its slot basis (or its flow key, which is then its slot basis), so all
 * messages of a key are in one slot. Immutable.
 */
public record KeyLimits(int concurrency, double perSecond, int burst) {

    /** No limit per key: consumers pop as they always did, producers record no keys. */
    public static final KeyLimits NONE = new KeyLimits(0, 0, 0);

    /** The flow hash fields (docs/flow-control.md, section 1.1). */
    static final String CONCURRENCY_FIELD = "key.conc";
    static final String RATE_FIELD = "key.rate";
    static final String BURST_FIELD = "key.burst";

    public KeyLimits {
        if (concurrency < 0) {
            throw EngineArguments.arg.badKeyConcurrency(Integer.toString(concurrency));
        }
        if (!(perSecond >= 0) || Double.isInfinite(perSecond)) {
            throw EngineArguments.arg.badKeyRate(Double.toString(perSecond));
        }
        if (burst < 0) {
            throw EngineArguments.arg.badKeyBurst(Integer.toString(burst));
        }
    }

    /**
     * The limits recorded in a topic's flow hash: fields {@code key.conc} (messages), {@code key.rate} (messages per
     * second) and {@code key.burst} (messages); an absent field sets no limit.
     *
     * @throws IllegalArgumentException a field that is not a number allowed there
     */
    public static KeyLimits fromFlowFields(Map<String, String> fields) {
        String conc = fields.get(CONCURRENCY_FIELD);
        String rate = fields.get(RATE_FIELD);
        String burst = fields.get(BURST_FIELD);
        return new KeyLimits(conc == null ? 0 : whole(conc, EngineArguments.arg.badKeyConcurrency(conc)),
                rate == null ? 0 : decimal(rate), burst == null ? 0 : whole(burst, EngineArguments.arg.badKeyBurst(burst)));
    }

    /** Whether a limit is set: consumers then pop with {@code pop_flow.lua}, producers record keys. */
    public boolean on() {
        return concurrency > 0 || perSecond > 0;
    }

    /** Milliseconds per permit of one key's rate, {@code 0} without a rate limit. */
    public double permitMillis() {
        return perSecond > 0 ? 1000 / perSecond : 0;
    }

    /** Permits one key may take at once, at least 1. */
    public int effectiveBurst() {
        return Math.max(1, burst);
    }

    private static int whole(String value, IllegalArgumentException bad) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw bad;
        }
    }

    private static double decimal(String value) {
        try {
            return Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw EngineArguments.arg.badKeyRate(value);
        }
    }
}
