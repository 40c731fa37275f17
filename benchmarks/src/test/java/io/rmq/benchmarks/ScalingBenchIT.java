package io.rmq.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.rmq.testing.Prerequisites;

/**
 * The scaling benchmark end to end with small numbers, every mode at once: it starts its servers,
 * runs each phase to the end and prints every table with a row per run.
 */
class ScalingBenchIT {

    @BeforeAll
    static void redisServerAndCli() {
        Prerequisites.redisServerAndCliOnPath("the scaling benchmark (it starts its own servers and cluster)");
    }

    @Test
    void everyModeRunsAndPrintsItsTables() throws Exception {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream out = System.out;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            ScalingBench.main(new String[] {"mode=all", "messages=600", "warmup=200", "rounds=1", "replicas=1",
                    "backlogs=500,2000", "measure=300", "slots=4", "consumers=2"});
        } finally {
            System.setOut(out);
        }
        String output = captured.toString(StandardCharsets.UTF_8);
        out.print(output);
        assertThat(output)
                .contains("| single | 1 | 600 |", "| cluster | 1 | 600 |", "no replicas")
                .contains("| 500 | ", "| 2,000 | ", "RDB bytes per message", "RDB load seconds", "popped and committed /s")
                .contains("Redis CPU, all processes", "Redis CPU per message")
                .contains("| 3 | 256 | ", "| 6 | 1024 | ");
        // a message in Redis costs at least its 100 bytes
        assertThat(output.lines().filter(l -> l.startsWith("| 2,000 | ")).findFirst().orElseThrow().split("\\|")[3].strip())
                .matches("[1-9][0-9]{2}\\.[0-9]");
    }
}
