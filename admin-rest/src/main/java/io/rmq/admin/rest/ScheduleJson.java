package io.rmq.admin.rest;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import io.rmq.engine.schedule.ScheduleDefinition;
import io.rmq.engine.schedule.ScheduleInfo;
import io.rmq.engine.schedule.ScheduleTiming;
import io.rmq.engine.topic.TopicKeys;

/**
 * The JSON answers of the schedule endpoints ({@link RmqSchedulesResource}), member by member as
 * {@code docs/admin-rest.md} shows them; like {@link AdminJson}, every member is present ({@code null} when absent),
 * times are ISO-8601 UTC strings, and the payload is given as {@code payloadBase64} and, when valid UTF-8, as text.
 * Stateless.
 */
final class ScheduleJson {

    private ScheduleJson() {
    }

    /** {@code GET schedules}. */
    static JsonObject schedules(String redis, String keyPrefix, List<ScheduleInfo> schedules) {
        JsonArrayBuilder list = Json.createArrayBuilder();
        schedules.forEach(s -> list.add(schedule(s)));
        return Json.createObjectBuilder()
                .add("redis", redis)
                .add("keyPrefix", keyPrefix)
                .add("registry", TopicKeys.scheduleRegistryKey(keyPrefix))
                .add("schedules", list)
                .build();
    }

    /** One schedule: what {@code GET schedules} lists, and what pause, resume and remove answer. */
    static JsonObject schedule(ScheduleInfo info) {
        ScheduleDefinition d = info.definition();
        JsonObjectBuilder o = Json.createObjectBuilder()
                .add("name", d.name())
                .add("topic", d.topic().name())
                .add("type", d.topic().type().name())
                .add("slot", d.slot());
        if (d.timing() instanceof ScheduleTiming.CronTiming cron) {
            o.add("cron", cron.expression()).add("zone", cron.zone().getId()).addNull("every");
        } else {
            o.addNull("cron").addNull("zone").add("every", d.timing().describe().substring("every=".length()));
        }
        o.add("missed", d.missed().configName());
        optional(o, "slotBasis", Optional.ofNullable(d.slotBasis()));
        optional(o, "value", Optional.ofNullable(d.value()));
        byte[] payload = d.payload();
        o.add("payloadBase64", Base64.getEncoder().encodeToString(payload));
        optional(o, "payload", utf8(payload));
        return o.add("paused", info.paused())
                .add("lastTick", time(info.lastTick()))
                .add("nextTick", time(info.nextTick()))
                .build();
    }

    private static void optional(JsonObjectBuilder o, String name, Optional<String> value) {
        value.ifPresentOrElse(v -> o.add(name, v), () -> o.addNull(name));
    }

    private static jakarta.json.JsonValue time(Optional<Instant> t) {
        return t.<jakarta.json.JsonValue>map(i -> Json.createValue(i.toString())).orElse(jakarta.json.JsonValue.NULL);
    }

    private static Optional<String> utf8(byte[] bytes) {
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }
}
