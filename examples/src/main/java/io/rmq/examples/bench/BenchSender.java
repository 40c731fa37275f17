package io.rmq.examples.bench;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
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
 * measures until the last acknowledgement.
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

    Sent sendThroughput(int count, int window, IntFunction<Message<byte[]>> message) throws InterruptedException {
        return send(throughput, count, window, message);
    }

    Sent sendLateness(int count, int window, IntFunction<Message<byte[]>> message) throws InterruptedException {
        return send(lateness, count, window, message);
    }

    private static Sent send(Emitter<byte[]> emitter, int count, int window, IntFunction<Message<byte[]>> message)
            throws InterruptedException {
        Semaphore permits = new Semaphore(window);
        CountDownLatch settled = new CountDownLatch(count);
        AtomicInteger failed = new AtomicInteger();
        AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            permits.acquire();
            emitter.send(message.apply(i)
                    .withAck(() -> {
                        permits.release();
                        settled.countDown();
                        return CompletableFuture.completedFuture(null);
                    })
                    .withNack(failure -> {
                        failed.incrementAndGet();
                        firstFailure.compareAndSet(null, failure);
                        permits.release();
                        settled.countDown();
                        return CompletableFuture.completedFuture(null);
                    }));
        }
        Duration limit = Duration.ofSeconds(60 + count / 1_000);
        if (!settled.await(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException((count - settled.getCount()) + " of " + count
                    + " messages were acknowledged within " + limit.toSeconds() + " s");
        }
        long nanos = System.nanoTime() - start;
        return new Sent(count - failed.get(), failed.get(), nanos, firstFailure.get());
    }
}
