package io.rmq.engine.topic;

import java.util.LinkedHashMap;
import java.util.Map;

import io.rmq.engine.i18n.EngineExceptions;

/**
 * The fair-share settings a consumer pops with: whether fair share between tenants is on, each named tenant's weight,
 * and the weight of the others (the default tenant included). A tenant's share of a slot's pops, while several are
 * backlogged, is its weight over the sum of theirs. Immutable.
 *
 * @param on            fair share is on: pops serve the slot's tenants by weight
 * @param weights       tenant (as sent, not encoded) to its weight (&gt; 0)
 * @param defaultWeight the weight of a tenant not named in {@code weights} (&gt; 0)
 */
public record FairShare(boolean on, Map<String, Double> weights, double defaultWeight) {

    /** Fair share off: pops read the store queue alone. */
    public static final FairShare OFF = new FairShare(false, Map.of(), 1);

    public FairShare {
        weights = Map.copyOf(weights);
        requirePositive("w.default", defaultWeight);
        weights.forEach((tenant, w) -> requirePositive("w:" + tenant, w));
    }

    /**
     * The settings in a topic's flow hash: {@code fair} ({@code on}, or {@code draining} while fair share is being
     * switched off and tenant queues may still hold messages, turns it on for consumers; absent or anything else: off),
     * {@code w:<tenant>} and {@code w.default} (absent: 1).
     *
     * @throws IllegalArgumentException (RMQ-0636) for a weight that is not a positive number
     */
    public static FairShare fromFlowFields(Map<String, String> fields) {
        String fair = fields.get("fair");
        if (!"on".equals(fair) && !"draining".equals(fair)) {
            return OFF;
        }
        Map<String, Double> weights = new LinkedHashMap<>();
        fields.forEach((field, value) -> {
            if (field.startsWith("w:")) {
                weights.put(field.substring(2), parse(field, value));
            }
        });
        String fallback = fields.get("w.default");
        return new FairShare(true, weights, fallback == null ? 1 : parse("w.default", fallback));
    }

    /**
     * Settings from a channel's attributes: {@code tenant-weights} as {@code a:3,b:1} (blank: none); other tenants
     * weigh 1.
     *
     * @throws IllegalArgumentException (RMQ-0636, RMQ-0637) for a weight that is not a positive number or an entry
     *                                  without one
     */
    public static FairShare of(boolean on, String tenantWeights) {
        if (!on) {
            return OFF;
        }
        Map<String, Double> weights = new LinkedHashMap<>();
        if (tenantWeights != null && !tenantWeights.isBlank()) {
            for (String entry : tenantWeights.split(",")) {
                int colon = entry.lastIndexOf(':');
                if (colon <= 0) {
                    throw EngineExceptions.ex.badTenantWeightEntry(entry.trim());
                }
                String tenant = entry.substring(0, colon).trim();
                weights.put(tenant, parse("w:" + tenant, entry.substring(colon + 1).trim()));
            }
        }
        return new FairShare(true, weights, 1);
    }

    private static double parse(String field, String value) {
        try {
            return requirePositive(field, Double.parseDouble(value));
        } catch (NumberFormatException e) {
            throw EngineExceptions.ex.badTenantWeight(field, value);
        }
    }

    private static double requirePositive(String field, double weight) {
        if (!(weight > 0) || Double.isInfinite(weight)) {
            throw EngineExceptions.ex.badTenantWeight(field, Double.toString(weight));
        }
        return weight;
    }
}
