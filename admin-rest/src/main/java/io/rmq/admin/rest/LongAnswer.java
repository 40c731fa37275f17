package io.rmq.admin.rest;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongFunction;

import jakarta.json.JsonObject;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;

/**
 * The answer to a requeue or purge ({@link RunningChanges.Running}) that watches its client. One that ends within
 * {@link #GRACE} is answered as any other request: 200 with its result, or the status of its failure
 * ({@link AdminAnswers}). One that runs longer is answered 200 at once, and its body starts with a space every
 * {@link #KEEP_ALIVE} (JSON allows whitespace before a value) until the result, or the error object of its
 * failure, follows: that is how a client that went away is noticed on any Jakarta REST runtime. The write that
 * fails stops the operation before its next script call, and it is audited as stopped because its client went
 * away. Stateless.
 */
final class LongAnswer {

    /** How long an operation has to end before its answer is committed and starts watching its client. */
    static final Duration GRACE = Duration.ofSeconds(1);
    /** How often the answer of a longer one writes a space, and so finds out whether its client is still there. */
    static final Duration KEEP_ALIVE = Duration.ofMillis(500);

    private LongAnswer() {
    }

    /**
     * Waits for {@code running} up to {@link #GRACE}, then answers as the class comment says.
     *
     * @param operation what the request does, for a failure's message
     * @param uri       the Redis, without credentials, for a failure's message
     * @param done      the answer's body for the count of messages the operation moved
     */
    static Response of(RunningChanges.Running running, String operation, String uri, LongFunction<JsonObject> done) {
        try {
            return AdminAnswers.ok(done.apply(running.end.get(GRACE.toMillis(), TimeUnit.MILLISECONDS)));
        } catch (ExecutionException e) {
            return AdminAnswers.failed(operation, uri, failure(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running.progress.stop();
            return AdminAnswers.failed(operation, uri, new IllegalStateException(e));
        } catch (TimeoutException e) {
            StreamingOutput body = out -> watch(running, operation, uri, done, out);
            return AdminAnswers.uncached(Response.ok(body, MediaType.APPLICATION_JSON_TYPE));
        }
    }

    private static void watch(RunningChanges.Running running, String operation, String uri, LongFunction<JsonObject> done,
            OutputStream out) throws IOException {
        while (true) {
            JsonObject answer;
            try {
                answer = done.apply(running.end.get(KEEP_ALIVE.toMillis(), TimeUnit.MILLISECONDS));
            } catch (TimeoutException e) {
                try {
                    out.write(' ');
                    out.flush();
                } catch (IOException gone) {
                    running.clientGone();
                    throw gone;
                }
                continue;
            } catch (ExecutionException e) {
                AdminAnswers.Failure f = AdminAnswers.classify(operation, uri, failure(e));
                answer = AdminJson.error(f.status().getStatusCode(), f.status().getReasonPhrase(), f.message());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                running.progress.stop();
                return;
            }
            out.write(answer.toString().getBytes(StandardCharsets.UTF_8));
            return;
        }
    }

    private static RuntimeException failure(ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof Error error) {
            throw error;
        }
        return cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
    }
}
