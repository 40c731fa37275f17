package io.rmq.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark end to end with tiny sizes, as a user runs it (a JVM of its own), on the Redis 6.2 of
 * embedded-redis: it writes its table and its three charts, with figures of the connector, tuned and
 * with defaults, each beside the bare client at the same settings and the best bare client.
 */
class BenchmarkIT {

    @Test
    void aTinyRunWritesTheTableAndTheCharts(@TempDir Path out) throws Exception {
        String output = run("redis=embedded", "messages=2000", "warmup=500", "lateness-messages=500",
                "lateness-lead-ms=300", "lateness-spread-ms=500", "sweep=true", "sweep-messages=1000",
                "sweep-batch-sizes=32", "sweep-consumers=2", "best-bare-messages=500", "best-bare-consumers=1,2",
                "best-bare-batch-sizes=32", "paired-rounds=2", "out=" + out);

        Path table = out.resolve(Benchmark.RESULTS_FILE);
        assertThat(table).isNotEmptyFile();
        String markdown = Files.readString(table);
        assertThat(output).contains(markdown.lines().filter(l -> l.startsWith("| sent /s")).findFirst().orElseThrow());
        for (String figure : List.of("sent /s, bare Lettuce, as tuned", "sent /s, bare Lettuce, as defaults",
                "sent /s, bare Lettuce, multi-member ZADD", "sent /s, connector, tuned", "sent /s, connector, defaults",
                "consumed and committed /s, bare Lettuce, as tuned", "consumed and committed /s, bare Lettuce, as defaults",
                "consumed and committed /s, connector, tuned", "consumed and committed /s, connector, defaults",
                "sent, tuned / bare at the same settings", "sent, tuned / best bare",
                "sent, defaults / bare at the same settings", "consumed, tuned / bare at the same settings",
                "consumed, tuned / best bare", "consumed, defaults / bare at the same settings",
                "consumed, defaults / best bare", "sent and consumed at once /s, connector, tuned",
                "sent and consumed at once /s, bare Lettuce, as tuned",
                "sent and consumed at once /s, bare Lettuce, multi-member ZADD",
                "sent and consumed at once, tuned / bare at the same settings",
                "sent and consumed at once, tuned / best bare")) {
            assertThat(summaryValue(markdown, figure)).as(figure).isPositive();
        }
        for (String who : List.of("tuned", "ordinary application")) {
            assertThat(markdown).as("two paired rounds of the %s channels: the median, then each round's ratio", who)
                    .containsPattern("\\| consumed, " + who + " / bare, paired rounds: median \\(each round\\) \\| [0-9.]+"
                            + " \\([0-9.]+, [0-9.]+\\) \\|");
        }
        assertThat(markdown).contains("(embedded-redis)", "| idle | 500 of 500 |", "| half load | 500 of 500 |",
                "JVM bytes allocated/msg", "Redis CPU µs/msg (process)", "Bare Lettuce search", "Consumed and committed per second against batch size",
                "Consumed and committed per second against consumers");
        for (String chart : List.of(BenchCharts.BATCH_SIZE_FILE, BenchCharts.CONSUMERS_FILE, BenchCharts.LATENESS_FILE)) {
            Path png = out.resolve(chart);
            assertThat(png).isNotEmptyFile();
            // the PNG signature
            assertThat(Files.readAllBytes(png)).startsWith(0x89, 'P', 'N', 'G');
        }
    }

    /** The number in the first server's column of the summary row {@code figure}. */
    private static double summaryValue(String markdown, String figure) {
        String row = markdown.lines().filter(l -> l.startsWith("| " + figure + " |")).findFirst()
                .orElseThrow(() -> new AssertionError("no row '" + figure + "' in:\n" + markdown));
        return Double.parseDouble(row.split("\\|")[2].strip().replace(",", ""));
    }

    private static String run(String... args) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new java.util.ArrayList<>(List.of(java.toString(), "-cp",
                System.getProperty("java.class.path"), Benchmark.class.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = p.getInputStream().readAllBytes(); // until the child closes its output: it has ended
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the benchmark did not end:\n" + new String(output, StandardCharsets.UTF_8));
        }
        String text = new String(output, StandardCharsets.UTF_8);
        System.out.print(text);
        assertThat(p.exitValue()).as(text).isZero();
        return text;
    }
}
