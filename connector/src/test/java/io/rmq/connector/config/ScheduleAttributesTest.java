package io.rmq.connector.config;

import static io.rmq.connector.config.TestConfigs.channel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rmq.engine.schedule.MissedPolicy;
import io.rmq.engine.schedule.ScheduleDefinition;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;

/** The schedules an outgoing channel declares, {@code schedules.<name>.<field>}, and the problems they report. */
class ScheduleAttributesTest {

    @Test
    void declaredSchedulesAreReadByName() {
        OutgoingChannelConfig config = OutgoingChannelConfig.from(channel("reports", "topic-type", "PRIORITY",
                "priority", "3",
                "schedules.daily-report.cron", "0 6 * * *",
                "schedules.daily-report.zone", "Europe/Paris",
                "schedules.daily-report.payload", "{\"report\":\"daily\"}",
                "schedules.daily-report.missed", "catch-up",
                "schedules.beat.every", "PT1S",
                "schedules.beat.payload", "beat",
                "schedules.beat.slot-basis", "beats",
                "schedules.beat.priority", "9"));

        List<ScheduleDeclaration> schedules = config.schedules();
        assertThat(schedules).extracting(ScheduleDeclaration::name).containsExactly("beat", "daily-report");
        TopicDefinition topic = config.topic();
        ScheduleDefinition daily = schedules.get(1).definition(topic, config);
        assertThat(daily.timing().describe()).isEqualTo("cron=0 6 * * *, zone=Europe/Paris");
        assertThat(daily.missed()).isEqualTo(MissedPolicy.CATCH_UP);
        assertThat(daily.value()).as("the channel's priority").isEqualTo("3.0");
        assertThat(new String(daily.payload(), StandardCharsets.UTF_8)).isEqualTo("{\"report\":\"daily\"}");
        ScheduleDefinition beat = schedules.get(0).definition(topic, config);
        assertThat(beat.timing().describe()).isEqualTo("every=PT1S");
        assertThat(beat.missed()).isEqualTo(MissedPolicy.SKIP);
        assertThat(beat.slotBasis()).isEqualTo("beats");
        assertThat(beat.value()).isEqualTo("9");
        assertThat(config).asString().contains("schedules=[beat, daily-report]");
    }

    @Test
    void eachWrongSettingIsAProblemNamingIt() {
        List<ConfigProblem> problems = OutgoingChannelConfig.validate(channel("reports", "topic-type", "FIXED_TIME",
                "schedules.a.cron", "0 6 * *",
                "schedules.a.payload", "x",
                "schedules.b.every", "PT1S",
                "schedules.b.zone", "UTC",
                "schedules.b.payload", "x",
                "schedules.c.cron", "0 6 * * *",
                "schedules.c.zone", "Mars/Olympus",
                "schedules.c.payload", "x",
                "schedules.d.every", "PT1S",
                "schedules.d.missed", "later",
                "schedules.e.every", "PT1S",
                "schedules.f.every", "PT1S",
                "schedules.f.payload", "x",
                "schedules.f.paylod", "typo"));

        assertThat(problems).extracting(ConfigProblem::attribute).containsExactlyInAnyOrder("schedules.a.cron",
                "schedules.b.zone", "schedules.c.zone", "schedules.d.missed", "schedules.d.payload",
                "schedules.e.payload", "schedules.f.paylod");
        assertThat(problems).filteredOn(p -> p.attribute().equals("schedules.a.cron")).singleElement()
                .satisfies(p -> assertThat(p.describe()).contains("RMQ-0540 Schedule 'a': schedules.a.cron '0 6 * *'"));
        assertThat(problems).filteredOn(p -> p.attribute().equals("schedules.f.paylod")).singleElement()
                .satisfies(p -> assertThat(p.describe()).contains("schedules.<name>.<field>", "payload"));
    }

    @Test
    void aScheduleWithoutTheValueItsTopicTypeNeedsFailsTheDeployment() {
        List<ConfigProblem> priority = OutgoingChannelConfig.validate(channel("p", "topic-type", "PRIORITY",
                "schedules.s.every", "PT1M", "schedules.s.payload", "x"));
        assertThat(priority).singleElement().satisfies(p -> {
            assertThat(p.attribute()).isEqualTo("schedules.s.priority");
            assertThat(p.describe()).contains("RMQ-0545 Schedule 's': a PRIORITY topic needs schedules.s.priority");
        });
        List<ConfigProblem> range = OutgoingChannelConfig.validate(channel("r", "topic-type", "RANGE_MERGE",
                "schedules.s.every", "PT1M", "schedules.s.payload", "x", "schedules.s.time-range", "-5"));
        assertThat(range).singleElement().satisfies(p -> assertThat(p.attribute()).isEqualTo("schedules.s.time-range"));
        assertThat(OutgoingChannelConfig.validate(channel("r", "topic-type", "RANGE_MERGE", "time-range", "500",
                "schedules.s.every", "PT1M", "schedules.s.payload", "x"))).as("the channel's time-range").isEmpty();
    }

    @Test
    void theDefinitionTakesTheValueOfItsRegisteredTopicsType() {
        OutgoingChannelConfig config = OutgoingChannelConfig.from(channel("p", "topic-type", "PRIORITY", "priority", "2",
                "schedules.s.every", "PT1M", "schedules.s.payload", "x"));
        assertThat(config.schedules().get(0).definition(config.topic(), config).value()).isEqualTo("2.0");
        TopicDefinition range = new TopicDefinition("p", 16, TopicType.RANGE_MERGE);
        assertThatThrownBy(() -> config.schedules().get(0).definition(range, config))
                .hasMessageStartingWith("RMQ-0545 Schedule 's': a RANGE_MERGE topic needs schedules.s.time-range");
    }
}
