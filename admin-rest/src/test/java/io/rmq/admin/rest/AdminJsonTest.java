package io.rmq.admin.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.rmq.engine.admin.DeadCursor;
import io.rmq.engine.admin.DeadMessage;
import io.rmq.engine.admin.DeadPage;
import io.rmq.engine.admin.DeadSelection;
import io.rmq.engine.admin.SlotCounters;
import io.rmq.engine.admin.SlotOwner;
import io.rmq.engine.admin.SlotStats;
import io.rmq.engine.admin.TopicStats;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;

/** The JSON answers, member by member and in order, as docs/admin-rest.md shows them. */
class AdminJsonTest {

    private static final TopicDefinition ORDERS = new TopicDefinition("orders", 2, TopicType.FIXED_TIME, "shop:");

    @Test
    void topics() {
        assertThat(AdminJson.topics("redis://***@cache:6379", "shop:",
                List.of(ORDERS, new TopicDefinition("jobs", 1, TopicType.PRIORITY, "shop:"))).toString())
                .isEqualTo("{\"redis\":\"redis://***@cache:6379\",\"keyPrefix\":\"shop:\",\"registry\":\"shop:rmq:topics\","
                        + "\"topics\":[{\"name\":\"orders\",\"type\":\"FIXED_TIME\",\"slotAmount\":2},"
                        + "{\"name\":\"jobs\",\"type\":\"PRIORITY\",\"slotAmount\":1}]}");
    }

    @Test
    void statsGiveEachSlotAndTheTotalsWithTheOwnerOrNull() {
        SlotOwner owner = new SlotOwner("orders-in@host-1:42#ab", 7, Instant.parse("2026-01-31T12:00:00.250Z"));
        TopicStats stats = new TopicStats(ORDERS, List.of(
                new SlotStats(0, 3, 2, 1500, 1, 4, true, Optional.of(owner), new SlotCounters(12, 2, 9, 6, 5, 4, 1, 0, 0, 0, 0, 0, 0, 0)),
                new SlotStats(1, 1, 1, 9000, 0, 0, false, Optional.empty())));
        assertThat(AdminJson.stats(stats).toString()).isEqualTo("{\"topic\":\"orders\",\"type\":\"FIXED_TIME\",\"slotAmount\":2,"
                + "\"keyPrefix\":\"shop:\",\"totals\":{\"pending\":4,\"due\":3,\"oldestDueAgeMillis\":9000,\"inFlight\":1,"
                + "\"dead\":4,\"paused\":false,\"pausedSlots\":1},"
                + "\"counters\":{\"sent\":12,\"merged\":2,\"delivered\":9,\"acked\":6,\"nacked\":5,\"dead\":4,"
                + "\"released\":1,\"requeued\":0,\"purged\":0,\"trimmed\":0,\"cancelled\":0,\"rescheduled\":0,\"expired\":0,\"ticked\":0},\"slots\":["
                + "{\"slot\":0,\"pending\":3,\"due\":2,\"oldestDueAgeMillis\":1500,\"inFlight\":1,\"dead\":4,\"paused\":true,"
                + "\"owner\":{\"worker\":\"orders-in@host-1:42#ab\",\"epoch\":7,\"since\":\"2026-01-31T12:00:00.250Z\"}},"
                + "{\"slot\":1,\"pending\":1,\"due\":1,\"oldestDueAgeMillis\":9000,\"inFlight\":0,\"dead\":0,\"paused\":false,"
                + "\"owner\":null}]}");
    }

    @Test
    void deadMessagesKeepTheirBytesAndShowTextOnlyWhenItIsUtf8() {
        Instant died = Instant.parse("2026-01-31T12:00:01.500Z");
        DeadPage page = new DeadPage(List.of(
                new DeadMessage(0, "close:\u00e9".getBytes(StandardCharsets.UTF_8), died, 3, "java.lang.IllegalStateException: no"),
                new DeadMessage(1, new byte[] {'b', 0, (byte) 0xfe}, died, 0, "")), Optional.of(new DeadCursor(1, 1)));
        assertThat(AdminJson.deadPage(ORDERS, DeadCursor.START, page).toString()).isEqualTo("{\"topic\":\"orders\","
                + "\"cursor\":\"0:0\",\"next\":\"1:1\",\"messages\":["
                + "{\"slot\":0,\"diedAt\":\"2026-01-31T12:00:01.500Z\",\"deliveries\":3,"
                + "\"lastFailure\":\"java.lang.IllegalStateException: no\",\"content\":\"close:\u00e9\",\"contentBase64\":\"Y2xvc2U6w6k=\"},"
                + "{\"slot\":1,\"diedAt\":\"2026-01-31T12:00:01.500Z\",\"deliveries\":null,\"lastFailure\":null,"
                + "\"content\":null,\"contentBase64\":\"YgD+\"}]}");
        assertThat(AdminJson.deadPage(ORDERS, new DeadCursor(1, 1), new DeadPage(List.of(), Optional.empty())).toString())
                .isEqualTo("{\"topic\":\"orders\",\"cursor\":\"1:1\",\"next\":null,\"messages\":[]}");
    }

    @Test
    void reportsOfChanges() {
        DeadActionRequest requeue = new DeadActionRequest(DeadSelection.all(), "all", true, 50);
        assertThat(AdminJson.deadAction(ORDERS, "requeue", requeue, 4).toString()).isEqualTo("{\"topic\":\"orders\","
                + "\"action\":\"requeue\",\"selection\":\"all\",\"dryRun\":true,\"count\":4,\"ratePerSecond\":50}");
        DeadActionRequest purge = new DeadActionRequest(DeadSelection.contentContains("x"), "content contains 'x'", false, 0);
        assertThat(AdminJson.deadAction(ORDERS, "purge", purge, 1).toString()).isEqualTo("{\"topic\":\"orders\","
                + "\"action\":\"purge\",\"selection\":\"content contains 'x'\",\"dryRun\":false,\"count\":1,\"ratePerSecond\":null}");
        assertThat(AdminJson.pending(ORDERS, "due-now", 1, false).toString())
                .isEqualTo("{\"topic\":\"orders\",\"action\":\"due-now\",\"slot\":1,\"pending\":false}");
        assertThat(AdminJson.paused(ORDERS, true).toString()).isEqualTo("{\"topic\":\"orders\",\"slots\":2,\"paused\":true}");
        assertThat(AdminJson.error(404, "Not Found", "RMQ-0312 ...").toString())
                .isEqualTo("{\"status\":404,\"error\":\"Not Found\",\"message\":\"RMQ-0312 ...\"}");
    }
}
