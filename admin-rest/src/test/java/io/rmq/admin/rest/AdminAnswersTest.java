package io.rmq.admin.rest;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.core.Response.Status;

import org.junit.jupiter.api.Test;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.rmq.admin.rest.AdminAnswers.Failure;

/** Which failure is answered with which status (the statuses the Liberty test cannot provoke cheaply included). */
class AdminAnswersTest {

    private static final String URI = "redis://***@cache:6379";

    @Test
    void eachFailureHasItsStatus() {
        assertThat(AdminAnswers.classify("op", URI, new AdminAnswers.UnknownTopicException(
                new IllegalArgumentException("RMQ-0312 Topic 'x' is not recorded"))))
                .isEqualTo(new Failure(Status.NOT_FOUND, "RMQ-0312 Topic 'x' is not recorded"));
        assertThat(AdminAnswers.classify("op", URI, new IllegalArgumentException("RMQ-0910 bad")))
                .isEqualTo(new Failure(Status.BAD_REQUEST, "RMQ-0910 bad"));
        assertThat(AdminAnswers.classify("op", URI, new IllegalStateException("RMQ-0314 slow")))
                .isEqualTo(new Failure(Status.SERVICE_UNAVAILABLE, "RMQ-0314 slow"));
        assertThat(AdminAnswers.classify("op", URI, new RedisCommandTimeoutException("Command timed out after 10 second(s)")))
                .isEqualTo(new Failure(Status.SERVICE_UNAVAILABLE,
                        "RMQ-0313 Cannot reach Redis at redis://***@cache:6379: Command timed out after 10 second(s)"));
        assertThat(AdminAnswers.classify("op", URI, new RedisCommandExecutionException("WRONGTYPE Operation against a key")))
                .isEqualTo(new Failure(Status.BAD_GATEWAY,
                        "RMQ-0913 Redis at redis://***@cache:6379 answered with an error (the server log has it)"));
        assertThat(AdminAnswers.classify("op", URI, new AdminAnswers.TooLargeException(new IllegalArgumentException("RMQ-0917 big"))))
                .isEqualTo(new Failure(Status.REQUEST_ENTITY_TOO_LARGE, "RMQ-0917 big"));
        assertThat(AdminAnswers.classify("Listing the topics", URI, new NullPointerException("boom")))
                .isEqualTo(new Failure(Status.INTERNAL_SERVER_ERROR,
                        "RMQ-0914 Listing the topics failed: java.lang.NullPointerException: boom (the server log has the details)"));
    }
}
