package io.rmq.engine.topic;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The flow-control features a topic's consumers and producers apply per slot: limits per key, fair share between
 * tenants and priority aging (docs/flow-control.md). A channel's attributes give their starting values, which it
 * writes to the topic's flow hash ({@link #startingFields()}, through {@code flow_set.lua} in config mode); from then
 * on every consumer and producer follows the hash ({@link #fromFlowFields}), so a change made live through the admin
 * API, REST, the command line or the dashboard reaches them all. Immutable.
 */
public record FlowFeatures(KeyLimits keyLimits, FairShare fairShare, PriorityAging priorityAging) {

    /** None of the features. */
    public static final FlowFeatures NONE = new FlowFeatures(KeyLimits.NONE, FairShare.OFF, PriorityAging.OFF);

    /**
     * The features recorded in a topic's flow hash (absent fields: off).
     *
     * @throws IllegalArgumentException when a field holds a value its feature does not allow (written by hand)
     */
    public static FlowFeatures fromFlowFields(Map<String, String> fields) {
        return new FlowFeatures(KeyLimits.fromFlowFields(fields), FairShare.fromFlowFields(fields),
                PriorityAging.fromFlowFields(fields));
    }

    /** Whether any of the features is on. */
    public boolean any() {
        return keyLimits.on() || fairShare.on() || priorityAging.on();
    }

    /**
     * The flow hash fields that make these features the topic's starting values: only those of the features that are
     * on (a channel does not switch off what another configured). The aging epoch is the topic's, not written here.
     */
    public Map<String, String> startingFields() {
        Map<String, String> fields = new LinkedHashMap<>();
        if (keyLimits.concurrency() > 0) {
            fields.put(KeyLimits.CONCURRENCY_FIELD, Integer.toString(keyLimits.concurrency()));
        }
        if (keyLimits.perSecond() > 0) {
            fields.put(KeyLimits.RATE_FIELD, plain(keyLimits.perSecond()));
            if (keyLimits.burst() > 0) {
                fields.put(KeyLimits.BURST_FIELD, Integer.toString(keyLimits.burst()));
            }
        }
        if (fairShare.on()) {
            fields.put("fair", "on");
            fairShare.weights().forEach((tenant, weight) -> fields.put("w:" + tenant, plain(weight)));
            if (fairShare.defaultWeight() != 1) {
                fields.put("w.default", plain(fairShare.defaultWeight()));
            }
        }
        if (priorityAging.on()) {
            fields.put(PriorityAging.PACE_FIELD, plain(priorityAging.pacePerMilli()));
        }
        return fields;
    }

    private static String plain(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
