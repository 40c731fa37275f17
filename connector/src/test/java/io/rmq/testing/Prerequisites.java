package io.rmq.testing;

import org.junit.jupiter.api.Assumptions;

/**
 * Tests that need programs the project cannot ship (Redis 7 with {@code redis-cli} for a Redis Cluster,
 * Chromium for the dashboard's browser test) check for them here. Without them such a test is skipped, saying
 * what to install, so that {@code mvn -B verify} passes on a machine with only a JDK and Maven; with the
 * environment variable {@value #REQUIRE_ALL} set to {@code true} (as {@code .ci/run} does) it fails instead, so
 * that a build meant to run everything cannot skip anything in silence.
 */
public final class Prerequisites {

    /** The environment variable that turns a missing program into a failure. */
    public static final String REQUIRE_ALL = "RMQ_TESTS_REQUIRE_ALL";

    private Prerequisites() {
    }

    /**
     * Goes on when {@code available}; otherwise skips the calling test (or fails it under {@value #REQUIRE_ALL}).
     *
     * @param needs what the test needs and how to install it, for the skip or failure message
     */
    public static void require(boolean available, String needs) {
        if (available) {
            return;
        }
        if ("true".equalsIgnoreCase(System.getenv(REQUIRE_ALL))) {
            throw new IllegalStateException(needs + " (" + REQUIRE_ALL + "=true: nothing may be skipped)");
        }
        Assumptions.abort(needs);
    }
}
