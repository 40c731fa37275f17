package io.rmq.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.rmq.benchmarks.BenchResults.How;
import io.rmq.benchmarks.BenchResults.Phase;
import io.rmq.benchmarks.BenchResults.SearchPoint;

/** The report's comparisons: each connector row against the bare row at its settings and the best bare row. */
class BenchReportTest {

    /** {@code perSecond} messages per second over one second, {@code cpuMicros} Redis CPU µs per message. */
    private static Counters.Phase figures(double perSecond, double commands, double cpuMicros) {
        return figures(perSecond, commands, cpuMicros, 0.0);
    }

    private static Counters.Phase figures(double perSecond, double commands, double cpuMicros, double steal) {
        long messages = (long) perSecond;
        return new Counters.Phase(messages, 1.0, commands, 0.01, cpuMicros * messages / 1e6, cpuMicros, 0.5, 3.0, 1_000,
                steal);
    }

    private static BenchResults server() {
        BenchResults s = new BenchResults("7.0.15 (test)");
        s.add(Phase.SEND, How.BARE_AS_TUNED, "single", figures(200_000, 1.0, 3.4));
        s.add(Phase.CONSUME, How.BARE_AS_TUNED, "2 x 128", figures(250_000, 0.16, 2.0));
        s.add(Phase.SEND, How.TUNED, "tuned", figures(150_000, 0.23, 5.2));
        s.add(Phase.CONSUME_ACKED, How.TUNED, "tuned", figures(275_000, 0.15, 3.0));
        s.add(Phase.CONSUME, How.TUNED, "tuned", figures(260_000, 0.15, 3.1));
        s.add(Phase.AT_ONCE, How.TUNED, "tuned", figures(90_000, 0.38, 8.0));
        s.add(Phase.AT_ONCE, How.BARE_AS_TUNED, "single", figures(100_000, 1.1, 6.0));
        s.add(Phase.AT_ONCE, How.BARE_GROUPED, "grouped", figures(120_000, 0.2, 4.0));
        s.add(Phase.SEND, How.BARE_AS_DEFAULTS, "single", figures(190_000, 1.0, 3.5));
        s.add(Phase.CONSUME, How.BARE_AS_DEFAULTS, "1 x 128", figures(150_000, 0.16, 2.2));
        s.add(Phase.SEND, How.DEFAULTS, "defaults", figures(120_000, 0.23, 5.0));
        s.add(Phase.CONSUME, How.DEFAULTS, "defaults", figures(120_000, 0.15, 3.3));
        s.add(Phase.SEND, How.BARE_AS_ORDINARY, "single", figures(190_000, 1.0, 3.5));
        s.add(Phase.CONSUME, How.BARE_AS_ORDINARY, "4 x 128", figures(200_000, 0.16, 2.2));
        s.add(Phase.SEND, How.ORDINARY, "ordinary", figures(120_000, 0.23, 5.0));
        s.add(Phase.CONSUME, How.ORDINARY, "ordinary", figures(90_000, 0.15, 3.3));
        s.add(Phase.SEND, How.BARE_GROUPED, "grouped", figures(400_000, 0.06, 1.1));
        s.add(Phase.SEND, How.BARE_SEARCHED, "single", figures(195_000, 1.0, 3.4));
        s.add(Phase.CONSUME, How.BARE_SEARCHED, "4 x 256", figures(325_000, 0.10, 1.9));
        s.search().add(new SearchPoint(2, 128, 50_000, 240_000));
        s.search().add(new SearchPoint(4, 256, 50_000, 330_000));
        return s;
    }

