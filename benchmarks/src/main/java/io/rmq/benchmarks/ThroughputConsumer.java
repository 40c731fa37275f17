package io.rmq.benchmarks;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Consumes the throughput topic: acknowledges every message, counts those whose ack completed,
 * and reports when a target count is reached. It can be paused (each consumer copy then holds its
 * next message until {@link #resume()}), so that sending and consuming are measured apart.
 */
@ApplicationScoped
public class ThroughputConsumer {

    private final AtomicLong acked = new AtomicLong();
    private volatile CompletableFuture<Void> gate = CompletableFuture.completedFuture(null);
    private volatile long target = Long.MAX_VALUE;
    private volatile CompletableFuture<Long> reached = new CompletableFuture<>();

    @Incoming("bench-in")
    public CompletionStage<Void> consume(Message<?> message) {
        CompletableFuture<Void> g = gate;
        if (g.isDone()) {
            return ackAndCount(message);
        }
        return g.thenCompose(v -> ackAndCount(message));
    }

    private CompletionStage<Void> ackAndCount(Message<?> message) {
        return message.ack().thenRun(() -> {
            if (acked.incrementAndGet() == target) {
                reached.complete(System.nanoTime());
            }
        });
    }

    /** Holds new deliveries until {@link #resume()}. */
    void pause() {
        gate = new CompletableFuture<>();
    }

    void resume() {
        gate.complete(null);
    }

    /**
     * Completes with {@link System#nanoTime()} when {@code more} messages beyond those counted so
     * far have been acknowledged. Call while nothing is being consumed (paused or drained).
     */
    CompletableFuture<Long> whenAcked(long more) {
        reached = new CompletableFuture<>();
        target = acked.get() + more;
        return reached;
    }

    long acked() {
        return acked.get();
    }
}
