package io.rmq.admin.rest;

import static io.rmq.admin.rest.i18n.AdminRestMessages.msg;

import java.util.List;

import io.rmq.engine.admin.FlowField;
import io.rmq.engine.admin.FlowRates;
import io.rmq.engine.admin.FlowUpdate;

/**
 * The body of {@code PUT topics/{topic}/flow}: a partial update of the topic's flow settings. Only the members
 * given change; a member given as {@code null} removes its setting. Every value is checked before anything is
 * written, and one refused value changes nothing (400).
 *
 * <table>
 *   <caption>Members</caption>
 *   <tr><td>{@code "rate": "500/s"}</td><td>topic limit ({@code /s}, {@code /m}, {@code /h}); {@code null} also removes the burst</td></tr>
 *   <tr><td>{@code "burst": 50}</td><td>topic burst, messages (0: a tenth of a second's worth)</td></tr>
 *   <tr><td>{@code "keyConcurrency": 1}</td><td>messages of one key consumed at once</td></tr>
 *   <tr><td>{@code "keyRate": "50/s"}, {@code "keyBurst": 5}</td><td>per-key rate and burst</td></tr>
 *   <tr><td>{@code "fair": true}</td><td>fair share between tenants on or off</td></tr>
 *   <tr><td>{@code "defaultWeight": 1}</td><td>the weight of tenants without one of their own</td></tr>
 *   <tr><td>{@code "aging": "1/10s"}</td><td>priority aging: points per duration</td></tr>
 *   <tr><td>{@code "adaptive": true}, {@code "adaptiveThreshold": 0.5}, {@code "adaptiveFloor": "5/s"}</td>
 *       <td>adaptive slow-down on or off, its failure ratio and its lowest rate</td></tr>
 * </table>
 */
final class FlowRequest {

    static final String RATE = "rate";
    static final String BURST = "burst";
    static final String KEY_CONCURRENCY = "keyConcurrency";
    static final String KEY_RATE = "keyRate";
    static final String KEY_BURST = "keyBurst";
    static final String FAIR = "fair";
    static final String DEFAULT_WEIGHT = "defaultWeight";
    static final String AGING = "aging";
    static final String ADAPTIVE = "adaptive";
    static final String ADAPTIVE_THRESHOLD = "adaptiveThreshold";
    static final String ADAPTIVE_FLOOR = "adaptiveFloor";
    static final List<String> MEMBERS = List.of(RATE, BURST, KEY_CONCURRENCY, KEY_RATE, KEY_BURST, FAIR, DEFAULT_WEIGHT,
            AGING, ADAPTIVE, ADAPTIVE_THRESHOLD, ADAPTIVE_FLOOR);

    /** The member of the body of {@code PUT topics/{topic}/flow/weights/{tenant}}. */
    static final String WEIGHT = "weight";

    private FlowRequest() {
    }

    /** Reads a partial update; an {@link IllegalArgumentException} names the member or setting refused. */
    static FlowUpdate read(String body) {
        JsonBody json = JsonBody.parse(body, MEMBERS);
        FlowUpdate.Builder update = FlowUpdate.builder();
        rate(json, RATE, FlowField.RATE, update);
        if (json.isNull(RATE)) {
            update.field(FlowField.BURST, "");
        }
        whole(json, BURST, FlowField.BURST, 0, update);
        whole(json, KEY_CONCURRENCY, FlowField.KEY_CONCURRENCY, 1, update);
        rate(json, KEY_RATE, FlowField.KEY_RATE, update);
        whole(json, KEY_BURST, FlowField.KEY_BURST, 1, update);
        if (json.isNull(FAIR)) {
            update.field(FlowField.FAIR, "");
        } else if (json.has(FAIR)) {
            update.fair(json.bool(FAIR, false));
        }
        if (json.isNull(DEFAULT_WEIGHT)) {
            update.removeDefaultWeight();
        } else {
            json.positive(DEFAULT_WEIGHT).ifPresent(update::defaultWeight);
        }
        if (json.isNull(AGING)) {
            update.removeAging();
        } else {
            json.nonEmptyString(AGING).ifPresent(p -> update.agingPace(FlowRates.pointsPerMilli(FlowField.AGING_PACE, p)));
        }
        if (json.isNull(ADAPTIVE)) {
            update.field(FlowField.ADAPTIVE_ON, "");
        } else if (json.has(ADAPTIVE)) {
            update.adaptive(json.bool(ADAPTIVE, false));
        }
        if (json.isNull(ADAPTIVE_THRESHOLD)) {
            update.field(FlowField.ADAPTIVE_THRESHOLD, "");
        } else {
            json.positive(ADAPTIVE_THRESHOLD).ifPresent(update::adaptiveThreshold);
        }
        rate(json, ADAPTIVE_FLOOR, FlowField.ADAPTIVE_FLOOR, update);
        return update.build();
    }

    /** Reads the body of a weight: {@code {"weight": 3}}. */
    static double weight(String body) {
        return JsonBody.parse(body, List.of(WEIGHT)).positive(WEIGHT)
                .orElseThrow(() -> msg.wrongType(WEIGHT, "a number above 0 and below 10^15"));
    }

    private static void rate(JsonBody json, String member, String field, FlowUpdate.Builder update) {
        if (json.isNull(member)) {
            update.field(field, "");
        } else {
            json.nonEmptyString(member).ifPresent(r -> update.field(field, FlowUpdate.decimal(field,
                    FlowRates.perSecond(field, r))));
        }
    }

    private static void whole(JsonBody json, String member, String field, int min, FlowUpdate.Builder update) {
        if (json.isNull(member)) {
            update.field(field, "");
        } else if (json.has(member)) {
            update.field(field, Integer.toString(json.integer(member, min, min, 1_000_000_000)));
        }
    }
}