    @Test
    void ratiosCompareWithTheBareRowAtTheSameSettingsAndWithTheFastestBareRow() {
        BenchResults s = server();
        assertThat(s.ratioToSame(Phase.CONSUME, How.TUNED)).isEqualTo(260_000 / 250_000.0);
        assertThat(s.ratioToBest(Phase.CONSUME, How.TUNED)).isEqualTo(260_000 / 325_000.0);
        assertThat(s.ratioToSame(Phase.CONSUME_ACKED, How.TUNED)).as("against the bare consume").isEqualTo(1.1);
        assertThat(s.ratioToSame(Phase.CONSUME, How.DEFAULTS)).isEqualTo(0.8);
        assertThat(s.ratioToSame(Phase.CONSUME, How.ORDINARY)).as("against 4 threads popping 128").isEqualTo(0.45);
        assertThat(s.ratioToSame(Phase.SEND, How.TUNED)).isEqualTo(0.75);
        assertThat(s.ratioToBest(Phase.SEND, How.TUNED)).as("the multi-member ZADD is the fastest send").isEqualTo(0.375);
        assertThat(s.ratioToSame(Phase.AT_ONCE, How.TUNED)).as("against the bare client's at once").isEqualTo(0.9);
        assertThat(s.ratioToBest(Phase.AT_ONCE, How.TUNED)).as("the multi-member ZADD is the fastest at once")
                .isEqualTo(0.75);
        assertThat(s.ratioToSame(Phase.AT_ONCE, How.DEFAULTS)).as("no such row").isNaN();
        assertThat(s.ratioToSame(Phase.CONSUME, How.BARE_SEARCHED)).isNaN();
        assertThat(s.ratioToBest(Phase.CONSUME, How.BARE_AS_TUNED)).isNaN();
        assertThat(s.bestSearched()).contains(new SearchPoint(4, 256, 50_000, 330_000));
    }

    @Test
    void theSummaryShowsBothRatiosTheBestBareRowsAndRedisCpuPerMessage() {
        String md = BenchReport.markdown(List.of("setup line"), List.of(server()));
        assertThat(md).contains(
                "| sent /s, bare Lettuce, multi-member ZADD | 400,000 |",
                "| sent /s, best bare | 400,000 (bare Lettuce, multi-member ZADD) |",
                "| sent, tuned / bare at the same settings | 0.75 |",
                "| sent, tuned / best bare | 0.38 |",
                "| consumed and committed /s, best bare | 325,000 (bare Lettuce, best of search) |",
                "| bare search: fastest threads x batch (consumed /s) | 4 x 256 (330,000) |",
                "| consumed, tuned / bare at the same settings | 1.04 |",
                "| consumed, tuned / best bare | 0.80 |",
                "| consumed, defaults / bare at the same settings | 0.80 |",
                "| consumed, ordinary application / bare at the same settings | 0.45 |",
                "| Redis commands per message, send / consume, connector, tuned | 0.23 / 0.15 |",
                "| Redis CPU µs per message (process), send / consume, connector, tuned | 5.2 / 3.1 |",
                "| Redis CPU µs per message (process), send / consume, bare Lettuce, as tuned | 3.4 / 2.0 |",
                "| Redis CPU µs per message (process), send / consume, bare Lettuce, multi-member ZADD | 1.1 / - |",
                "| JVM CPU µs per message, send / consume, connector, tuned | 3.0 / 3.0 |",
                "| sent and consumed at once /s, connector, tuned | 90,000 |",
                "| sent and consumed at once /s, bare Lettuce, as tuned | 100,000 |",
                "| sent and consumed at once /s, best bare | 120,000 (bare Lettuce, multi-member ZADD) |",
                "| sent and consumed at once, tuned / bare at the same settings | 0.90 |",
                "| sent and consumed at once, tuned / best bare | 0.75 |",
                "| at once: Redis / JVM CPU µs per message, bare Lettuce, as tuned | 6.0 / 3.0 |",
                "| / bare, same settings | / best bare | Redis commands/msg | Redis CPU µs/msg (process) |",
                "| 4 | 256 | 50,000 | 330,000 |");
        assertThat(md).doesNotContain("baseline");
    }

    @Test
    void aServerRowCarriesBothRatiosAndRedisCpuPerMessage() {
        BenchResults s = server();
        String row = BenchReport.row(s, s.row(Phase.CONSUME, How.TUNED).orElseThrow());
        assertThat(row).startsWith("| consume, every commit in Redis | connector, tuned | tuned | 260,000 | 1.00 | 260,000"
                + " | 1.04 | 0.80 | 0.15 | 3.1 | 0.010 |");
        String bare = BenchReport.row(s, s.row(Phase.CONSUME, How.BARE_AS_TUNED).orElseThrow());
        assertThat(bare).contains("| 250,000 | - | - | 0.16 | 2.0 |");
    }

