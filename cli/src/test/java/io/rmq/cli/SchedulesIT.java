package io.rmq.cli;

import static io.rmq.cli.CliRun.rmq;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.rmq.engine.RmqEngine;
import io.rmq.engine.schedule.MissedPolicy;
import io.rmq.engine.schedule.ScheduleDefinition;
import io.rmq.engine.schedule.ScheduleTiming;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;

/** {@code rmq schedules list|pause|resume|remove}: the recorded schedules and their state in Redis. */
@RedisTest
class SchedulesIT {

    @Test
    void listPauseResumeAndRemove(RedisTestServer server, RedisConnections redis) {
        String prefix = "cli" + System.nanoTime() + ":";
        TopicDefinition reports = new TopicDefinition("reports", 2, TopicType.FIXED_TIME, prefix);
        ScheduleDefinition daily = new ScheduleDefinition("daily-report", reports, "run".getBytes(StandardCharsets.UTF_8),
                null, ScheduleTiming.cron("daily-report", "0 6 * * *", "cron", "Europe/Paris", "zone"),
                MissedPolicy.CATCH_UP, null);
        try (RmqEngine engine = new RmqEngine(server.uri()).start()) {
            engine.ready().toCompletableFuture().join();
            engine.schedules().define(daily).toCompletableFuture().join();
        }

        CliRun list = rmq("--uri", server.uri(), "--key-prefix", prefix, "schedules", "list");
        assertThat(list.exitCode()).as("%s", list).isZero();
        assertThat(list.out()).contains("SCHEDULE", "daily-report", "reports", "cron=0 6 * * *, zone=Europe/Paris",
                "catch-up", "no");

        CliRun pause = rmq("--uri", server.uri(), "--key-prefix", prefix, "schedules", "pause", "daily-report");
        assertThat(pause.exitCode()).as("%s", pause).isZero();
        assertThat(pause.out()).startsWith("paused schedule 'daily-report' of topic 'reports'");
        JsonNode listed = rmq("--uri", server.uri(), "--key-prefix", prefix, "--json", "schedules", "list").json();
        assertThat(listed.get("registry").asText()).isEqualTo(prefix + "rmq:schedules");
        JsonNode schedule = listed.get("schedules").get(0);
        assertThat(schedule.get("paused").asBoolean()).isTrue();
        assertThat(schedule.get("nextTick").asText()).endsWith(":00:00Z");
        assertThat(schedule.get("lastTick").isNull()).isFalse();

        JsonNode resumed = rmq("--uri", server.uri(), "--key-prefix", prefix, "--json", "schedules", "resume",
                "daily-report").json();
        assertThat(resumed.get("action").asText()).isEqualTo("resumed");
        assertThat(resumed.get("schedule").get("paused").asBoolean()).isFalse();

        CliRun remove = rmq("--uri", server.uri(), "--key-prefix", prefix, "schedules", "remove", "daily-report");
        assertThat(remove.exitCode()).as("%s", remove).isZero();
        assertThat(redis.sync().hlen(prefix + "rmq:schedules")).isZero();
        assertThat(rmq("--uri", server.uri(), "--key-prefix", prefix, "schedules", "list").out())
                .startsWith("no schedule is recorded in hash '" + prefix + "rmq:schedules'");

        CliRun unknown = rmq("--uri", server.uri(), "--key-prefix", prefix, "schedules", "pause", "daily-report");
        assertThat(unknown.exitCode()).isNotZero();
        assertThat(unknown.err()).contains("RMQ-0548 No schedule 'daily-report'");
    }
}
