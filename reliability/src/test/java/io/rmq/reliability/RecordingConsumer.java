package io.rmq.reliability;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import io.rmq.engine.RmqEngine;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.topic.TopicKeys;

/**
 * An application's consumer as the scenarios run it: the engine's {@link TopicConsumer} hands each
 * message to a pool of processing threads, which "process" it (wait a given time), record the
 * delivery, and only then commit it. Demand is topped up as messages are settled, so at most
 * {@code inFlight} messages are being processed at once.
 */
final class RecordingConsumer implements AutoCloseable {

    /** Where deliveries go: a {@link History} in this JVM, or a {@link HistoryLog} in a child JVM. */
    interface Sink {
        void delivered(String id, String key, int attempt, long startMicros);
    }

    private final TopicConsumer consumer;
    private final Sink sink;
    private final long processingNanos;
    private final int inFlight;
    private final ExecutorService pool;
    private final AtomicLong committed = new AtomicLong();

    RecordingConsumer(RmqEngine engine, TopicKeys keys, ConsumerOptions options, String name, Sink sink,
            long processingMicros, int threads) {
        this.consumer = engine.consumer(keys, options, name);
        this.sink = sink;
        this.processingNanos = TimeUnit.MICROSECONDS.toNanos(processingMicros);
        this.inFlight = threads * 4;
        this.pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, name + "-processing");
            t.setDaemon(true);
            return t;
        });
    }

    RecordingConsumer start() {
        consumer.start(d -> pool.execute(() -> process(d)));
        consumer.request(inFlight);
        return this;
    }

    private void process(Delivery d) {
        long start = Clocks.nowMicros();
        if (processingNanos > 0) {
            LockSupport.parkNanos(processingNanos);
        }
        String[] idAndKey = Messages.parse(d.content());
        sink.delivered(idAndKey[0], idAndKey[1], d.attempt(), start);
        d.commit().whenComplete((v, f) -> {
            if (f == null) {
                committed.incrementAndGet();
            }
            consumer.request(1);
        });
    }

    TopicConsumer consumer() {
        return consumer;
    }

    long committed() {
        return committed.get();
    }

    /** Stops gracefully: the engine lets the messages being processed finish and commits them. */
    @Override
    public void close() {
        consumer.close();
        pool.shutdown();
        try {
            pool.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
