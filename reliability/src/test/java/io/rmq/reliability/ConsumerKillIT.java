package io.rmq.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rmq.testing.redis.RedisProcess;

/**
 * Scenario a: consumer JVMs killed with {@code kill -9} again and again during a stream, each restarted
 * at once. What a killed consumer had popped waits in the prepare queue until its deadline (the prepare
 * timeout) and is delivered again: nothing is lost; the duplicates are the messages a killed consumer
 * had processed (and recorded) but not yet committed. It runs with the engine's consumer in the JVMs, and
 * again with the connector on Weld (an {@code @Incoming} method), as applications run it.
 */
class ConsumerKillIT {

    private static final int MESSAGES = FaultSizes.of(20_000, 1_000_000);
    private static final int RATE = FaultSizes.of(4_000, 12_000);
    private static final int KILLS = FaultSizes.of(3, 24);
    private static final int JVMS = 3;
    private static final long PREPARE_TIMEOUT_MS = 2_000;
    /** Generous upper bound on the stream, never an expected duration. */
    private static final long DRAIN_MINUTES = FaultSizes.FULL ? 30 : 5;

    @Test
    void killingConsumersLosesNothing(@TempDir Path dir) throws Exception {
        run(dir, "consumer kill -9", false, MESSAGES, RATE, KILLS);
    }

    /** The same with the connector on Weld in the consumer JVMs, as applications run it (a smaller stream). */
    @Test
    void killingConnectorApplicationsOnWeldLosesNothing(@TempDir Path dir) throws Exception {
        run(dir, "connector on Weld kill -9", true, FaultSizes.of(8_000, 100_000), FaultSizes.of(2_000, 5_000),
                FaultSizes.of(2, 6));
    }

    private static void run(Path dir, String name, boolean onWeld, int messages, int rate, int killCount) throws Exception {
        try (RedisProcess redis = RedisProcess.start(dir, List.of(), false);
                Scenario scenario = new Scenario(name, redis.uri())) {
            ConsumerJvm.Spec engineSpec = new ConsumerJvm.Spec(redis.uri(), scenario.topic.name(), Scenario.SLOTS, dir,
                    null, PREPARE_TIMEOUT_MS, 100, 1);
            ConsumerJvm.Spec spec = onWeld ? engineSpec.onWeld() : engineSpec;
            try (ConsumerFleet fleet = new ConsumerFleet(spec, JVMS)) {
                Load load = scenario.send(messages, 1_000, rate);
                long streamMillis = messages * 1000L / rate;
                long killEvery = Math.max(500, streamMillis * 9 / 10 / killCount);
                long streamStart = System.currentTimeMillis();
                Random random = new Random(42);
                int kills = 0;
                long lastKill = 0;
                while (kills < killCount) {
                    Thread.sleep(killEvery); // the pace of the faults, not a wait for an event
                    lastKill = System.currentTimeMillis();
                    fleet.killAndReplace(random.nextInt(JVMS));
                    kills++;
                }
                long lastSend = load.await(DRAIN_MINUTES);
                fleet.awaitReady();
                scenario.awaitDrained();
                long drained = System.currentTimeMillis();
                fleet.stopAll();

                Verdict verdict = scenario.verdict(false, fleet.historyFiles());
                scenario.report(verdict, kills + " kill -9 of " + JVMS + " consumer JVMs, every "
                        + Scenario.seconds(killEvery) + ", the last " + Scenario.seconds(lastKill - streamStart)
                        + " into a stream of " + Scenario.seconds(lastSend - streamStart),
                        Scenario.seconds(drained - Math.max(lastKill, lastSend)) + " to drain after the last kill or send"
                                + " (prepare timeout " + Scenario.seconds(PREPARE_TIMEOUT_MS) + ")");
                assertThat(verdict.acked()).isEqualTo(messages);
                assertThat(verdict.lost()).as(verdict.problems()).isEmpty();
                assertThat(verdict.deadLettered()).isEmpty();
                assertThat(verdict.duplicates().size())
                        .as("duplicates are messages a killed consumer processed but did not commit: at most its"
                                + " in-flight messages per kill")
                        .isLessThanOrEqualTo(kills * 64);
            }
        }
    }
}
