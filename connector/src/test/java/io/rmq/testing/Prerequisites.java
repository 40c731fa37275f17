package io.rmq.testing;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Assumptions;

/**
 * What a test needs that the project cannot ship: {@code redis-server} 7 (a Redis Cluster, TLS; the binary of
 * embedded-redis is Redis 6.2), {@code redis-cli}, {@code openssl}, Chromium and its driver. The fixtures that
 * need them ({@link RedisProcess} for a cluster node, {@link RedisClusterTestServer}, {@link SecuredRedis} for
 * TLS, {@link TestCertificates}) declare them here, so a test that uses such a fixture cannot forget to.
 *
 * <p>Without them the calling test is skipped, with a message that starts with {@value #SKIP_MARK} and says what
 * to install, so that {@code mvn -B verify} passes on a machine with only a JDK and Maven. With the environment
 * variable {@value #REQUIRE_ALL} set to {@code true} it fails instead, so that a build meant to run everything
 * cannot skip anything in silence. {@code .ci/run} runs the build first without the programs, then installs them
 * and runs again, under {@value #REQUIRE_ALL}, every test class whose skip message carries {@value #SKIP_MARK}.
 */
public final class Prerequisites {

    /** The environment variable that turns a missing program into a failure. */
    public static final String REQUIRE_ALL = "RMQ_TESTS_REQUIRE_ALL";
    /** How every skip of this class begins (.ci/run finds the skipped classes by it in the test reports). */
    public static final String SKIP_MARK = "needs installed programs:";

    private static final String DEBIAN = " (Debian: apt-get install redis-server, as .ci/run does)";

    private Prerequisites() {
    }

    /** {@code redis-server} 7 or later, the one the tests start ({@link RedisProcess#serverMajorVersion}). */
    public static void redis7(String what) {
        require(RedisProcess.serverMajorVersion() >= 7, what + " needs redis-server 7 on the PATH (the binary of"
                + " embedded-redis is Redis 6.2)" + DEBIAN);
    }

    /** {@code redis-server} 7 and {@code redis-cli} on the {@code PATH}. */
    public static void redis7AndCli(String what) {
        require(RedisProcess.onPath("redis-cli") && RedisProcess.serverMajorVersion() >= 7,
                what + " needs redis-server 7 and redis-cli on the PATH" + DEBIAN);
    }

    /** {@code redis-server} (any version) and {@code redis-cli} from the {@code PATH}, not embedded-redis's. */
    public static void redisServerAndCliOnPath(String what) {
        require(RedisProcess.onPath("redis-server") && RedisProcess.onPath("redis-cli"),
                what + " needs redis-server and redis-cli on the PATH" + DEBIAN);
    }

    /** {@code openssl} on the {@code PATH}. */
    public static void openssl(String what) {
        require(RedisProcess.onPath("openssl"), what + " needs openssl on the PATH (Debian: apt-get install openssl)");
    }

    /** An executable file at each of these paths (Chromium and its driver, for example). */
    public static void executables(String what, String install, Path... paths) {
        boolean all = true;
        for (Path p : paths) {
            all &= Files.isExecutable(p);
        }
        require(all, what + " needs " + java.util.Arrays.toString(paths) + " (" + install + ")");
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
        Assumptions.abort(message);
    }
}
