package io.rmq.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rmq.engine.RmqEngine;
import io.rmq.testing.redis.RedisProcess;

/**
 * Scenario b: Redis killed with {@code kill -9} during a stream and started again on its append-only
 * file, for each {@code appendfsync} setting, and without persistence for comparison.
 *
 * <p>Redis writes a command to its append-only file (a {@code write} to the operating system) before it
 * replies, whatever the {@code appendfsync} setting; the setting only says how often the file is forced
 * to disk ({@code fsync}). A killed <em>process</em> therefore loses no acknowledged send with any
 * setting: what it wrote is in the operating system's cache. The settings differ when the
 * <em>machine</em> fails (power loss, kernel panic): {@code always} loses nothing acknowledged,
 * {@code everysec} up to the last second or two of acknowledged sends, {@code no} what the kernel had
 * not flushed yet (up to about 30 s on Linux). A test cannot cut a machine's power, so the test checks
 * what {@code kill -9} loses, and bounds {@code everysec}'s and {@code no}'s losses to the sends
 * acknowledged in the two seconds before the kill. Without persistence, the restarted Redis is empty:
 * every message not yet consumed is lost, and the checker reports each one.
 */
class RedisCrashIT {

    private static final int MESSAGES = FaultSizes.of(15_000, 200_000);
    private static final int RATE = 5_000;
    private static final Duration OUTAGE = Duration.ofSeconds(1);

    @ParameterizedTest(name = "appendfsync {0}")
    @ValueSource(strings = {"always", "everysec", "no", "none"})
    void aKilledRedisRestartsFromItsAppendOnlyFile(String fsync, @TempDir Path dir) throws Exception {
        boolean persistent = !fsync.equals("none");
        List<String> persistence = persistent ? List.of("appendonly yes", "appendfsync " + fsync) : List.of();
        try (RedisProcess redis = RedisProcess.start(dir, persistence, false);
                Scenario scenario = new Scenario("redis kill -9, " + (persistent ? "appendfsync " + fsync : "no persistence"),
                        redis.uri());
                RmqEngine engine = new RmqEngine(redis.uri()).start()) {
            engine.registerTopic(scenario.topic).toCompletableFuture().join();
            // the consumers are slower than the producer: a backlog builds up, so the kill finds messages stored
            try (RecordingConsumer consumer = new RecordingConsumer(engine, scenario.keys,
                    Scenario.consumerOptions(Duration.ofSeconds(2)).build(), "crash",
                    (id, key, attempt, start) -> scenario.history.delivered(id, key, attempt, "crash", start), 800, 2)
                    .start()) {
                Load load = scenario.send(MESSAGES, 500, RATE);
                while (load.completed() < MESSAGES / 3) {
                    Thread.sleep(20); // waits for a third of the stream to be sent
                }
                long backlogAtKill = scenario.backlog();
                long killMicros = Clocks.nowMicros();
                redis.kill();
                Thread.sleep(OUTAGE.toMillis()); // the outage's length
                redis.restart();
                long restartMicros = Clocks.nowMicros();
                load.await(10);
                scenario.awaitDrained();

                Verdict verdict = scenario.verdict(false);
                long firstAckAfter = scenario.history.sends().stream().filter(History.Send::acked)
                        .mapToLong(History.Send::atMicros).filter(t -> t > restartMicros).min().orElse(restartMicros);
                scenario.report(verdict, "1 kill -9 of Redis, restarted after " + Scenario.seconds(OUTAGE.toMillis())
                        + " (backlog at the kill: " + backlogAtKill + ")",
                        Scenario.seconds((firstAckAfter - restartMicros) / 1000) + " from the restart to the first"
                                + " acknowledged send");
                assertThat(verdict.nacked()).as("sends during the outage fail and are reported").isPositive();
                assertThat(verdict.deadLettered()).isEmpty();
                switch (fsync) {
                    case "always" -> assertThat(verdict.lost()).as(verdict.problems()).isEmpty();
                    case "everysec", "no" -> assertThat(verdict.lost()).as(verdict.problems())
                            .allSatisfy(s -> assertThat(s.atMicros()).isBetween(killMicros - 2_000_000, restartMicros));
                    default -> {
                        assertThat(verdict.lost()).as("without persistence the backlog is lost, and reported").isNotEmpty();
                        // acknowledged by the killed server (a reply may be read a moment after the kill began)
                        assertThat(verdict.lost()).allSatisfy(s -> assertThat(s.atMicros()).isLessThan(restartMicros));
                    }
                }
            }
        }
    }
}
