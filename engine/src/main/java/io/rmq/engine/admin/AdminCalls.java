package io.rmq.engine.admin;

import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.rmq.engine.i18n.EngineExceptions;

/**
 * Waits for the admin's calls to Redis, each at most a timeout, and turns their failures into unchecked
 * exceptions that name the operation. Immutable; thread-safe.
 */
final class AdminCalls {

    private final String displayUri;
    private final Duration timeout;

    AdminCalls(String displayUri, Duration timeout) {
        this.displayUri = displayUri;
        this.timeout = timeout;
    }

    /** The result of {@code stage}, an operation that the exceptions describe as {@code operation}. */
    <T> T await(String operation, CompletionStage<T> stage) {
        try {
            return stage.toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
        } catch (TimeoutException e) {
            throw EngineExceptions.ex.adminTimedOut(operation, displayUri, timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw EngineExceptions.ex.adminInterrupted(operation, e);
        }
    }
}
