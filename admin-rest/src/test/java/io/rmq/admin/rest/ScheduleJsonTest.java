package io.rmq.admin.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.rmq.engine.schedule.MissedPolicy;
import io.rmq.engine.schedule.ScheduleDefinition;
import io.rmq.engine.schedule.ScheduleInfo;
import io.rmq.engine.schedule.ScheduleTiming;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;

/** The JSON answers of the schedule endpoints, member by member and in order, as docs/admin-rest.md shows them. */
class ScheduleJsonTest {

    private static final TopicDefinition REPORTS = new TopicDefinition("reports", 1, TopicType.FIXED_TIME, "shop:");

    @Test
    void aCronScheduleWithItsTicks() {
        ScheduleDefinition d = new ScheduleDefinition("daily-report", REPORTS, "run".getBytes(StandardCharsets.UTF_8), null,
                ScheduleTiming.cron("daily-report", "0 6 * * *", "cron", "Europe/Paris", "zone"), MissedPolicy.CATCH_UP, null);
        ScheduleInfo info = new ScheduleInfo(d, Optional.of(Instant.parse("2026-01-31T05:00:00Z")), false,
                Optional.of(Instant.parse("2026-02-01T05:00:00Z")));
        assertThat(ScheduleJson.schedules("redis://cache:6379", "shop:", List.of(info)).toString()).isEqualTo(
                "{\"redis\":\"redis://cache:6379\",\"keyPrefix\":\"shop:\",\"registry\":\"shop:rmq:schedules\",\"schedules\":["
                        + "{\"name\":\"daily-report\",\"topic\":\"reports\",\"type\":\"FIXED_TIME\",\"slot\":0,"
                        + "\"cron\":\"0 6 * * *\",\"zone\":\"Europe/Paris\",\"every\":null,\"missed\":\"catch-up\","
                        + "\"slotBasis\":null,\"value\":null,\"payloadBase64\":\"cnVu\",\"payload\":\"run\",\"paused\":false,"
                        + "\"lastTick\":\"2026-01-31T05:00:00Z\",\"nextTick\":\"2026-02-01T05:00:00Z\"}]}");
    }

    @Test
    void anIntervalScheduleWithABinaryPayloadPaused() {
        ScheduleDefinition d = new ScheduleDefinition("beat", new TopicDefinition("jobs", 4, TopicType.PRIORITY, ""),
                new byte[] { (byte) 0xff }, "b", ScheduleTiming.every("beat", "PT15M", "every"), MissedPolicy.SKIP, "3");
        assertThat(ScheduleJson.schedule(new ScheduleInfo(d, Optional.empty(), true, Optional.empty())).toString())
                .isEqualTo("{\"name\":\"beat\",\"topic\":\"jobs\",\"type\":\"PRIORITY\",\"slot\":" + d.slot() + ","
                        + "\"cron\":null,\"zone\":null,\"every\":\"PT15M\",\"missed\":\"skip\",\"slotBasis\":\"b\",\"value\":\"3\","
                        + "\"payloadBase64\":\"/w==\",\"payload\":null,\"paused\":true,\"lastTick\":null,\"nextTick\":null}");
    }
}
