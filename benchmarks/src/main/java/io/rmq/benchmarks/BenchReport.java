package io.rmq.benchmarks;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

import io.rmq.benchmarks.BenchResults.How;
import io.rmq.benchmarks.BenchResults.Lateness;
import io.rmq.benchmarks.BenchResults.Phase;
import io.rmq.benchmarks.BenchResults.Row;
import io.rmq.benchmarks.BenchResults.SearchPoint;
import io.rmq.benchmarks.BenchResults.SweepPoint;

/**
 * The benchmark's figures as Markdown: a summary with one column per Redis server (each connector figure
 * beside the bare client's at the same settings and the best bare one, with their ratios, and Redis
 * commands and CPU per message of each), then each server's phases, bare search, lateness and sweeps in full.
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
        boolean paired = results.stream().anyMatch(s -> !s.paired().isEmpty());
        line("Each connector row is divided by the bare Lettuce row at its own consumers, batch size, window and"
                + " slots (*same*), and by the fastest bare row of the run (*best bare*)."
                + (paired ? " The paired rounds repeat the comparisons of consuming, tuned and ordinary application: in"
                        + " each round the bare client's consume phase at the channels' settings and the channels', one"
                        + " right after the other (the bare client first in odd rounds, the channels first in even"
                        + " ones)." : "")
                + " Redis CPU: the server process's"
                + " user + system time per message (`INFO cpu`), the benchmark's own `INFO` calls taken out.");
        line("");
        StringBuilder head = new StringBuilder("| figure |");
        StringBuilder rule = new StringBuilder("|---|");
        for (BenchResults server : results) {
            head.append(" Redis ").append(server.redis()).append(" |");
            rule.append("---:|");
        }
        line(head.toString());
        line(rule.toString());
        for (How how : present(results, Phase.SEND)) {
            summaryRow(results, "sent /s, " + how.label, s -> rate(s, Phase.SEND, how));
        }
        summaryRow(results, "sent /s, best bare", s -> best(s, Phase.SEND));
        ratioRows(results, "sent", Phase.SEND);
        for (How how : present(results, Phase.CONSUME)) {
            summaryRow(results, "consumed and committed /s, " + how.label, s -> rate(s, Phase.CONSUME, how));
        }
        summaryRow(results, "consumed and committed /s, best bare", s -> best(s, Phase.CONSUME));
        if (results.stream().anyMatch(s -> !s.search().isEmpty())) {
            summaryRow(results, "bare search: fastest threads x batch (consumed /s)", s -> s.bestSearched()
                    .map(p -> format("%d x %d (%,.0f)", p.consumers(), p.batch(), p.perSecond())).orElse("-"));
        }
        ratioRows(results, "consumed", Phase.CONSUME);
        for (How how : List.of(How.TUNED, How.ORDINARY)) {
            if (results.stream().anyMatch(s -> !s.paired(how).isEmpty())) {
                String who = pairedName(how);
                summaryRow(results, "consumed, " + who + " / bare, paired rounds: median (each round)",
                        s -> paired(s, how));
                summaryRow(results, "consumed /s in the paired rounds, " + who + " / bare (machine steal)",
                        s -> s.paired(how).isEmpty() ? "-" : String.join(", ", s.paired(how).stream()
                                .map(r -> format("%,.0f / %,.0f (%s)", r.connector(), r.bare(), steal(r.steal())))
                                .toList()));
            }
        }
        for (How how : present(results, Phase.AT_ONCE)) {
            summaryRow(results, "sent and consumed at once /s, " + how.label, s -> rate(s, Phase.AT_ONCE, how));
        }
        if (results.stream().anyMatch(s -> s.bestBare(Phase.AT_ONCE).isPresent())) {
            summaryRow(results, "sent and consumed at once /s, best bare", s -> best(s, Phase.AT_ONCE));
            summaryRow(results, "sent and consumed at once, tuned / bare at the same settings",
                    s -> ratio(s.ratioToSame(Phase.AT_ONCE, How.TUNED)));
            summaryRow(results, "sent and consumed at once, tuned / best bare",
                    s -> ratio(s.ratioToBest(Phase.AT_ONCE, How.TUNED)));
        }
        for (How how : present(results, Phase.AT_ONCE)) {
            summaryRow(results, "at once: Redis / JVM CPU µs per message, " + how.label, s -> s.row(Phase.AT_ONCE, how)
                    .map(r -> format("%.1f / %.1f", r.figures().redisCpuMicrosPerMessage(),
                            r.figures().jvmCpuMicrosPerMessage())).orElse("-"));
        }
        for (How how : present(results, Phase.SEND)) {
            summaryRow(results, "Redis commands per message, send / consume, " + how.label,
                    s -> perPhase(s, how, f -> format("%.2f", f.redisCommandsPerMessage())));
        }
        for (How how : present(results, Phase.SEND)) {
            summaryRow(results, "Redis CPU µs per message (process), send / consume, " + how.label,
                    s -> perPhase(s, how, f -> format("%.1f", f.redisCpuMicrosPerMessage())));
        }
        for (How how : present(results, Phase.SEND)) {
            summaryRow(results, "JVM CPU µs per message, send / consume, " + how.label,
                    s -> perPhase(s, how, f -> format("%.1f", f.jvmCpuMicrosPerMessage())));
        }
        for (String condition : List.of("idle", "half load")) {
            summaryRow(results, "FIXED_TIME lateness p50 / p90 / p99 / max, " + condition, s -> s.lateness().stream()
                    .filter(l -> l.condition().equals(condition)).findFirst().map(BenchReport::percentiles).orElse("-"));
        }
        summaryRow(results, "half load: background sent and consumed /s (aimed at: half of at once)", s -> s.lateness().stream()
                .filter(l -> l.loadTarget() > 0).findFirst().map(BenchReport::load).orElse("-"));
        summaryRow(results, "machine steal, tuned: send / consume / at once / lateness idle / half load", s ->
                String.join(" / ", steal(s.row(Phase.SEND, How.TUNED)), steal(s.row(Phase.CONSUME, How.TUNED)),
                        steal(s.row(Phase.AT_ONCE, How.TUNED)), latenessSteal(s, "idle"), latenessSteal(s, "half load")));
        summaryRow(results, "machine steal, highest of any phase", s -> steal(highestSteal(s)));
        line("");
    }

    private void ratioRows(List<BenchResults> results, String verb, Phase phase) {
        for (How how : List.of(How.TUNED, How.DEFAULTS, How.ORDINARY)) {
            String who = switch (how) {
                case TUNED -> "tuned";
                case DEFAULTS -> "defaults";
                default -> "ordinary application";
            };
            summaryRow(results, verb + ", " + who + " / bare at the same settings", s -> ratio(s.ratioToSame(phase, how)));
            summaryRow(results, verb + ", " + who + " / best bare", s -> ratio(s.ratioToBest(phase, how)));
        }
    }

    /** The rows' owners that have a row of {@code phase} on some server, in the order of {@link How}. */
    private static List<How> present(List<BenchResults> results, Phase phase) {
        return Arrays.stream(How.values())
                .filter(how -> results.stream().anyMatch(s -> s.row(phase, how).isPresent())).toList();
    }

    private void summaryRow(List<BenchResults> results, String figure, Function<BenchResults, String> value) {
        StringBuilder row = new StringBuilder("| ").append(figure).append(" |");
        results.forEach(s -> row.append(' ').append(value.apply(s)).append(" |"));
        line(row.toString());
    }

    private static String rate(BenchResults s, Phase phase, How how) {
        return s.row(phase, how).map(r -> format("%,.0f", r.perSecond())).orElse("-");
    }

    /** The fastest bare row of {@code phase}: its rate and whose it is. */
    static String best(BenchResults s, Phase phase) {
        return s.bestBare(phase).map(r -> format("%,.0f (%s)", r.perSecond(), r.how().label)).orElse("-");
    }

    /**
     * The median of the paired rounds' ratios of the channels {@code how}, then each round's, in the order measured;
     * {@code -} without rounds.
     */
    static String paired(BenchResults s, How how) {
        List<Double> sorted = s.pairedRatios(how);
        if (sorted.isEmpty()) {
            return "-";
        }
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return format("%.2f (%s)", median,
                String.join(", ", s.paired(how).stream().map(r -> format("%.2f", r.ratio())).toList()));
    }

    /** The channels of paired rounds as the summary names them: {@code tuned}, {@code ordinary application}. */
    private static String pairedName(How how) {
        return how == How.TUNED ? "tuned" : "ordinary application";
    }

    static String ratio(double ratio) {
        return Double.isNaN(ratio) ? "-" : format("%.2f", ratio);
    }

    /** {@code value} of {@code how}'s send row, then of its consume row ({@code -} for a row it lacks). */
    static String perPhase(BenchResults s, How how, Function<Counters.Phase, String> value) {
        return s.row(Phase.SEND, how).map(r -> value.apply(r.figures())).orElse("-") + " / "
                + s.row(Phase.CONSUME, how).map(r -> value.apply(r.figures())).orElse("-");
    }

    /** A share of the machine's CPU time its hypervisor took, as a percentage; - when unknown. */
    static String steal(double share) {
        return share < 0 ? "-" : format("%.1f%%", share * 100);
    }

    private static String steal(Optional<Row> row) {
        return row.map(r -> steal(r.figures().steal())).orElse("-");
    }

    private static String latenessSteal(BenchResults s, String condition) {
        return s.lateness().stream().filter(l -> l.condition().equals(condition)).findFirst()
                .map(l -> steal(l.steal())).orElse("-");
    }

    /** The highest steal of any phase of the run (rows, lateness phases, paired rounds), -1 when none is known. */
    static double highestSteal(BenchResults s) {
        double highest = -1;
        for (Row r : s.rows()) {
            highest = Math.max(highest, r.figures().steal());
        }
        for (Lateness l : s.lateness()) {
            highest = Math.max(highest, l.steal());
        }
        for (BenchResults.PairedRound r : s.paired()) {
            highest = Math.max(highest, r.steal());
        }
        return highest;
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
        line("| phase | who | settings | messages | seconds | messages/s | / bare, same settings | / best bare"
                + " | Redis commands/msg | Redis CPU µs/msg (process) | script calls/msg | Redis CPU | JVM CPU"
                + " | JVM CPU µs/msg | JVM bytes allocated/msg | machine steal |");
        line("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Row r : s.rows()) {
            line(row(s, r));
        }
        line("");
        line("Best bare: sent " + best(s, Phase.SEND) + ", consumed " + best(s, Phase.CONSUME)
                + (s.bestBare(Phase.AT_ONCE).isPresent() ? ", sent and consumed at once " + best(s, Phase.AT_ONCE) : "")
                + ".");
        line("");
        if (!s.search().isEmpty()) {
            line("Bare Lettuce search, consumed and committed per second (the fastest measured in full, unless a row"
                    + " above has its settings):");
            line("");
            line("| threads | batch | messages | consumed /s |");
            line("|---:|---:|---:|---:|");
            for (SearchPoint p : s.search()) {
                line(format("| %d | %d | %,d | %,.0f |", p.consumers(), p.batch(), p.messages(), p.perSecond()));
            }
            line("");
        }
        if (!s.lateness().isEmpty()) {
            line("FIXED_TIME lateness (delivered wall time - due time):");
            line("");
            line("| condition | received | sent in | background consumed /s (aimed at) | min | p50 | p90 | p99 | p99.9 | max"
                    + " | machine steal |");
            line("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
            for (Lateness l : s.lateness()) {
                long[] v = l.sorted();
                String load = l.loadTarget() > 0 ? load(l) : "-";
                if (v.length == 0) {
                    line(format("| %s | 0 of %,d | %d ms | %s | | | | | | | %s |", l.condition(), l.expected(),
                            l.sentWithinMs(), load, steal(l.steal())));
                    continue;
                }
                line(format("| %s | %,d of %,d | %d ms | %s | %d ms | %d ms | %d ms | %d ms | %d ms | %d ms | %s |",
                        l.condition(), v.length, l.expected(), l.sentWithinMs(), load, v[0], l.percentile(50),
                        l.percentile(90), l.percentile(99), l.percentile(99.9), v[v.length - 1], steal(l.steal())));
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
            line("| " + axis + " | connector /s | bare Lettuce /s | connector / bare |");
            line("|---:|---:|---:|---:|");
            for (SweepPoint p : points) {
                line(format("| %d | %,.0f | %,.0f | %.2f |", p.value(), p.connectorPerSecond(), p.baselinePerSecond(),
                        p.connectorPerSecond() / p.baselinePerSecond()));
            }
            line("");
        }
    }

    /** One row of a server's table. */
    static String row(BenchResults s, Row r) {
        Counters.Phase f = r.figures();
        return format("| %s | %s | %s | %,d | %.2f | %,.0f | %s | %s | %.2f | %.1f | %.3f | %.0f%% | %.0f%% | %.1f | %s | %s |",
                r.phase().label, r.how().label, r.settings(), f.messages(), f.seconds(), f.perSecond(),
                ratio(s.ratioToSame(r.phase(), r.how())), ratio(s.ratioToBest(r.phase(), r.how())),
                f.redisCommandsPerMessage(), f.redisCpuMicrosPerMessage(), f.scriptCallsPerMessage(), f.redisCpu() * 100,
                f.jvmCpu() * 100, f.jvmCpuMicrosPerMessage(), f.allocatedBytesPerMessage() < 0 ? "-"
                        : format("%,.0f", f.allocatedBytesPerMessage()), steal(f.steal()));
    }

    private void line(String text) {
        md.append(text).append('\n');
    }

    private static String format(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
