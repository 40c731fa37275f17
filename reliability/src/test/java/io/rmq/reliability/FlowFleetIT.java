package io.rmq.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rmq.engine.admin.RmqAdmin;
import io.rmq.testing.redis.RedisProcess;

/**
 * A topic's rate limit held by a fleet: 4 JVMs running the connector on Weld, 4 consumers each (a channel with
 * {@code concurrency=4} and {@code rate-limit=200/s}), over a backlog of more than 60 s of the rate. The deliveries
 * recorded in [t0 + 5 s, t0 + 65 s] (t0: every JVM ready) are within 5 % of 60 x R; then the limit is doubled live
 * through {@code RmqAdmin.setRateLimit}: the deliveries in [tc + 1 s, tc + 4 s] (tc: the change) are within 10 %
 * of 3 s at the new rate, so the change took effect within a second in every JVM. The limit is removed, the rest
 * drains, and nothing is lost ({@link HistoryChecker}). Runs about 2 minutes.
 */
class FlowFleetIT {

    private static final int JVMS = 4;
    private static final int CONSUMERS_PER_JVM = 4;
    private static final int RATE = 200;
    private static final Duration WINDOW = Duration.ofSeconds(60);
    private static final Duration WARM_UP = Duration.ofSeconds(5);
    private static final Duration CHANGE_WINDOW = Duration.ofSeconds(3);
    /** 60 s at R, 5 s of warm-up, what the first JVMs take while the others start, the change and its window at 2R. */
    private static final int BACKLOG = RATE * 80 + 2 * RATE * 6;

    @Test
    void fourJvmsOfFourConsumersKeepTheRateAndFollowALiveChangeWithinASecond(@TempDir Path dir) throws Exception {
        try (RedisProcess redis = RedisProcess.start(dir, List.of(), false)) {
            run(new Scenario("flow fleet", redis.uri()), redis.uri(), dir, "standalone Redis");
        }
    }

    /** The fleet against the Redis at {@code uri}, watched by {@code fleetScenario} ({@code where} names it). */
    void run(Scenario fleetScenario, String uri, Path dir, String where) throws Exception {
        try (Scenario scenario = fleetScenario;
                RmqAdmin admin = RmqAdmin.connect(uri)) {
            scenario.send(BACKLOG, 1_000, 20_000).await(5);
            ConsumerJvm.Spec spec = new ConsumerJvm.Spec(uri, scenario.topic.name(), Scenario.SLOTS, dir, null,
                    30_000, 0, CONSUMERS_PER_JVM, FlowConsumerMain.class);
            List<ConsumerJvm> fleet = new ArrayList<>();
            List<Path> histories = new ArrayList<>();
            long windowStart;
            long windowEnd;
            long changeWindowStart;
            long changeWindowEnd;
            long changeTookMicros;
            try {
                for (int i = 0; i < JVMS; i++) {
                    String name = "limited-" + i;
                    histories.add(ConsumerJvm.historyFile(spec, name));
                    fleet.add(ConsumerJvm.start(spec, name, List.of(RATE + "/s")));
                }
                fleet.forEach(ConsumerJvm::awaitReady);
                long t0 = Clocks.nowMicros();
                windowStart = t0 + WARM_UP.toNanos() / 1_000;
                windowEnd = windowStart + WINDOW.toNanos() / 1_000;
                await().atMost(WARM_UP.plus(WINDOW).plusSeconds(30)).pollInterval(Duration.ofMillis(50))
                        .until(() -> Clocks.nowMicros() >= windowEnd);

                long changing = Clocks.nowMicros();
                admin.setRateLimit(scenario.topic, 2 * RATE, 0);
                long changedAt = Clocks.nowMicros();
                changeTookMicros = changedAt - changing;
                changeWindowStart = changedAt + 1_000_000;
                changeWindowEnd = changeWindowStart + CHANGE_WINDOW.toNanos() / 1_000;
                await().atMost(CHANGE_WINDOW.plusSeconds(30)).pollInterval(Duration.ofMillis(50))
                        .until(() -> Clocks.nowMicros() >= changeWindowEnd);
                assertThat(scenario.backlog()).as("the backlog lasted the whole measurement").isPositive();

                admin.removeRateLimit(scenario.topic);
                scenario.awaitDrained();
                fleet.forEach(ConsumerJvm::stop);
            } finally {
                fleet.forEach(ConsumerJvm::close);
            }

            Verdict verdict = scenario.verdict(false, histories.toArray(Path[]::new));
            List<History.Delivery> deliveries = scenario.history.deliveries();
            long atRate = count(deliveries, windowStart, windowEnd);
            long afterChange = count(deliveries, changeWindowStart, changeWindowEnd);
            double measured = atRate / (double) WINDOW.toSeconds();
            double measuredAfter = afterChange / (double) CHANGE_WINDOW.toSeconds();
            System.out.printf(java.util.Locale.ROOT, "FLOW FLEET (%s): %d JVMs x %d consumers, rate-limit %d/s: %d deliveries"
                    + " in %d s = %.1f/s (%+.2f %%); live change to %d/s (admin call %.1f ms): %d deliveries in the %d s"
                    + " starting 1 s after it = %.1f/s (%+.2f %%); %s%n", where, JVMS, CONSUMERS_PER_JVM, RATE, atRate,
                    WINDOW.toSeconds(), measured, 100 * (measured / RATE - 1), 2 * RATE, changeTookMicros / 1000.0,
                    afterChange, CHANGE_WINDOW.toSeconds(), measuredAfter, 100 * (measuredAfter / (2 * RATE) - 1),
                    verdict.summary());
            assertThat(verdict.lost()).as(verdict.problems()).isEmpty();
            assertThat(verdict.acked()).isEqualTo(BACKLOG);
            assertThat(measured).as("deliveries per second over %d s", WINDOW.toSeconds())
                    .isBetween(RATE * 0.95, RATE * 1.05);
            assertThat(measuredAfter).as("deliveries per second from 1 s after the live change")
                    .isBetween(2 * RATE * 0.9, 2 * RATE * 1.1);
        }
    }

    private static long count(List<History.Delivery> deliveries, long fromMicros, long toMicros) {
        return deliveries.stream().filter(d -> d.startMicros() >= fromMicros && d.startMicros() < toMicros).count();
    }
}
