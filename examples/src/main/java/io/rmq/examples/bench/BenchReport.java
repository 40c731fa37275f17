package io.rmq.examples.bench;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import io.rmq.examples.bench.BenchResults.How;
import io.rmq.examples.bench.BenchResults.Lateness;
import io.rmq.examples.bench.BenchResults.Phase;
import io.rmq.examples.bench.BenchResults.Row;
import io.rmq.examples.bench.BenchResults.SweepPoint;

/**
 * The benchmark's figures as Markdown: a summary with one column per Redis server, then each server's
 * phases, lateness and sweeps in full.
 */
final class BenchReport {

    private final StringBuilder md = new StringBuilder();

    private BenchReport() {
    }

    /** The report of {@code results}, below the {@code setup} lines (machine, settings). */
    static String markdown(List<String> setup, List<BenchResults> results) {
        BenchReport r = new BenchReport();
        r.line("# RMQ benchmark results");
        r.line("");
        setup.forEach(l -> r.line(l + "  "));
        r.line("");
        r.summary(results);
        for (BenchResults server : results) {
            r.server(server);
        }
        return r.md.toString();
    }

    private void summary(List<BenchResults> results) {
        line("## Summary");
        line("");
        StringBuilder head = new StringBuilder("| figure |");
        StringBuilder rule = new StringBuilder("|---|");
        for (BenchResults server : results) {
            head.append(" Redis ").append(server.redis()).append(" |");
            rule.append("---:|");
        }
        line(head.toString());
        line(rule.toString());
        for (How how : How.values()) {
            summaryRow(results, "sent /s, " + how.label, s -> rate(s, Phase.SEND, how));
        }
        summaryRow(results, "sent, tuned / baseline", s -> ratio(s.ratio(Phase.SEND, How.TUNED)));
        summaryRow(results, "sent, defaults / baseline", s -> ratio(s.ratio(Phase.SEND, How.DEFAULTS)));
        for (How how : How.values()) {
            summaryRow(results, "consumed and committed /s, " + how.label, s -> rate(s, Phase.CONSUME, how));
        }
        summaryRow(results, "sent and consumed at once /s, connector, tuned", s -> rate(s, Phase.AT_ONCE, How.TUNED));
        summaryRow(results, "consumed, tuned / baseline", s -> ratio(s.ratio(Phase.CONSUME, How.TUNED)));
        summaryRow(results, "consumed, defaults / baseline", s -> ratio(s.ratio(Phase.CONSUME, How.DEFAULTS)));
        summaryRow(results, "Redis commands per message, tuned (send + consume)", s -> commands(s, How.TUNED));
        summaryRow(results, "Redis commands per message, baseline (send + consume)", s -> commands(s, How.BASELINE));
        for (String condition : List.of("idle", "half load")) {
            summaryRow(results, "FIXED_TIME lateness p50 / p90 / p99 / max, " + condition, s -> s.lateness().stream()
                    .filter(l -> l.condition().equals(condition)).findFirst().map(BenchReport::percentiles).orElse("-"));
        }
        summaryRow(results, "half load: background sent and consumed /s (aimed at: half of at once)", s -> s.lateness().stream()
                .filter(l -> l.loadTarget() > 0).findFirst().map(BenchReport::load).orElse("-"));
        line("");
    }

    private void summaryRow(List<BenchResults> results, String figure, Function<BenchResults, String> value) {
        StringBuilder row = new StringBuilder("| ").append(figure).append(" |");
        results.forEach(s -> row.append(' ').append(value.apply(s)).append(" |"));
        line(row.toString());
    }

    private static String rate(BenchResults s, Phase phase, How how) {
        return s.row(phase, how).map(r -> format("%,.0f", r.figures().perSecond())).orElse("-");
    }

    private static String ratio(double ratio) {
        return Double.isNaN(ratio) ? "-" : format("%.2f", ratio);
    }

    private static String commands(BenchResults s, How how) {
        return s.row(Phase.SEND, how).flatMap(send -> s.row(Phase.CONSUME, how).map(consume -> format("%.2f",
                send.figures().redisCommandsPerMessage() + consume.figures().redisCommandsPerMessage()))).orElse("-");
    }

    private static String percentiles(Lateness l) {
        if (l.sorted().length == 0) {
            return "none delivered";
        }
        return format("%d / %d / %d / %d ms", l.percentile(50), l.percentile(90), l.percentile(99),
                l.sorted()[l.sorted().length - 1]);
    }

    private static String load(Lateness l) {
        return format("%,.0f (%,.0f)", l.loadPerSecond(), l.loadTarget());
    }

    private void server(BenchResults s) {
        line("## Redis " + s.redis());
        line("");
        line("| phase | who | settings | messages | seconds | messages/s | / baseline | Redis commands/msg"
                + " | script calls/msg | Redis CPU | JVM CPU | JVM CPU µs/msg | JVM bytes allocated/msg |");
        line("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Row r : s.rows()) {
            Counters.Phase f = r.figures();
            double ratio = r.how() == How.BASELINE ? Double.NaN : s.ratio(r.phase(), r.how());
            line(format("| %s | %s | %s | %,d | %.2f | %,.0f | %s | %.2f | %.3f | %.0f%% | %.0f%% | %.1f | %s |",
                    r.phase().label, r.how().label, r.settings(), f.messages(), f.seconds(), f.perSecond(), ratio(ratio),
                    f.redisCommandsPerMessage(), f.scriptCallsPerMessage(), f.redisCpu() * 100, f.jvmCpu() * 100,
                    f.jvmCpuMicrosPerMessage(), f.allocatedBytesPerMessage() < 0 ? "-"
                            : format("%,.0f", f.allocatedBytesPerMessage())));
        }
        line("");
        if (!s.lateness().isEmpty()) {
            line("FIXED_TIME lateness (delivered wall time - due time):");
            line("");
            line("| condition | received | sent in | background consumed /s (aimed at) | min | p50 | p90 | p99 | p99.9 | max |");
            line("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
            for (Lateness l : s.lateness()) {
                long[] v = l.sorted();
                String load = l.loadTarget() > 0 ? load(l) : "-";
                if (v.length == 0) {
                    line(format("| %s | 0 of %,d | %d ms | %s | | | | | | |", l.condition(), l.expected(),
                            l.sentWithinMs(), load));
                    continue;
                }
                line(format("| %s | %,d of %,d | %d ms | %s | %d ms | %d ms | %d ms | %d ms | %d ms | %d ms |",
                        l.condition(), v.length, l.expected(), l.sentWithinMs(), load, v[0], l.percentile(50),
                        l.percentile(90), l.percentile(99), l.percentile(99.9), v[v.length - 1]));
            }
            line("");
        }
        for (String axis : List.of(BenchResults.BATCH_AXIS, BenchResults.CONSUMERS_AXIS)) {
            List<SweepPoint> points = s.sweep(axis);
            if (points.isEmpty()) {
                continue;
            }
            line("Consumed and committed per second against " + axis + ":");
            line("");
            line("| " + axis + " | connector /s | raw Lettuce /s | connector / baseline |");
            line("|---:|---:|---:|---:|");
            for (SweepPoint p : points) {
                line(format("| %d | %,.0f | %,.0f | %.2f |", p.value(), p.connectorPerSecond(), p.baselinePerSecond(),
                        p.connectorPerSecond() / p.baselinePerSecond()));
            }
            line("");
        }
    }

    private void line(String text) {
        md.append(text).append('\n');
    }

    private static String format(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
