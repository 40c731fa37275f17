package io.rmq.admin.rest;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import io.rmq.engine.admin.AdminOperation;
import io.rmq.engine.admin.DeadCursor;
import io.rmq.engine.admin.DeadMessage;
import io.rmq.engine.admin.DeadPage;
import io.rmq.engine.admin.SlotCounters;
import io.rmq.engine.admin.SlotStats;
import io.rmq.engine.admin.TopicStats;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;

/**
 * The JSON answers of the admin endpoints, built member by member so that their order and their
 * nulls are what {@code docs/admin-rest.md} shows. Every member is always present; an unknown or absent value is {@code null}. Times are ISO-8601 UTC
 * strings, durations milliseconds. Message contents are bytes: {@code contentBase64} holds them
 * exactly, {@code content} as text when they are valid UTF-8 ({@code null} otherwise). Stateless.
 */
final class AdminJson {

    private AdminJson() {
    }

    /** {@code GET topics}. */
    static JsonObject topics(String redis, String keyPrefix, List<TopicDefinition> topics) {
        JsonArrayBuilder list = Json.createArrayBuilder();
        topics.forEach(t -> list.add(Json.createObjectBuilder()
                .add("name", t.name())
                .add("type", t.type().name())
                .add("slotAmount", t.slotAmount())));
        return Json.createObjectBuilder()
                .add("redis", redis)
                .add("keyPrefix", keyPrefix)
                .add("registry", TopicKeys.registryKey(keyPrefix))
                .add("topics", list)
                .build();
    }

    /** {@code GET topics/{topic}/stats}. */
    static JsonObject stats(TopicStats stats) {
        TopicDefinition topic = stats.topic();
        JsonArrayBuilder slots = Json.createArrayBuilder();
        stats.slots().forEach(s -> slots.add(slot(s)));
        return Json.createObjectBuilder()
                .add("topic", topic.name())
                .add("type", topic.type().name())
                .add("slotAmount", topic.slotAmount())
                .add("keyPrefix", topic.keyPrefix())
                .add("totals", Json.createObjectBuilder()
                        .add("pending", stats.pending())
                        .add("due", stats.due())
                        .add("oldestDueAgeMillis", stats.oldestDueAgeMillis())
                        .add("inFlight", stats.inFlight())
                        .add("dead", stats.dead())
                        .add("paused", stats.paused())
                        .add("pausedSlots", stats.slots().stream().filter(SlotStats::paused).count()))
                .add("counters", counters(stats.counters()))
                .add("slots", slots)
                .build();
    }

    /** What the scripts counted, cluster-wide, since the topic was first used: sent, merged, delivered, ... */
    private static JsonObjectBuilder counters(SlotCounters counters) {
        JsonObjectBuilder out = Json.createObjectBuilder();
        long[] values = counters.values();
        for (int i = 0; i < values.length; i++) {
            out.add(SlotCounters.NAMES.get(i), values[i]);
        }
        return out;
    }

    private static JsonObjectBuilder slot(SlotStats s) {
        JsonObjectBuilder slot = Json.createObjectBuilder()
                .add("slot", s.slot())
                .add("pending", s.pending())
                .add("due", s.due())
                .add("oldestDueAgeMillis", s.oldestDueAgeMillis())
                .add("inFlight", s.inFlight())
                .add("dead", s.dead())
                .add("paused", s.paused());
        s.owner().ifPresentOrElse(
                o -> slot.add("owner", Json.createObjectBuilder()
                        .add("worker", o.worker())
                        .add("epoch", o.epoch())
                        .add("since", o.since().toString())),
                () -> slot.addNull("owner"));
        return slot;
    }

    /** {@code GET topics/{topic}/dead}: the page that starts at {@code cursor}. */
    static JsonObject deadPage(TopicDefinition topic, DeadCursor cursor, DeadPage page) {
        JsonArrayBuilder messages = Json.createArrayBuilder();
        page.messages().forEach(m -> messages.add(deadMessage(m)));
        JsonObjectBuilder out = Json.createObjectBuilder()
                .add("topic", topic.name())
                .add("cursor", cursor.toString());
        page.next().ifPresentOrElse(next -> out.add("next", next.toString()), () -> out.addNull("next"));
        return out.add("messages", messages).build();
    }

    private static JsonObjectBuilder deadMessage(DeadMessage m) {
        JsonObjectBuilder out = Json.createObjectBuilder()
                .add("slot", m.slot())
                .add("diedAt", m.diedAt().toString());
        if (m.deliveries() > 0) {
            out.add("deliveries", m.deliveries());
        } else {
            out.addNull("deliveries");
        }
        if (m.lastFailure().isEmpty()) {
            out.addNull("lastFailure");
        } else {
            out.add("lastFailure", m.lastFailure());
        }
        return content(out, m.content());
    }

    /** Adds {@code content} (UTF-8 text, or {@code null} when the bytes are not valid UTF-8) and {@code contentBase64}. */
    static JsonObjectBuilder content(JsonObjectBuilder out, byte[] content) {
        utf8(content).ifPresentOrElse(text -> out.add("content", text), () -> out.addNull("content"));
        return out.add("contentBase64", Base64.getEncoder().encodeToString(content));
    }

    /** The bytes as text when they are valid UTF-8. */
    static Optional<String> utf8(byte[] bytes) {
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }

    /**
     * {@code dead/requeue} and {@code dead/purge}: {@code count} is how many were, or with
     * {@code dryRun} would be, acted on; {@code ratePerSecond} is {@code null} for a purge.
     */
    static JsonObject deadAction(TopicDefinition topic, String action, DeadActionRequest request, long count) {
        JsonObjectBuilder out = Json.createObjectBuilder()
                .add("topic", topic.name())
                .add("action", action)
                .add("selection", request.description())
                .add("dryRun", request.dryRun())
                .add("count", count);
        if (request.rate() > 0) {
            out.add("ratePerSecond", request.rate());
        } else {
            out.addNull("ratePerSecond");
        }
        return out.build();
    }

    /** {@code GET operations}: the requeues and purges under way, oldest first. */
    static JsonObject operations(List<AdminOperation> running) {
        JsonArrayBuilder list = Json.createArrayBuilder();
        running.forEach(r -> list.add(operation(r)));
        return Json.createObjectBuilder().add("operations", list).build();
    }

    /** One change under way; {@code stopping} once it was asked to stop. */
    static JsonObject operation(AdminOperation r) {
        return Json.createObjectBuilder()
                .add("id", r.id())
                .add("user", r.user())
                .add("action", r.action())
                .add("topic", r.topic())
                .add("what", r.what())
                .add("startedAt", r.startedAt().toString())
                .add("acted", r.acted())
                .add("stopping", r.stopping())
                .build();
    }

    /** {@code pending/remove} and {@code pending/due-now}: whether the message was pending in {@code slot}, and so acted on. */
    static JsonObject pending(TopicDefinition topic, String action, int slot, boolean pending) {
        return Json.createObjectBuilder()
                .add("topic", topic.name())
                .add("action", action)
                .add("slot", slot)
                .add("pending", pending)
                .build();
    }

    /** {@code pause} and {@code resume}. */
    static JsonObject paused(TopicDefinition topic, boolean paused) {
        return Json.createObjectBuilder()
                .add("topic", topic.name())
                .add("slots", topic.slotAmount())
                .add("paused", paused)
                .build();
    }

    /** Every error answer: the HTTP status, its reason phrase and what went wrong. */
    static JsonObject error(int status, String reason, String message) {
        return Json.createObjectBuilder()
                .add("status", status)
                .add("error", reason)
                .add("message", message)
                .build();
    }
}
