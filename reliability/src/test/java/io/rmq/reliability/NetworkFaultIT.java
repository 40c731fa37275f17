package io.rmq.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rmq.engine.RmqEngine;
import io.rmq.testing.faults.FaultProxy;
import io.rmq.testing.redis.RedisProcess;

/**
 * Scenario c: network faults between the application (its producer and its consumer) and Redis,
 * through a {@link FaultProxy}: added latency, connection resets, and a half-open connection that
 * swallows everything without closing. Nothing acknowledged is lost; the application recovers by
 * itself, within a bounded time for the half-open connection (the engine's command timeout).
 */
// Each test runs both scenarios, in one order or the other: what the first leaves in the JVM (a warm JIT,
// threads, closed clients) must not change how the second recovers.
class NetworkFaultIT {

    private static final int MESSAGES = FaultSizes.of(12_000, 100_000);
    private static final int RATE = 3_000;
    private static final Duration RECOVERY_BOUND = RmqEngine.DEFAULT_COMMAND_TIMEOUT.plusSeconds(20);

    @Test
    void latencyAndResetsThenAHalfOpenConnection(@TempDir Path dir) throws Exception {
        latencyAndResets(dir.resolve("first"), "run first");
        halfOpenConnection(dir.resolve("second"), "after the latency-and-resets scenario");
    }

    @Test
    void aHalfOpenConnectionThenLatencyAndResets(@TempDir Path dir) throws Exception {
        halfOpenConnection(dir.resolve("first"), "run first");
        latencyAndResets(dir.resolve("second"), "after the half-open scenario");
    }

    /** Added latency and connection resets: nothing acknowledged is lost, and the backlog drains. */
    private static void latencyAndResets(Path dir, String when) throws Exception {
        try (RedisProcess redis = RedisProcess.start(dir, List.of(), false); FaultProxy proxy = FaultProxy.to(redis.port());
                Scenario scenario = new Scenario("latency 50 ms and connection resets", proxy.redisUri(), redis.uri());
                RmqEngine engine = new RmqEngine(proxy.redisUri()).start()) {
            engine.registerTopic(scenario.topic).toCompletableFuture().join();
            try (RecordingConsumer consumer = consumer(engine, scenario)) {
                Load load = scenario.send(MESSAGES, 500, RATE);
                int resets = 0;
                long lastFault = 0;
                for (int round = 0; round < FaultSizes.of(2, 10); round++) {
                    awaitSends(load, (round * 2 + 1) * (long) MESSAGES / (FaultSizes.of(2, 10) * 2 + 1));
                    proxy.latency(Duration.ofMillis(50));
                    awaitSends(load, (round * 2 + 2) * (long) MESSAGES / (FaultSizes.of(2, 10) * 2 + 1));
                    proxy.latency(Duration.ZERO);
                    proxy.reset();
                    resets++;
                    lastFault = System.currentTimeMillis();
                }
                long lastSend = load.await(10);
                scenario.awaitDrained();
                long drained = System.currentTimeMillis();
                System.out.println("RELIABILITY failed sends by reason: " + load.failureReasons());

                Verdict verdict = scenario.verdict(false);
                scenario.report(verdict, resets + " periods of 50 ms latency, " + resets + " resets of every connection, " + when,
                        Scenario.seconds(drained - Math.max(lastFault, lastSend)) + " to drain after the last fault or send");
                assertThat(verdict.lost()).as(verdict.problems()).isEmpty();
                assertThat(verdict.deadLettered()).isEmpty();
            }
        }
    }

    /**
     * Every connection silenced for good: the consumer and the producer are back within the command timeout
     * and a bound (the connection is replaced), and nothing acknowledged is lost.
     */
    private static void halfOpenConnection(Path dir, String when) throws Exception {
        try (RedisProcess redis = RedisProcess.start(dir, List.of(), false); FaultProxy proxy = FaultProxy.to(redis.port());
                Scenario scenario = new Scenario("half-open connection", proxy.redisUri(), redis.uri());
                RmqEngine engine = new RmqEngine(proxy.redisUri()).start()) {
            engine.registerTopic(scenario.topic).toCompletableFuture().join();
            try (RecordingConsumer consumer = consumer(engine, scenario)) {
                Load load = scenario.send(MESSAGES, 500, RATE);
                awaitSends(load, MESSAGES / 4);
                long silentSince = Clocks.nowMicros();
                proxy.silence();

                awaitRecovery("a delivery", scenario, load, () ->
                        scenario.history.deliveries().stream().anyMatch(d -> d.startMicros() > silentSince + 100_000));
                long consumerBack = Clocks.nowMicros();
                awaitRecovery("an acknowledged send", scenario, load, () ->
                        scenario.history.sends().stream().anyMatch(s -> s.acked() && s.atMicros() > silentSince + 100_000));
                long producerBack = Clocks.nowMicros();
                load.await(10);
                scenario.awaitDrained();

                Verdict verdict = scenario.verdict(false);
                scenario.report(verdict, "every connection silenced for good (half-open) once, " + when,
                        "consumer " + Scenario.seconds((consumerBack - silentSince) / 1000) + ", producer "
                                + Scenario.seconds((producerBack - silentSince) / 1000) + " to replace the connection"
                                + " (command timeout " + Scenario.seconds(RmqEngine.DEFAULT_COMMAND_TIMEOUT.toMillis()) + ")");
                assertThat(verdict.lost()).as(verdict.problems()).isEmpty();
                assertThat(verdict.deadLettered()).isEmpty();
            }
        }
    }

    private static RecordingConsumer consumer(RmqEngine engine, Scenario scenario) {
        return new RecordingConsumer(engine, scenario.keys, Scenario.consumerOptions(Duration.ofSeconds(2)).build(), "net",
                (id, key, attempt, start) -> scenario.history.delivered(id, key, attempt, "net", start), 100, 2).start();
    }

    /** Waits for {@code what} after the silence; when it does not come, says what the load and Redis hold. */
    private static void awaitRecovery(String what, Scenario scenario, Load load, java.util.concurrent.Callable<Boolean> back) {
        try {
            await().atMost(RECOVERY_BOUND).pollInterval(Duration.ofMillis(100)).until(back);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("no " + what + " within " + RECOVERY_BOUND.toSeconds() + " s after the silence; load: "
                    + load.completed() + " sends completed, " + load.nacked() + " nacked " + load.failureReasons()
                    + "; backlog in Redis: " + scenario.backlog() + " messages", e);
        }
    }

    private static void awaitSends(Load load, long count) {
        await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(20))
                .until(() -> load.completed() >= count || load.isDone());
    }
}
