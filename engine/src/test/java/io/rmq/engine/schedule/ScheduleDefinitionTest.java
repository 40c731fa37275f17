package io.rmq.engine.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.rmq.engine.topic.SlotRouter;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;

/** A schedule's checks, its record in the registry, and its fixed slot. */
class ScheduleDefinitionTest {

    private static final TopicDefinition REPORTS = new TopicDefinition("reports", 16, TopicType.PRIORITY, "app:");

    @Test
    void isRecordedAndReadBackAsItWas() {
        ScheduleDefinition d = new ScheduleDefinition("daily-report", REPORTS, "{\"run\":\"daily & more\"}"
                .getBytes(StandardCharsets.UTF_8), "reports", ScheduleTiming.cron("daily-report", "0 6 * * 1-5", "cron",
                "Europe/Paris", "zone"), MissedPolicy.CATCH_UP, "5");
        String encoded = d.encode();
        assertThat(encoded).startsWith("topic=reports&type=PRIORITY&slots=16&cron=0+6+*+*+1-5&zone=Europe%2FParis"
                + "&missed=catch-up&payload=");
        assertThat(ScheduleDefinition.decode("daily-report", encoded, "app:")).isEqualTo(d);
        assertThat(d.slot()).isEqualTo(SlotRouter.slotOf("reports", null, 16));
    }

    @Test
    void anIntervalRoutesByItsPayloadWithoutSlotBasis() {
        byte[] payload = "tick".getBytes(StandardCharsets.UTF_8);
        ScheduleDefinition d = new ScheduleDefinition("t", new TopicDefinition("beat", 8, TopicType.FIXED_TIME),
                payload, null, ScheduleTiming.every("t", "PT15M", "every"), MissedPolicy.SKIP, "ignored");
        assertThat(d.value()).isNull();
        assertThat(d.slot()).isEqualTo(SlotRouter.slotOf(payload, 8));
        assertThat(ScheduleDefinition.decode("t", d.encode(), "")).isEqualTo(d);
    }

    @Test
    void badInputIsNamed() {
        ScheduleTiming every = ScheduleTiming.every("x", "PT1S", "every");
        byte[] payload = new byte[] { 1 };
        assertThatThrownBy(() -> new ScheduleDefinition("no spaces", REPORTS, payload, null, every, MissedPolicy.SKIP, "1"))
                .hasMessageStartingWith("RMQ-0544 'no spaces' is not a schedule name");
        assertThatThrownBy(() -> new ScheduleDefinition("p", REPORTS, payload, null, every, MissedPolicy.SKIP, "high"))
                .hasMessageStartingWith("RMQ-0545 Schedule 'p': a PRIORITY topic needs value (the priority, a number)");
        assertThatThrownBy(() -> new ScheduleDefinition("r", new TopicDefinition("r", 2, TopicType.RANGE_MERGE), payload,
                null, every, MissedPolicy.SKIP, "0")).hasMessageStartingWith("RMQ-0545 Schedule 'r': a RANGE_MERGE topic");
        assertThatThrownBy(() -> new ScheduleDefinition("n", REPORTS, null, null, every, MissedPolicy.SKIP, "1"))
                .hasMessageStartingWith("RMQ-0549 Schedule 'n': payload");
        assertThatThrownBy(() -> MissedPolicy.parse("m", "schedules.m.missed", "later"))
                .hasMessageStartingWith("RMQ-0547 Schedule 'm': schedules.m.missed 'later'");
        assertThat(MissedPolicy.parse("m", "x", "Catch-Up")).isEqualTo(MissedPolicy.CATCH_UP);
    }
}
