package io.rmq.connector;

import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.rmq.engine.TopicConflictException;

/** Helpers shared by the incoming and outgoing channels. Stateless. */
final class RmqConnectorSupport {

    /** How long deployment waits for Redis to confirm a topic's definition before going on without it. */
    static final long REGISTRATION_WAIT_MILLIS = 3_000;

    private RmqConnectorSupport() {
    }

    /**
     * Waits briefly for the topic registration so that a conflicting definition fails the deployment
     * with a clear error. When Redis is not reachable yet, the deployment goes on and the channel
     * fails later, if at all, when the registration completes.
     */
    static void failFastOnConflict(CompletionStage<?> registration, String channel) {
        try {
            registration.toCompletableFuture().get(REGISTRATION_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = unwrap(e);
            if (cause instanceof TopicConflictException conflict) {
                throw new IllegalStateException("Channel '" + channel + "': " + conflict.getMessage(), conflict);
            }
        } catch (TimeoutException e) {
            // Redis not reachable yet: the client keeps retrying and logs each attempt.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
