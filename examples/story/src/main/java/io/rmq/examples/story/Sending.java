package io.rmq.examples.story;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

/**
 * Sends a message and waits until it is settled: acked once the connector has stored it in Redis (or
 * merged it), nacked when the connector refuses it. Called from the REST resource's worker threads.
 */
final class Sending {

    private static final long WAIT_SECONDS = 10;

    private Sending() {
    }

    /**
     * Sends {@code payload} with {@code metadata}.
     *
     * @throws IllegalArgumentException with the connector's reason when it refuses the message
     * @throws IllegalStateException    when Redis does not answer in time, or fails
     */
    static void sendAndWait(Emitter<String> emitter, String payload, Metadata metadata) {
        CompletableFuture<Void> stored = new CompletableFuture<>();
        emitter.send(Message.of(payload, metadata,
                () -> {
                    stored.complete(null);
                    return CompletableFuture.completedFuture(null);
                },
                reason -> {
                    stored.completeExceptionally(reason);
                    return CompletableFuture.completedFuture(null);
                }));
        try {
            stored.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IllegalArgumentException invalid) {
                throw invalid;
            }
            throw new IllegalStateException("Redis did not store '" + payload + "': " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("Redis did not store '" + payload + "' within " + WAIT_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending '" + payload + "'", e);
        }
    }
}
