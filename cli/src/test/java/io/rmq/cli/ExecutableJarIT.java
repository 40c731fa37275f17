package io.rmq.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;

/**
 * The executable jar that {@code mvn package} builds ({@code target/rmq-cli.jar}) runs on its own in a
 * JVM of its own, as the README says: {@code java -jar cli/target/rmq-cli.jar ...}.
 */
@RedisTest
class ExecutableJarIT {

    private static final Path JAR = Path.of(System.getProperty("rmq.cli.jar", "target/rmq-cli.jar"));

    @Test
    void theJarRunsACommandAndExitsWithItsStatus(RedisTestServer server) throws Exception {
        assertThat(JAR).as("built by the package phase").isRegularFile();
        QueueState.register(server.uri(), new TopicDefinition("orders", 4, TopicType.FIXED_TIME));
        Result topics = java("-jar", JAR.toString(), "--uri", server.uri(), "topics");
        assertThat(topics.exitCode()).as("%s", topics).isZero();
        assertThat(topics.out()).isEqualTo("TOPIC   TYPE        SLOTS\norders  FIXED_TIME      4\n");
        assertThat(topics.err()).as("nothing but the output: no library logs").isEmpty();

        Result unknown = java("-jar", JAR.toString(), "--uri", server.uri(), "stats", "nope");
        assertThat(unknown.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(unknown.err()).startsWith("rmq: RMQ-0312 Topic 'nope' is not recorded");
    }

    @Test
    void theUriDefaultsToTheEnvironment(RedisTestServer server) throws Exception {
        QueueState.register(server.uri(), new TopicDefinition("orders", 4, TopicType.FIXED_TIME));
        Result topics = javaWithEnv(server.uri(), "-jar", JAR.toString(), "--json", "topics");
        assertThat(topics.exitCode()).as("%s", topics).isZero();
        assertThat(topics.out()).contains("\"name\" : \"orders\"");
    }

    private record Result(int exitCode, String out, String err) {
    }

    private static Result java(String... args) throws Exception {
        return javaWithEnv(null, args);
    }

    private static Result javaWithEnv(String redisUri, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().remove("RMQ_REDIS_URI");
        if (redisUri != null) {
            builder.environment().put("RMQ_REDIS_URI", redisUri);
        }
        Process process = builder.start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("rmq " + String.join(" ", args) + " did not end within 60 s");
        }
        return new Result(process.exitValue(), out.get(10, TimeUnit.SECONDS), err.get(10, TimeUnit.SECONDS));
    }

    private static String read(java.io.InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
