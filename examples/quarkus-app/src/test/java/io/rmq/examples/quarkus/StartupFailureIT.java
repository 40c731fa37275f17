package io.rmq.examples.quarkus;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * On Quarkus a channel that cannot work makes the application fail to start: the connector refuses it
 * when SmallRye Reactive Messaging creates the channel, as the application starts (there is no CDI
 * portable extension to check every channel before, see docs/quarkus.md). These tests start the packaged
 * example ({@code target/quarkus-app/quarkus-run.jar}) as a process with one channel misconfigured
 * through system properties, and check that it exits with an error naming the channel and what is wrong,
 * without ever serving HTTP.
 */
class StartupFailureIT {

    private static final Path RUNNER = Paths.get(System.getProperty("rmq.example.runner", "target/quarkus-app/quarkus-run.jar"));
    private static final long EXIT_WAIT_SECONDS = 120;

    @Test
    void aMisconfiguredChannelFailsTheStartWithTheConnectorsMessage() throws Exception {
        Started app = start("bad-channel",
                // no topic-type (an empty value is no value), and a slot amount that is not a power of two
                "-Dmp.messaging.incoming.tasks.topic-type=",
                "-Dmp.messaging.incoming.tasks.slot-amount=12");

        assertThat(app.exitCode()).as(app.output()).isNotZero();
        assertThat(app.output())
                .contains("Failed to start application")
                .contains("RMQ-2001: Channel 'tasks' (incoming): attribute 'topic-type' is missing")
                .contains("attribute 'slot-amount' = '12' is invalid: a power of two from 1 to 16384 is required")
                .doesNotContain("Listening on");
    }

    @Test
    void aChannelThatUsesATopicWithAnotherTypeFailsTheStartNamingBothDefinitions() throws Exception {
        // the outgoing channel tasks-out sends to the PRIORITY topic "tasks" (one slot); its consumer now says FIXED_TIME
        Started app = start("conflicting-topic", "-Dmp.messaging.incoming.tasks.topic-type=FIXED_TIME");

        assertThat(app.exitCode()).as(app.output()).isNotZero();
        assertThat(app.output())
                .contains("Failed to start application")
                .contains("RMQ-2014")
                .contains("PRIORITY")
                .contains("FIXED_TIME")
                .doesNotContain("Listening on");
    }

    private record Started(int exitCode, String output) {
    }

    /** Starts the packaged application with {@code properties} and waits until it exits by itself. */
    private static Started start(String name, String... properties) throws IOException, InterruptedException {
        assertThat(RUNNER).as("the packaged application (mvn package builds it)").isRegularFile();
        Path log = Files.createDirectories(Paths.get("target", "startup-failure")).resolve(name + ".log");
        List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dquarkus.http.port=0"));
        command.addAll(List.of(properties));
        command.addAll(List.of("-jar", RUNNER.toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            if (!process.waitFor(EXIT_WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("the application did not exit within " + EXIT_WAIT_SECONDS + " s: " + log);
            }
        } finally {
            process.destroyForcibly();
        }
        return new Started(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }
}
