package io.rmq.benchmarks;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;

/**
 * Sends the benchmark's messages through the outgoing channels with an {@link Emitter}, keeping at
 * most a window of messages unacknowledged (a message is acknowledged once Redis stored it), and
 * measures until the last acknowledgement; or sends at a steady rate, as the background load of the
 * lateness phase.
 */
@ApplicationScoped
public class BenchSender {

    /** How a sending run went. */
    record Sent(int acked, int failed, long nanos, Throwable firstFailure) {
    }

    // The window below bounds what is buffered; the buffer only absorbs the moment between an ack
    // (which frees a permit) and the channel's request for the next message.
    @Inject
    @Channel("bench-out")
    @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER)
    Emitter<byte[]> throughput;

    @Inject
    @Channel("lateness-out")
    @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER)
    Emitter<byte[]> lateness;

    @Inject
    @Channel("load-out")
    @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER)
    Emitter<byte[]> load;

    Sent sendThroughput(int count, int window, IntFunction<Message<byte[]>> message) throws InterruptedException {
        return send(throughput, count, window, message);
    }

    Sent sendLateness(int count, int window, IntFunction<Message<byte[]>> message) throws InterruptedException {
        return send(lateness, count, window, message);
    }

    /**
     * Sends to the load topic at about {@code perSecond} messages per second (fewer when the window is
     * full) until {@code stop} says so, then waits for the acknowledgements.
     */
    Sent sendLoad(double perSecond, int window, IntFunction<Message<byte[]>> message, BooleanSupplier stop)
            throws InterruptedException {
        Settlement settlement = new Settlement(window);
        long start = System.nanoTime();
        int sent = 0;
        while (!stop.getAsBoolean()) {
            long due = (long) ((System.nanoTime() - start) / 1e9 * perSecond);
            while (sent < due && settlement.window.tryAcquire(1, 10, TimeUnit.MILLISECONDS)) {
                load.send(settlement.track(message.apply(sent++)));
            }
            Thread.sleep(1);
        }
        return settlement.await(sent, start);
    }

    private static Sent send(Emitter<byte[]> emitter, int count, int window, IntFunction<Message<byte[]>> message)
            throws InterruptedException {
        Settlement settlement = new Settlement(window);
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            settlement.window.acquire(1);
            emitter.send(settlement.track(message.apply(i)));
        }
        return settlement.await(count, start);
    }

    /** The window of unacknowledged messages, and what became of those sent. */
    private static final class Settlement {

        final SendWindow window;
        final AtomicInteger settled = new AtomicInteger();
        final AtomicInteger failed = new AtomicInteger();
        final AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        final CompletableFuture<Void> all = new CompletableFuture<>();
        volatile int target = Integer.MAX_VALUE;

        Settlement(int window) {
            this.window = new SendWindow(window);
        }

        /** {@code message}, with an ack and a nack that free its permit and count it. */
        Message<byte[]> track(Message<byte[]> message) {
            return message
                    .withAck(() -> {
                        settle();
                        return CompletableFuture.completedFuture(null);
                    })
                    .withNack(failure -> {
                        failed.incrementAndGet();
                        firstFailure.compareAndSet(null, failure);
                        settle();
                        return CompletableFuture.completedFuture(null);
                    });
        }

        private void settle() {
            window.release(1);
            if (settled.incrementAndGet() == target) {
                all.complete(null);
            }
        }

        /** Waits until the {@code count} messages sent are settled. */
        Sent await(int count, long start) throws InterruptedException {
            target = count;
            if (settled.get() < count) {
                long limit = 60 + count / 1_000;
                try {
                    all.get(limit, TimeUnit.SECONDS);
                } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                    throw new IllegalStateException(settled.get() + " of " + count
                            + " messages were acknowledged within " + limit + " s");
                }
            }
            long nanos = System.nanoTime() - start;
            return new Sent(count - failed.get(), failed.get(), nanos, firstFailure.get());
        }
    }
}
