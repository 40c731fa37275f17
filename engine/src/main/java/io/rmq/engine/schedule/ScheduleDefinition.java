package io.rmq.engine.schedule;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

import io.rmq.engine.i18n.EngineExceptions;
import io.rmq.engine.topic.SlotRouter;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;

/**
 * A recurring schedule: each tick sends the fixed {@code payload} to {@code topic}, routed by {@code slotBasis}
 * (the payload when {@code null}), scored as the topic type says: {@code FIXED_TIME} the tick's time,
 * {@code PRIORITY} the priority {@code value}, {@code RANGE_MERGE} the Redis time plus the range {@code value}
 * (ms). The payload is fixed, so the slot is fixed: the schedule's state lives under that slot's hash tag.
 * Recorded in the hash {@code <prefix>rmq:schedules} as a query string ({@link #encode()}). Immutable.
 *
 * @param value the priority ({@code PRIORITY}) or the time range in ms ({@code RANGE_MERGE}); {@code null} for
 *              {@code FIXED_TIME}
 */
public record ScheduleDefinition(String name, TopicDefinition topic, byte[] payload, String slotBasis,
        ScheduleTiming timing, MissedPolicy missed, String value) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._:-]{1,200}");

    /** Checks the name and the topic type's value; the timing was checked when it was built. */
    public ScheduleDefinition {
        Objects.requireNonNull(name, "name");
        if (!NAME.matcher(name).matches()) {
            throw EngineExceptions.ex.badScheduleName(name);
        }
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(timing, "timing");
        Objects.requireNonNull(missed, "missed");
        if (payload == null) {
            throw EngineExceptions.ex.noSchedulePayload(name, "payload");
        }
        payload = payload.clone();
        value = checkedValue(name, topic.type(), value, "value");
    }

    /** The value a topic type needs (a priority, a range > 0), checked; {@code null} for {@code FIXED_TIME}. */
    public static String checkedValue(String name, TopicType type, String value, String setting) {
        if (type == TopicType.FIXED_TIME) {
            return null;
        }
        try {
            double number = Double.parseDouble(value == null ? "" : value.trim());
            if (Double.isNaN(number) || Double.isInfinite(number) || (type == TopicType.RANGE_MERGE && number <= 0)) {
                throw new NumberFormatException();
            }
            return type == TopicType.RANGE_MERGE ? Long.toString((long) number) : value.trim();
        } catch (NumberFormatException e) {
            throw EngineExceptions.ex.badScheduleValue(name, setting, type.name(), value);
        }
    }

    @Override
    public byte[] payload() {
        return payload.clone();
    }

    /** The slot the payload routes to by the topic's slot amount. */
    public int slot() {
        return SlotRouter.slotOf(slotBasis, payload, topic.slotAmount());
    }

    /** The definition as recorded: {@code topic=..&type=..&slots=..&cron=..&zone=..|every=..&missed=..&payload=<base64>[&basis=..][&value=..]}. */
    public String encode() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("topic", topic.name());
        fields.put("type", topic.type().name());
        fields.put("slots", Integer.toString(topic.slotAmount()));
        if (timing instanceof ScheduleTiming.CronTiming cron) {
            fields.put("cron", cron.expression());
            fields.put("zone", cron.zone().getId());
        } else {
            fields.put("every", java.time.Duration.ofMillis(((ScheduleTiming.IntervalTiming) timing).millis()).toString());
        }
        fields.put("missed", missed.configName());
        fields.put("payload", Base64.getEncoder().encodeToString(payload));
        if (slotBasis != null) {
            fields.put("basis", slotBasis);
        }
        if (value != null) {
            fields.put("value", value);
        }
        StringBuilder out = new StringBuilder();
        fields.forEach((k, v) -> out.append(out.length() == 0 ? "" : "&").append(k).append('=')
                .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return out.toString();
    }

    /** The definition recorded as {@code encoded} for {@code name} under {@code keyPrefix}; fails on a malformed record. */
    public static ScheduleDefinition decode(String name, String encoded, String keyPrefix) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String pair : encoded.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                fields.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        TopicDefinition topic = new TopicDefinition(required(fields, "topic"), Integer.parseInt(required(fields, "slots")),
                TopicType.valueOf(required(fields, "type")), keyPrefix);
        ScheduleTiming timing = fields.containsKey("cron")
                ? ScheduleTiming.cron(name, fields.get("cron"), "cron", fields.get("zone"), "zone")
                : ScheduleTiming.every(name, required(fields, "every"), "every");
        return new ScheduleDefinition(name, topic, Base64.getDecoder().decode(required(fields, "payload")),
                fields.get("basis"), timing, MissedPolicy.parse(name, "missed", fields.get("missed")), fields.get("value"));
    }

    private static String required(Map<String, String> fields, String key) {
        String value = fields.get(key);
        if (value == null) {
            throw new IllegalArgumentException("no field '" + key + "'");
        }
        return value;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ScheduleDefinition d && name.equals(d.name) && topic.equals(d.topic)
                && Arrays.equals(payload, d.payload) && Objects.equals(slotBasis, d.slotBasis)
                && timing.describe().equals(d.timing.describe()) && missed == d.missed && Objects.equals(value, d.value);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, topic, Arrays.hashCode(payload), slotBasis, timing.describe(), missed, value);
    }

    @Override
    public String toString() {
        return "schedule '" + name + "' of topic '" + topic.name() + "' (" + timing.describe() + ", missed="
                + missed.configName() + ")";
    }
}
