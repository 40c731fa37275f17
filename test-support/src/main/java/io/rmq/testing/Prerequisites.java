package io.rmq.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Optional;

import org.junit.jupiter.api.Assumptions;

import io.rmq.testing.redis.RedisBinary;

/**
 * What a test needs that the project cannot ship: {@code redis-server} 7 (a Redis Cluster, TLS; the binary of
 * embedded-redis is Redis 6.2), {@code redis-cli}, {@code openssl}, Chromium and its driver. The fixtures that
 * need them ({@code RedisProcess} for a cluster node, {@code RedisClusterTestServer}, {@code SecuredRedis} for
 * TLS, {@code TestCertificates}) declare them here, so a test that uses such a fixture cannot forget to.
 *
 * <p>Without them the calling test is skipped, with a message that starts with {@value #SKIP_MARK} and says what
 * to install, so that {@code mvn -B verify} passes on a machine with only a JDK and Maven. With the environment
 * variable {@value #REQUIRE_ALL} set to {@code true} it fails instead, so that a build meant to run everything
 * cannot skip anything in silence. {@code .ci/run} runs the build first without the programs, then installs them
 * and runs again, under {@value #REQUIRE_ALL}, every test class that skipped here: those whose test reports carry
 * {@value #SKIP_MARK}, and those listed in {@code target/}{@value #SKIPPED_CLASSES} of their module (a skip in a
 * {@code @BeforeAll} method leaves no test case in Surefire's report, so the calling class is also written there).
 */
public final class Prerequisites {

    /** The environment variable that turns a missing program into a failure. */
    public static final String REQUIRE_ALL = "RMQ_TESTS_REQUIRE_ALL";
    /** How every skip of this class begins (.ci/run finds the skipped classes by it in the test reports). */
    public static final String SKIP_MARK = "needs installed programs:";

    /** The file, in the module's {@code target} folder, that lists the test classes skipped here, one a line. */
    public static final String SKIPPED_CLASSES = "skipped-for-programs.txt";

    private static final String DEBIAN = " (Debian: apt-get install redis-server, as .ci/run does)";

    private Prerequisites() {
    }

    /** {@code redis-server} 7 or later, the one the tests start ({@link RedisBinary#find()}). */
    public static void redis7(String what) {
        require(RedisBinary.find().majorVersion() >= 7, what + " needs redis-server 7 on the PATH (the binary of"
                + " embedded-redis is Redis 6.2)" + DEBIAN);
    }

    /** {@code redis-server} 7 and {@code redis-cli} on the {@code PATH}. */
    public static void redis7AndCli(String what) {
        require(RedisBinary.onPath("redis-cli").isPresent() && RedisBinary.find().majorVersion() >= 7,
                what + " needs redis-server 7 and redis-cli on the PATH" + DEBIAN);
    }

    /** {@code redis-server} (any version) and {@code redis-cli} from the {@code PATH}, not embedded-redis's. */
    public static void redisServerAndCliOnPath(String what) {
        require(RedisBinary.fromPath().isPresent() && RedisBinary.onPath("redis-cli").isPresent(),
                what + " needs redis-server and redis-cli on the PATH" + DEBIAN);
    }

    /** {@code openssl} on the {@code PATH}. */
    public static void openssl(String what) {
        require(RedisBinary.onPath("openssl").isPresent(), what + " needs openssl on the PATH (Debian: apt-get install openssl)");
    }

    /** An executable file at each of these paths (Chromium and its driver, for example). */
    public static void executables(String what, String install, Path... paths) {
        boolean all = true;
        for (Path p : paths) {
            all &= Files.isExecutable(p);
        }
        require(all, what + " needs " + Arrays.toString(paths) + " (" + install + ")");
    }

    /**
     * Goes on when {@code available}; otherwise skips the calling test (or fails it under {@value #REQUIRE_ALL}).
     *
     * @param needs what the test needs and how to install it, for the skip or failure message
     */
    private static void require(boolean available, String needs) {
        if (available) {
            return;
        }
        String message = SKIP_MARK + " " + needs;
        if ("true".equalsIgnoreCase(System.getenv(REQUIRE_ALL))) {
            throw new IllegalStateException(message + " (" + REQUIRE_ALL + "=true: nothing may be skipped)");
        }
        callingTestClass().ifPresent(Prerequisites::recordSkipped);
        Assumptions.abort(message);
    }

    /** The outermost class on the stack whose name says it is a test ({@code ...IT}, {@code ...Test}). */
    private static Optional<String> callingTestClass() {
        return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).walk(frames -> frames
                .map(f -> topLevel(f.getDeclaringClass()))
                .filter(c -> c.getName().startsWith("io.rmq.")
                        && (c.getSimpleName().endsWith("IT") || c.getSimpleName().endsWith("Test")))
                .map(Class::getName)
                .reduce((inner, outer) -> outer));
    }

    private static Class<?> topLevel(Class<?> c) {
        Class<?> top = c;
        while (top.getEnclosingClass() != null) {
            top = top.getEnclosingClass();
        }
        return top;
    }

    private static void recordSkipped(String testClass) {
        Path target = Path.of("target");
        if (!Files.isDirectory(target)) {
            return; // not run from a module's folder: the report's skip message is all there is
        }
        try {
            Files.writeString(target.resolve(SKIPPED_CLASSES), testClass + System.lineSeparator(), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            // the skip itself still happens and says why
        }
    }
}
