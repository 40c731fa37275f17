package io.rmq.examples.quarkus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The packaged example ({@code target/quarkus-app/quarkus-run.jar}, which {@code mvn package} builds)
 * started as a process of its own, as {@code java -jar} would, for the tests that start it themselves:
 * with system properties and environment variables of their choice, on a free port, its output in a
 * file under {@code target/packaged-app}. {@link #close()} stops it (SIGTERM) if it still runs.
 */
final class PackagedApp implements AutoCloseable {

    private static final Path RUNNER = Paths.get(System.getProperty("rmq.example.runner", "target/quarkus-app/quarkus-run.jar"));
    private static final Pattern LISTENING = Pattern.compile("Listening on: http://[^:]+:(\\d+)");
    /** How long a start or a stop may take on a busy CI machine. */
    static final Duration WAIT = Duration.ofSeconds(120);

    private final Process process;
    private final Path log;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private volatile int port;

    private PackagedApp(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Starts the application with {@code properties} ({@code -Dname=value}) and {@code environment}. */
    static PackagedApp start(String name, Map<String, String> environment, String... properties) {
        assertThat(RUNNER).as("the packaged application (mvn package builds it)").isRegularFile();
        List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dquarkus.http.port=0"));
        command.addAll(List.of(properties));
        command.addAll(List.of("-jar", RUNNER.toString()));
        try {
            Path log = Files.createDirectories(Paths.get("target", "packaged-app")).resolve(name + ".log");
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().putAll(environment);
            return new PackagedApp(builder.start(), log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    /** Waits until it serves HTTP, and returns it. */
    PackagedApp awaitListening() {
        await().atMost(WAIT).until(() -> {
            Matcher m = LISTENING.matcher(output());
            if (m.find()) {
                port = Integer.parseInt(m.group(1));
                return true;
            }
            assertThat(process.isAlive()).as("the application exited while starting:%n%s", output()).isTrue();
            return false;
        });
        return this;
    }

    /** Waits until it exits by itself, and returns its exit code. */
    int awaitExit() {
        try {
            if (!process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                throw new AssertionError("the application did not exit within " + WAIT.toSeconds() + " s: " + log);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
        return process.exitValue();
    }

    /** Stops it as a container or Ctrl+C does (SIGTERM), and waits until it has exited. */
    void stop() {
        process.destroy();
        awaitExit();
    }

    /** Everything it printed so far. */
    String output() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends a request to its REST API and returns the response; {@code body} may be {@code null}. */
    HttpResponse<String> call(String method, String path, String body) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "text/plain")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            stop();
        }
    }
}
