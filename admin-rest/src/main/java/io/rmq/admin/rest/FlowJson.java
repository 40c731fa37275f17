package io.rmq.admin.rest;

import java.math.BigDecimal;
import java.util.OptionalDouble;
import java.util.OptionalInt;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import io.rmq.engine.admin.FlowRates;
import io.rmq.engine.admin.TopicFlowSettings;
import io.rmq.engine.topic.TopicDefinition;

/**
 * The JSON of a topic's flow settings ({@code GET} and {@code PUT topics/{topic}/flow}): each setting absent from
 * the flow hash is {@code null}; rates are messages per second, with the text an operator writes beside them
 * ({@code "rateText": "500/s"}); the aging pace is priority points per millisecond, with its text ({@code "1/10s"}).
 * Stateless.
 */
final class FlowJson {

    private FlowJson() {
    }

    static JsonObject settings(TopicDefinition topic, TopicFlowSettings s) {
        JsonObjectBuilder out = Json.createObjectBuilder().add("topic", topic.name()).add("gen", s.gen());
        rate(out, "rate", s.rate());
        integer(out, "burst", s.burst());
        rate(out, "effectiveRate", s.effectiveRate());
        integer(out, "keyConcurrency", s.keyConcurrency());
        rate(out, "keyRate", s.keyRate());
        integer(out, "keyBurst", s.keyBurst());
        out.add("fair", s.fair());
        JsonObjectBuilder weights = Json.createObjectBuilder();
        s.weights().forEach((tenant, w) -> weights.add(tenant, plain(w)));
        out.add("weights", weights);
        decimal(out, "defaultWeight", s.defaultWeight());
        decimal(out, "agingPace", s.agingPace());
        if (s.agingPace().isPresent()) {
            out.add("aging", FlowRates.pace(s.agingPace().getAsDouble()));
        } else {
            out.addNull("aging");
        }
        if (s.agingEpoch().isPresent()) {
            out.add("agingEpoch", s.agingEpoch().getAsLong());
        } else {
            out.addNull("agingEpoch");
        }
        TopicFlowSettings.Adaptive a = s.adaptive();
        JsonObjectBuilder adaptive = Json.createObjectBuilder().add("on", a.on());
        decimal(adaptive, "threshold", a.threshold());
        rate(adaptive, "floor", a.floor());
        rate(adaptive, "rate", a.rate());
        adaptive.add("reason", a.reason());
        a.changed().ifPresentOrElse(t -> adaptive.add("changed", t.toString()), () -> adaptive.addNull("changed"));
        out.add("adaptive", adaptive);
        JsonObjectBuilder configured = Json.createObjectBuilder();
        s.configured().forEach(configured::add);
        return out.add("configured", configured).build();
    }

    private static void rate(JsonObjectBuilder out, String name, OptionalDouble perSecond) {
        decimal(out, name, perSecond);
        if (perSecond.isPresent()) {
            out.add(name + "Text", FlowRates.rate(perSecond.getAsDouble()));
        } else {
            out.addNull(name + "Text");
        }
    }

    private static void decimal(JsonObjectBuilder out, String name, OptionalDouble value) {
        if (value.isPresent()) {
            out.add(name, plain(value.getAsDouble()));
        } else {
            out.addNull(name);
        }
    }

    /** {@code d} as a JSON number without exponent or trailing zeros: {@code 500}, {@code 0.0001}. */
    private static BigDecimal plain(double d) {
        return new BigDecimal(BigDecimal.valueOf(d).stripTrailingZeros().toPlainString());
    }

    private static void integer(JsonObjectBuilder out, String name, OptionalInt value) {
        if (value.isPresent()) {
            out.add(name, value.getAsInt());
        } else {
            out.addNull(name);
        }
    }
}
