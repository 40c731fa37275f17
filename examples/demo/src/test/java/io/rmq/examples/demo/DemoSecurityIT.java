package io.rmq.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.rmq.testing.redis.EmbeddedRedis;

/**
 * The demo as a user runs it against a Redis that requires a password, in a child JVM with
 * {@code RMQ_REDIS_URI} set: with the right password it prints the URI masked and succeeds; with a wrong one
 * it ends with the clear refusal on one line, status 1, no stack trace and no thread left behind to fail
 * later (a {@code NoClassDefFoundError} from a Netty thread, as before), and no password anywhere.
 */
class DemoSecurityIT {

    private static final String PASSWORD = "DemoPw-6b0e2f";
    private static final String WRONG = "NotThePw-31d7aa";

    private static EmbeddedRedis redis;

    @BeforeAll
    static void redisWithPassword() {
        redis = EmbeddedRedis.start();
        redis.command("CONFIG", "SET", "requirepass", PASSWORD);
    }

    @AfterAll
    static void stop() {
        redis.close();
    }

    @Test
    void withTheRightPasswordTheDemoRunsAndPrintsTheUriMasked() throws Exception {
        Result run = runDemo("redis://:" + PASSWORD + "@127.0.0.1:" + redis.port());
        assertThat(run.status()).as(run.output()).isZero();
        assertThat(run.lines().get(0)).startsWith("RMQ demo: Redis ")
                .contains("redis://***@127.0.0.1:" + redis.port());
        assertThat(run.output()).contains("Demo finished").doesNotContain(PASSWORD);
    }

    @Test
    void withAWrongPasswordTheDemoEndsWithTheClearMessageOnly() throws Exception {
        Result run = runDemo("redis://:" + WRONG + "@127.0.0.1:" + redis.port());
        assertThat(run.status()).as(run.output()).isEqualTo(1);
        assertThat(run.output()).contains("RMQ-0330", "WRONGPASS", "redis://***@127.0.0.1:" + redis.port())
                .doesNotContain(WRONG, PASSWORD, "NoClassDefFoundError", "Exception in thread", "\tat ");
        assertThat(run.lines()).last().asString().startsWith("RMQ demo: RMQ-0330 Redis at redis://***@");
    }

    private record Result(int status, String output) {
        List<String> lines() {
            return output.lines().filter(l -> !l.isBlank()).toList();
        }
    }

    private static Result runDemo(String redisUri) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder pb = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                Demo.class.getName()).redirectErrorStream(true);
        pb.environment().put(EmbeddedRedis.EXTERNAL_URI, redisUri);
        Process p = pb.start();
        byte[] output = p.getInputStream().readAllBytes(); // until the child closes its output: it has ended
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the demo did not end:\n" + new String(output, StandardCharsets.UTF_8));
        }
        return new Result(p.exitValue(), new String(output, StandardCharsets.UTF_8));
    }
}
