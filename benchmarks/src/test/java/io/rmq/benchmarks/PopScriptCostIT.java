package io.rmq.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The consume cost tool end to end with small numbers, on the Redis the examples start. */
class PopScriptCostIT {

    private static final String FIGURE = "\\d+\\.\\d\\d \\[\\d+\\.\\d\\d, \\d+\\.\\d\\d\\]";
    private static final String SCRIPTS = "/io/rmq/engine/scripts/";

    @AfterEach
    void clearSettings() {
        System.clearProperty("pop-cost.before");
        System.clearProperty("pop-cost.before-lib");
        System.clearProperty("pop-cost.runs");
        System.clearProperty("pop-cost.rounds");
    }

    @Test
    void measuresThisBuildAndTheBareClientForEachRunLength() throws Exception {
        System.setProperty("pop-cost.runs", "1,14");
        System.setProperty("pop-cost.rounds", "2");

        String output = run();

        assertThat(output).contains("of 2 rounds of 5120 messages", "runs of 1 equal due times:",
                "runs of 14 equal due times:");
        assertThat(output.lines().filter(l -> l.matches("\\s+this build\\s+" + FIGURE + " / " + FIGURE + " / " + FIGURE)))
                .hasSize(2);
        assertThat(output.lines().filter(l -> l.matches("\\s+bare client\\s+" + FIGURE + " / " + FIGURE + " / " + FIGURE)))
                .hasSize(2);
        assertThat(output).doesNotContain("before");
    }

    @Test
    void measuresAnotherPopScriptWithItsOwnLibraryBeside(@TempDir Path dir) throws Exception {
        String pop = resource("pop.lua");
        Path before = dir.resolve("pop-before.lua");
        Files.writeString(before, pop);
        Matcher include = Pattern.compile("(?m)^-- #include (\\S+?)(?::.*)?$").matcher(pop);
        while (include.find()) {
            Path file = dir.resolve(include.group(1));
            Files.createDirectories(file.getParent());
            Files.writeString(file, resource(include.group(1)));
        }
        System.setProperty("pop-cost.before", before.toString());
        System.setProperty("pop-cost.before-lib", dir.toString());
        System.setProperty("pop-cost.runs", "8");
        System.setProperty("pop-cost.rounds", "2");

        String output = run();

        assertThat(output.lines().filter(l -> l.matches("\\s+before\\s+" + FIGURE + " / " + FIGURE + " / " + FIGURE)))
                .hasSize(1);
    }

    @Test
    void badSettingsAreNamed(@TempDir Path dir) throws Exception {
        System.setProperty("pop-cost.before", dir.resolve("missing.lua").toString());
        assertThatThrownBy(() -> PopScriptCost.main(new String[0])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pop-cost.before names no file").hasMessageContaining("git show <rev>:");

        Path before = dir.resolve("pop-before.lua");
        Files.writeString(before, resource("pop.lua"));
        System.setProperty("pop-cost.before", before.toString());
        System.setProperty("pop-cost.before-lib", dir.resolve("empty").toString());
        assertThatThrownBy(() -> PopScriptCost.main(new String[0])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pop-cost.before-lib holds no lib/");

        System.setProperty("pop-cost.runs", "0");
        assertThatThrownBy(() -> PopScriptCost.main(new String[0])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pop-cost.runs");
    }

    private static String run() throws Exception {
        return ProgramOutput.of(() -> PopScriptCost.main(new String[0]));
    }

    private static String resource(String name) throws Exception {
        try (InputStream in = PopScriptCostIT.class.getResourceAsStream(SCRIPTS + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
