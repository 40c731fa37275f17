package io.rmq.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rmq.testing.redis.RedisProcess;

/**
 * Scenario e: a clean rolling restart of every consumer JVM during a stream, one after the other, each
 * stopped gracefully (as on undeploy or {@code SIGTERM}) and started again. The graceful shutdown lets
 * the messages being processed finish and commits them, and releases at once what was popped but not
 * handed over: nothing is lost, nothing is delivered twice, and nothing waits for the prepare timeout,
 * which is set far longer than the whole run so that a message left behind would show.
 */
class RollingRestartIT {

    private static final int MESSAGES = FaultSizes.of(15_000, 200_000);
    private static final int RATE = FaultSizes.of(2_000, 5_000);
    private static final int JVMS = 3;
    private static final int ROUNDS = FaultSizes.of(1, 3);
    private static final long PREPARE_TIMEOUT_MS = 600_000;

    @Test
    void aRollingRestartLosesAndRepeatsNothing(@TempDir Path dir) throws Exception {
        try (RedisProcess redis = RedisProcess.start(dir, List.of(), false);
                Scenario scenario = new Scenario("rolling restart", redis.uri())) {
            ConsumerJvm.Spec spec = new ConsumerJvm.Spec(redis.uri(), scenario.topic.name(), Scenario.SLOTS, dir, null,
                    PREPARE_TIMEOUT_MS, 200, 1);
            try (ConsumerFleet fleet = new ConsumerFleet(spec, JVMS)) {
                Load load = scenario.send(MESSAGES, 1_000, RATE);
                int restarts = 0;
                long lastRestart = 0;
                long pause = MESSAGES * 1000L / RATE / (ROUNDS * JVMS + 1);
                for (int round = 0; round < ROUNDS; round++) {
                    for (int i = 0; i < JVMS; i++) {
                        Thread.sleep(pause); // the pace of the restarts, not a wait for an event
                        fleet.stopAndReplace(i);
                        lastRestart = System.currentTimeMillis();
                        restarts++;
                    }
                }
                long lastSend = load.await(10);
                scenario.awaitDrained();
                long drained = System.currentTimeMillis();
                fleet.stopAll();

                Verdict verdict = scenario.verdict(false, fleet.historyFiles());
                long recovery = drained - Math.max(lastSend, lastRestart);
                scenario.report(verdict, restarts + " graceful restarts of " + JVMS + " consumer JVMs",
                        Scenario.seconds(recovery) + " to drain after the last restart or send (prepare timeout "
                                + Scenario.seconds(PREPARE_TIMEOUT_MS) + ")");
                assertThat(verdict.acked()).isEqualTo(MESSAGES);
                assertThat(verdict.lost()).as(verdict.problems()).isEmpty();
                assertThat(verdict.duplicates()).as(verdict.problems()).isEmpty();
                assertThat(verdict.deadLettered()).isEmpty();
                assertThat(scenario.rolledBack()).as("nothing was rolled back, so nothing waited for the prepare"
                        + " timeout (the sweeper rolls back at the deadline)").isZero();
            }
        }
    }
}
