package io.rmq.benchmarks;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import io.rmq.connector.IncomingRmqMetadata;

/**
 * Consumes the lateness topic (FIXED_TIME): records, for each message, its wall-clock delivery
 * time minus its due time (the score the connector reports), in milliseconds.
 */
@ApplicationScoped
public class LatenessConsumer {

    private volatile AtomicLongArray lateness = new AtomicLongArray(0);
    private final AtomicInteger received = new AtomicInteger();
    private volatile CompletableFuture<Void> all = new CompletableFuture<>();

    @Incoming("lateness-in")
    public CompletionStage<Void> consume(Message<byte[]> message) {
        long now = System.currentTimeMillis();
        long due = (long) message.getMetadata(IncomingRmqMetadata.class).orElseThrow().getScore();
        int i = received.getAndIncrement();
        AtomicLongArray slots = lateness;
        if (i < slots.length()) {
            slots.set(i, now - due);
            if (i == slots.length() - 1) {
                all.complete(null);
            }
        }
        return message.ack();
    }

    /** Prepares for {@code count} messages; the stage completes when they have all arrived. */
    CompletableFuture<Void> expect(int count) {
        received.set(0);
        lateness = new AtomicLongArray(count);
        all = new CompletableFuture<>();
        if (count == 0) {
            all.complete(null);
        }
        return all;
    }

    /** The lateness of the messages received so far, sorted. */
    long[] sortedLateness() {
        AtomicLongArray slots = lateness;
        long[] copy = new long[Math.min(received.get(), slots.length())];
        for (int i = 0; i < copy.length; i++) {
            copy[i] = slots.get(i);
        }
        Arrays.sort(copy);
        return copy;
    }
}
