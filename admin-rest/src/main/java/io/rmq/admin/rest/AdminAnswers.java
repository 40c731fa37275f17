package io.rmq.admin.rest;

import static io.rmq.admin.rest.i18n.AdminRestLogging.log;
import static io.rmq.admin.rest.i18n.AdminRestMessages.msg;

import jakarta.json.JsonObject;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response.Status;
import jakarta.ws.rs.core.Response;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;
import io.rmq.engine.i18n.EngineExceptions;

/**
 * The HTTP answers of the endpoints, and which failure gets which status, in one place:
 *
 * <table>
 *   <caption>Failures</caption>
 *   <tr><td>{@link UnknownTopicException} (RMQ-0312)</td><td>404</td></tr>
 *   <tr><td>{@link TooLargeException}: a body over {@link RequestBody#MAX_BYTES} (RMQ-0917)</td><td>413</td></tr>
 *   <tr><td>{@link IllegalArgumentException}: a bad parameter or body (RMQ-09xx, RMQ-0315)</td><td>400</td></tr>
 *   <tr><td>{@link IllegalStateException}: Redis unreachable (RMQ-0313) or not answering in time (RMQ-0314);
 *       a malformed configured URI (RMQ-0915); a lost connection ({@link RedisException})</td><td>503</td></tr>
 *   <tr><td>{@link RedisCommandExecutionException}: Redis answered with an error (RMQ-0913; the error's text
 *       only in the log, RMQ-0954)</td><td>502</td></tr>
 *   <tr><td>anything else (RMQ-0914, logged with its stack trace)</td><td>500</td></tr>
 * </table>
 *
 * Every error is a JSON object {@code {"status":..., "error":..., "message":...}}. Stateless.
 */
final class AdminAnswers {

    private AdminAnswers() {
    }

    /** 200 with {@code body}. */
    static Response ok(JsonObject body) {
        return uncached(Response.ok(body, MediaType.APPLICATION_JSON_TYPE));
    }

    /** Neither kept by a cache nor read by a browser as anything but JSON. */
    static Response uncached(Response.ResponseBuilder answer) {
        return answer.header(HttpHeaders.CACHE_CONTROL, "no-store").header("X-Content-Type-Options", "nosniff").build();
    }

    /** An error answer. */
    static Response error(Status status, String message) {
        return uncached(Response.status(status)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(AdminJson.error(status.getStatusCode(), status.getReasonPhrase(), message)));
    }

    /** The answer to {@code operation} failing with {@code failure}, against the Redis at {@code uri} (without credentials). */
    static Response failed(String operation, String uri, RuntimeException failure) {
        Failure f = classify(operation, uri, failure);
        return error(f.status(), f.message());
    }

    /** The status and message of a failure; an unforeseen one is logged with its stack trace. */
    static Failure classify(String operation, String uri, RuntimeException failure) {
        if (failure instanceof UnknownTopicException unknown) {
            return new Failure(Status.NOT_FOUND, unknown.getMessage());
        }
        if (failure instanceof TooLargeException tooLarge) {
            return new Failure(Status.REQUEST_ENTITY_TOO_LARGE, tooLarge.getMessage());
        }
        if (failure instanceof IllegalArgumentException bad) {
            return new Failure(Status.BAD_REQUEST, bad.getMessage());
        }
        if (failure instanceof IllegalStateException unavailable) {
            return new Failure(Status.SERVICE_UNAVAILABLE, unavailable.getMessage());
        }
        if (failure instanceof RedisCommandExecutionException reply) {
            log.redisRefused(operation, uri, reply.getMessage());
            return new Failure(Status.BAD_GATEWAY, msg.redisErrorReply(uri));
        }
        if (failure instanceof RedisException lost) {
            return new Failure(Status.SERVICE_UNAVAILABLE,
                    EngineExceptions.ex.adminCannotReachRedis(uri, String.valueOf(lost.getMessage())).getMessage());
        }
        log.failed(operation, failure);
        return new Failure(Status.INTERNAL_SERVER_ERROR, msg.unexpected(operation, failure.toString()));
    }

    /** How a failure is answered. */
    record Failure(Status status, String message) {
    }

    /** A request body over {@link RequestBody#MAX_BYTES}: answered 413. */
    static final class TooLargeException extends IllegalArgumentException {

        TooLargeException(IllegalArgumentException rmq0917) {
            super(rmq0917.getMessage());
        }
    }

    /** A topic that is not recorded in Redis: answered 404 with the engine's RMQ-0312 text. */
    static final class UnknownTopicException extends RuntimeException {

        UnknownTopicException(IllegalArgumentException rmq0312) {
            super(rmq0312.getMessage(), rmq0312);
        }
    }
}
