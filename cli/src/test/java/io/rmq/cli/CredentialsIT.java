package io.rmq.cli;

import static io.rmq.cli.CliRun.rmq;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.rmq.engine.redis.RedisAcl;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.SecuredRedis;

/**
 * The tool logs in as a Redis ACL user whose password comes from a prompt ({@code --password}) or from
 * {@code RMQ_REDIS_PASSWORD}, never from the command line; a wrong password is said clearly, without it.
 */
class CredentialsIT {

    private static final String USER = "operator";
    private static final String PASSWORD = "CliPw-0c9d4e";
    private static final Path JAR = Path.of(System.getProperty("rmq.cli.jar", "target/rmq-cli.jar"));

    private static SecuredRedis redis;

    @BeforeAll
    static void restrictedUser() {
        redis = SecuredRedis.start();
        QueueState.register(redis.uri(), new TopicDefinition("orders", 2, TopicType.FIXED_TIME, "shop:"));
        List<String> rules = new ArrayList<>(List.of("on", ">" + PASSWORD, "resetkeys", "resetchannels", "-@all"));
        rules.addAll(RedisAcl.rules("shop:", false));
        redis.aclSetUser(USER, rules.toArray(String[]::new));
        redis.aclSetUser("default", "off");
    }

    @AfterAll
    static void stop() {
        redis.close();
    }

    @Test
    void thePasswordIsPromptedFor() {
        CliRun run = withInput(PASSWORD + "\n", "--uri", redis.uri(), "--user", USER, "--password",
                "--key-prefix", "shop:", "topics");
        assertThat(run.exitCode()).as("%s", run).isZero();
        assertThat(run.out()).contains("orders").doesNotContain(PASSWORD);
    }

    @Test
    void aWrongPasswordIsRefusedClearlyWithoutShowingIt() {
        CliRun run = withInput("not-" + PASSWORD + "\n", "--uri", redis.uri(), "--user", USER, "--password",
                "topics");
        assertThat(run.exitCode()).as("%s", run).isEqualTo(ExitCodes.FAILED);
        assertThat(run.err()).startsWith("rmq: RMQ-0330 Redis at " + redis.uri() + " refused the credentials: WRONGPASS")
                .doesNotContain(PASSWORD);
        assertThat(run.out()).doesNotContain(PASSWORD);
    }

    @Test
    void thePasswordComesFromTheEnvironment() throws Exception {
        Result run = rmqJar(Map.of("RMQ_REDIS_URI", redis.uri(), "RMQ_REDIS_USERNAME", USER,
                "RMQ_REDIS_PASSWORD", PASSWORD), "--key-prefix", "shop:", "stats", "orders");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).contains("orders").doesNotContain(PASSWORD);

        Result wrong = rmqJar(Map.of("RMQ_REDIS_URI", redis.uri(), "RMQ_REDIS_USERNAME", USER,
                "RMQ_REDIS_PASSWORD", "x" + PASSWORD), "topics");
        assertThat(wrong.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(wrong.err()).contains("RMQ-0330").doesNotContain(PASSWORD);
    }

    @Test
    void anUnreadableCaFileIsNamed() {
        CliRun run = rmq("--uri", "rediss://127.0.0.1:" + redis.port(), "--tls-ca-file", "/nonexistent/ca.pem",
                "topics");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(run.err()).startsWith("rmq: RMQ-0808 The --tls-ca-file '/nonexistent/ca.pem' does not exist");
    }

    private static CliRun withInput(String input, String... args) {
        InputStream in = System.in;
        System.setIn(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)));
        try {
            return rmq(args);
        } finally {
            System.setIn(in);
        }
    }

    private record Result(int exitCode, String out, String err) {
    }

    private static Result rmqJar(Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-jar", JAR.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(k -> k.startsWith("RMQ_"));
        builder.environment().putAll(env);
        Process process = builder.start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("rmq did not end within 60 s");
        }
        return new Result(process.exitValue(), out.get(10, TimeUnit.SECONDS), err.get(10, TimeUnit.SECONDS));
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
