package io.rmq.engine.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rmq.engine.RmqEngine;
import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisProcess;

/**
 * A schedule survives a crash of Redis with AOF ({@code appendonly yes}): its definition and last tick come back,
 * and the running instance goes on ticking after it reconnects, with no tick twice.
 */
class ScheduleAofRestartIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void aScheduleSurvivesARedisCrashWithAof(@TempDir Path dir) {
        try (RedisProcess redis = RedisProcess.start(dir, List.of("appendonly yes", "appendfsync always"), false);
                RmqEngine engine = new RmqEngine(redis.uri()).start()) {
            engine.ready().toCompletableFuture().join();
            TopicKeys keys = engine.registerTopic(new TopicDefinition("aof", 2, TopicType.FIXED_TIME))
                    .toCompletableFuture().join();
            ScheduleDefinition aof = engine.schedules().define(new ScheduleDefinition("aof", keys.topic(),
                    "aof".getBytes(StandardCharsets.UTF_8), null, ScheduleTiming.every("aof", "PT1S", "every"),
                    MissedPolicy.SKIP, null)).toCompletableFuture().join();
            String state = keys.scheduleState(aof.slot(), "aof");
            try (ScheduleRunner runner = engine.runSchedules("", Set.of("aof"))) {
                await().atMost(WAIT).until(() -> ticked(redis, keys, aof) >= 2);
                long lastBefore = Long.parseLong(redis.cli("HGET", state, "last"));

                redis.kill();
                redis.restart();

                try (RmqAdmin admin = RmqAdmin.connect(redis.uri())) {
                    assertThat(admin.schedules("")).singleElement().satisfies(s -> {
                        assertThat(s.definition()).isEqualTo(aof);
                        assertThat(s.lastTick()).isPresent();
                        assertThat(s.lastTick().get().toEpochMilli()).isGreaterThanOrEqualTo(lastBefore);
                    });
                }
                long tickedAfterRestart = ticked(redis, keys, aof);
                await().atMost(WAIT).until(() -> ticked(redis, keys, aof) >= tickedAfterRestart + 2);
                assertThat(runner.running()).containsExactly("aof");
            }
        }
    }

    private static long ticked(RedisProcess redis, TopicKeys keys, ScheduleDefinition d) {
        String value = redis.cli("HGET", keys.slot(d.slot()).counters(), "ticked");
        return value.isEmpty() ? 0 : Long.parseLong(value);
    }
}
