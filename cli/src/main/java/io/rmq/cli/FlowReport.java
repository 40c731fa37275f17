package io.rmq.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalInt;

import io.rmq.engine.admin.FlowRates;
import io.rmq.engine.admin.TopicFlowSettings;

/**
 * A topic's flow settings, as {@code flow show} prints them and the other {@code flow} commands after a change.
 * Rates are written as operators write them ({@code 500/s}); {@code null}: not set.
 *
 * @param topic             the topic
 * @param action            what the command did ({@code null} for {@code show})
 * @param gen               the configuration generation
 * @param rate              the topic limit
 * @param burst             its burst, messages ({@code null}: a tenth of a second's worth)
 * @param effectiveRate     the rate consumers keep to now: the lower of the limit and the adaptive rate
 * @param keyConcurrency    messages of one key consumed at once
 * @param keyRate           per-key rate
 * @param keyBurst          per-key burst
 * @param fair              fair share: on, off or draining
 * @param weights           the tenants' own weights
 * @param defaultWeight     the weight of the other tenants ({@code null}: 1)
 * @param aging             priority aging, points per duration ({@code 1/10s})
 * @param adaptive          adaptive slow-down on
 * @param adaptiveThreshold its failure ratio
 * @param adaptiveFloor     its lowest rate
 * @param adaptiveRate      the rate it imposes now
 * @param adaptiveReason    why it changed the rate last
 * @param configured        what configuration last asked for, by field of the flow hash (the starting values)
 */
public record FlowReport(String topic, String action, long gen, String rate, Integer burst, String effectiveRate,
        Integer keyConcurrency, String keyRate, Integer keyBurst, String fair, Map<String, Double> weights,
        Double defaultWeight, String aging, boolean adaptive, Double adaptiveThreshold, String adaptiveFloor,
        String adaptiveRate, String adaptiveReason, Map<String, String> configured) implements Report {

    /** The report of {@code settings}. */
    static FlowReport of(String topic, String action, TopicFlowSettings s) {
        TopicFlowSettings.Adaptive a = s.adaptive();
        return new FlowReport(topic, action, s.gen(), rate(s.rate()), integer(s.burst()), rate(s.effectiveRate()),
                integer(s.keyConcurrency()), rate(s.keyRate()), integer(s.keyBurst()), s.fair(), s.weights(),
                decimal(s.defaultWeight()), s.agingPace().isPresent() ? FlowRates.pace(s.agingPace().getAsDouble()) : null,
                a.on(), decimal(a.threshold()), rate(a.floor()), rate(a.rate()), a.reason(), s.configured());
    }

    @Override
    public void printText(PrintWriter out) {
        out.println((action == null ? "" : action + ": ") + "flow settings of topic '" + topic + "' (generation " + gen
                + ")");
        line(out, "rate limit", rate == null ? "none" : rate + ", burst " + (burst == null ? "default" : burst));
        if (effectiveRate != null && !effectiveRate.equals(rate)) {
            line(out, "effective rate", effectiveRate + (adaptiveReason.isEmpty() ? "" : " (" + adaptiveReason + ")"));
        }
        List<String> perKey = new ArrayList<>();
        if (keyConcurrency != null) {
            perKey.add("concurrency " + keyConcurrency);
        }
        if (keyRate != null) {
            perKey.add("rate " + keyRate + (keyBurst == null ? "" : ", burst " + keyBurst));
        }
        line(out, "per key", perKey.isEmpty() ? "none" : String.join(", ", perKey));
        List<String> w = new ArrayList<>();
        weights.forEach((tenant, weight) -> w.add(tenant + "=" + plain(weight)));
        w.add("others " + (defaultWeight == null ? "1" : plain(defaultWeight)));
        line(out, "fair share", fair + "; weights " + String.join(", ", w));
        line(out, "priority aging", aging == null ? "none" : aging + " (priority points per duration)");
        line(out, "adaptive", !adaptive ? "off" : "on, threshold " + (adaptiveThreshold == null ? "default"
                : plain(adaptiveThreshold)) + ", floor " + (adaptiveFloor == null ? "default" : adaptiveFloor)
                + (adaptiveRate == null ? "" : ", now " + adaptiveRate));
        if (!configured.isEmpty()) {
            List<String> c = new ArrayList<>();
            configured.forEach((field, value) -> c.add(field + "=" + (value.isEmpty() ? "(none)" : value)));
            line(out, "configured", String.join(", ", c));
        }
    }

    private static void line(PrintWriter out, String label, String value) {
        out.println(String.format("  %-15s %s", label, value));
    }

    private static String plain(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    private static String rate(OptionalDouble perSecond) {
        return perSecond.isPresent() ? FlowRates.rate(perSecond.getAsDouble()) : null;
    }

    private static Integer integer(OptionalInt value) {
        return value.isPresent() ? value.getAsInt() : null;
    }

    private static Double decimal(OptionalDouble value) {
        return value.isPresent() ? value.getAsDouble() : null;
    }
}
