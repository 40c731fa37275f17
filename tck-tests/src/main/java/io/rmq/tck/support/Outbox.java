package io.rmq.tck.support;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

import io.rmq.connector.OutgoingRmqMetadata;

/** Sends through an outgoing channel and tells how the connector settled each message. Stateless. */
public final class Outbox {

    private Outbox() {
    }

    /**
     * Sends {@code payload} with {@code metadata} (may be {@code null}) and returns a future that
     * completes when the connector acks the message, or fails with the reason it nacks it.
     */
    public static CompletableFuture<Void> send(Emitter<Object> emitter, Object payload, OutgoingRmqMetadata metadata) {
        CompletableFuture<Void> settled = new CompletableFuture<>();
        emitter.send(Message.of(payload, metadata == null ? Metadata.empty() : Metadata.of(metadata),
                () -> {
                    settled.complete(null);
                    return CompletableFuture.completedFuture(null);
                },
                reason -> {
                    settled.completeExceptionally(reason);
                    return CompletableFuture.completedFuture(null);
                }));
        return settled;
    }

    /** Sends and waits until the connector acks the message (Redis stored or merged it). */
    public static void sendAndAwaitAck(Emitter<Object> emitter, Object payload, OutgoingRmqMetadata metadata) {
        try {
            send(emitter, payload, metadata).get(Inbox.WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("the connector nacked '" + payload + "'", e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("the connector neither acked nor nacked '" + payload + "' within " + Inbox.WAIT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** Sends and returns the reason the connector nacked the message; fails when it acks it. */
    public static Throwable sendAndAwaitNack(Emitter<Object> emitter, Object payload, OutgoingRmqMetadata metadata) {
        try {
            send(emitter, payload, metadata).get(Inbox.WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            throw new AssertionError("the connector neither acked nor nacked '" + payload + "' within " + Inbox.WAIT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
        throw new AssertionError("the connector acked '" + payload + "', a nack was expected");
    }
}
