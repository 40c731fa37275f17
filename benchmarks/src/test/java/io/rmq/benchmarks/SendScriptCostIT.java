package io.rmq.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The send script's cost tool end to end with small numbers, on the Redis the examples start. */
class SendScriptCostIT {

    @AfterEach
    void clearSettings() {
        System.clearProperty("send-cost.before");
        System.clearProperty("send-cost.per-call");
        System.clearProperty("send-cost.rounds");
    }

    @Test
    void measuresBothScriptsAtEachCallSize(@TempDir Path dir) throws Exception {
        Path before = dir.resolve("send-before.lua");
        try (InputStream in = SendScriptCostIT.class.getResourceAsStream("/io/rmq/engine/scripts/send.lua")) {
            Files.write(before, in.readAllBytes());
        }
        System.setProperty("send-cost.before", before.toString());
        System.setProperty("send-cost.per-call", "4,8");
        System.setProperty("send-cost.rounds", "2");

        String output = ProgramOutput.of(() -> SendScriptCost.main(new String[0]));
        assertThat(output).contains("EVALSHA time per sent message", "of 2 rounds of 200 calls each");
        String figure = "\\d+\\.\\d\\d \\[\\d+\\.\\d\\d, \\d+\\.\\d\\d\\]";
        assertThat(output.lines().filter(l -> l.matches("\\s+4 per call:  before " + figure + "  this build " + figure)))
                .hasSize(1);
        assertThat(output.lines().filter(l -> l.matches("\\s+8 per call:  before " + figure + "  this build " + figure)))
                .hasSize(1);
    }

    @Test
    void withoutTheOtherScriptItSaysHowToGetOne() {
        assertThatThrownBy(() -> SendScriptCost.main(new String[0]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("send-cost.before")
                .hasMessageContaining("git show <rev>:engine/src/main/resources/io/rmq/engine/scripts/send.lua");
    }
}