    @Test
    void thePairedRoundsShowTheirMedianRatioAndEachRound() {
        BenchResults s = server();
        assertThat(BenchReport.markdown(List.of("setup line"), List.of(s))).as("without rounds")
                .doesNotContain("paired rounds");
        s.paired().add(new BenchResults.PairedRound(How.TUNED, 200_000, 220_000, 0.002));
        s.paired().add(new BenchResults.PairedRound(How.TUNED, 250_000, 200_000, 0.0));
        s.paired().add(new BenchResults.PairedRound(How.TUNED, 100_000, 100_000, -1));
        String md = BenchReport.markdown(List.of("setup line"), List.of(s));
        assertThat(md).contains(
                "| consumed, tuned / bare, paired rounds: median (each round) | 1.00 (1.10, 0.80, 1.00) |",
                "| consumed /s in the paired rounds, tuned / bare (machine steal) | 220,000 / 200,000 (0.2%),"
                        + " 200,000 / 250,000 (0.0%), 100,000 / 100,000 (-) |");
        assertThat(md).as("no rounds of the ordinary application").doesNotContain("ordinary application / bare, paired");
        s.paired().add(new BenchResults.PairedRound(How.TUNED, 100_000, 120_000, 0.0));
        assertThat(BenchReport.paired(s, How.TUNED)).as("an even number of rounds: the mean of the middle two")
                .isEqualTo("1.05 (1.10, 0.80, 1.00, 1.20)");
    }

    @Test
    void theOrdinaryApplicationsPairedRoundsHaveRowsOfTheirOwn() {
        BenchResults s = server();
        s.paired().add(new BenchResults.PairedRound(How.TUNED, 200_000, 220_000, 0.0));
        s.paired().add(new BenchResults.PairedRound(How.ORDINARY, 200_000, 180_000, 0.01));
        s.paired().add(new BenchResults.PairedRound(How.ORDINARY, 100_000, 90_000, 0.0));
        assertThat(BenchReport.markdown(List.of("setup line"), List.of(s))).contains(
                "| consumed, tuned / bare, paired rounds: median (each round) | 1.10 (1.10) |",
                "| consumed, ordinary application / bare, paired rounds: median (each round) | 0.90 (0.90, 0.90) |",
                "| consumed /s in the paired rounds, ordinary application / bare (machine steal) | 180,000 / 200,000"
                        + " (1.0%), 90,000 / 100,000 (0.0%) |");
        assertThat(BenchReport.highestSteal(s)).as("the ordinary rounds' steal counts too").isEqualTo(0.01);
    }

    @Test
    void eachPhaseShowsTheMachinesStealAndTheSummaryTheTunedPhasesAndTheHighest() {
        BenchResults s = server();
        s.add(Phase.AT_ONCE, How.BARE_AS_DEFAULTS, "single", figures(80_000, 1.1, 6.0, 0.183));
        s.lateness().add(new BenchResults.Lateness("idle", new long[] {1, 2, 3}, 3, 10, 0, 0, 0.004));
        s.lateness().add(new BenchResults.Lateness("half load", new long[] {2, 4}, 2, 10, 1_000, 990, -1));
        String md = BenchReport.markdown(List.of("setup line"), List.of(s));
        assertThat(md).contains(
                "| machine steal, tuned: send / consume / at once / lateness idle / half load | 0.0% / 0.0% / 0.0% / 0.4% / - |",
                "| machine steal, highest of any phase | 18.3% |",
                "| JVM bytes allocated/msg | machine steal |",
                "| max | machine steal |");
        assertThat(BenchReport.row(s, s.row(Phase.AT_ONCE, How.BARE_AS_DEFAULTS).orElseThrow())).endsWith("| 18.3% |");
    }

    @Test
    void stealIsTheStolenShareOfTheMachinesTicksFromTheCpuLineOfProcStat() {
        Counters.MachineTicks before = Counters.MachineTicks.parse("cpu  100 5 50 800 10 0 5 30 0 0");
        Counters.MachineTicks after = Counters.MachineTicks.parse("cpu  200 5 70 900 10 0 5 50 7 0");
        assertThat(before).isEqualTo(new Counters.MachineTicks(30, 1_000));
        assertThat(after).isEqualTo(new Counters.MachineTicks(50, 1_240));
        assertThat(after.stealSince(before)).isEqualTo(20 / 240.0);
        assertThat(Counters.MachineTicks.parse("cpu  1 2 3 4 5 6 7")).as("no steal field")
                .isEqualTo(new Counters.MachineTicks(-1, -1));
        assertThat(after.stealSince(Counters.MachineTicks.UNKNOWN)).as("unknown").isEqualTo(-1);
        assertThat(before.stealSince(before)).as("no tick between").isEqualTo(-1);
    }
}
