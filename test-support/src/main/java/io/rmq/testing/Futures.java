package io.rmq.testing;

import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.rmq.testing.redis.RedisConnections;

/** Waiting for asynchronous results in tests. */
public final class Futures {

    private Futures() {
    }

    /**
     * Waits up to {@link RedisConnections#TIMEOUT} for a stage and returns its value. A failure is
     * rethrown as the stage's own exception (unwrapped from {@link ExecutionException} and
     * {@link CompletionException}) when unchecked, so tests can assert on its type and message.
     *
     * @throws AssertionError when the stage does not complete in time
     */
    public static <T> T await(CompletionStage<T> stage) {
        try {
            return stage.toCompletableFuture().get(RedisConnections.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            while (cause instanceof CompletionException && cause.getCause() != null) {
                cause = cause.getCause();
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(cause);
        } catch (TimeoutException e) {
            throw new AssertionError("no result within " + RedisConnections.TIMEOUT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for a result", e);
        }
    }
}
