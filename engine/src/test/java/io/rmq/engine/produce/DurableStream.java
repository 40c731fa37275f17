package io.rmq.engine.produce;

import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.rmq.engine.RmqEngine;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.scripts.SendResult;
import io.rmq.engine.topic.TopicKeys;

/**
 * A stream of durable sends for the failover tests: windows of 64 sends in flight on a thread of its own
 * until {@link #stop()}, each send counted as confirmed (its content kept) or not; then
 * {@link #assertNoConfirmedSendLost} consumes the topic until every confirmed send was delivered.
 */
public final class DurableStream {

    public final Set<String> confirmed = ConcurrentHashMap.newKeySet();
    public final AtomicInteger failed = new AtomicInteger();
    /** The failure of the latest window in which every send failed. */
    final AtomicReference<Throwable> lastFailure = new AtomicReference<>();
    final Set<String> delivered = ConcurrentHashMap.newKeySet();
    private final CompletableFuture<Void> stop = new CompletableFuture<>();
    private final Thread thread;

    public DurableStream(TopicProducer producer) {
        this(producer, "s-");
    }

    /** @param prefix of every send's content, followed by its number */
    public DurableStream(TopicProducer producer, String prefix) {
        AtomicLong next = new AtomicLong();
        thread = new Thread(() -> {
            while (!stop.isDone()) {
                List<CompletableFuture<SendResult>> window = new ArrayList<>();
                for (int i = 0; i < 64; i++) {
                    String content = prefix + next.getAndIncrement();
                    window.add(producer.sendWithPriority(content.getBytes(StandardCharsets.UTF_8), 1, null)
                            .toCompletableFuture().whenComplete((r, f) -> {
                                if (f == null) {
                                    confirmed.add(content);
                                } else {
                                    failed.incrementAndGet();
                                }
                            }));
                }
                CompletableFuture.allOf(window.toArray(CompletableFuture[]::new)).exceptionally(f -> null).join();
                if (window.stream().allMatch(CompletableFuture::isCompletedExceptionally)) {
                    lastFailure.set(window.get(0).handle((r, f) -> f).join());
                }
                if (window.stream().anyMatch(CompletableFuture::isCompletedExceptionally)) {
                    // paces a stream whose sends fail at once while a master is gone (not a wait for an
                    // event): spinning would take the CPU from the servers that are failing over
                    java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
                }
            }
        }, "durable-stream");
        thread.start();
    }

    public void stop() throws InterruptedException {
        stop.complete(null);
        thread.join();
    }

    /** Consumes the topic until every confirmed send was delivered; fails naming the lost ones. */
    void assertNoConfirmedSendLost(RmqEngine engine, TopicKeys keys, Duration timeout) {
        ConsumerOptions options = ConsumerOptions.builder().pollInterval(Duration.ofMillis(200)).build();
        try (TopicConsumer consumer = engine.consumer(keys, options, "durable-check")) {
            consumer.start(d -> {
                delivered.add(new String(d.content(), StandardCharsets.UTF_8));
                d.commit();
                consumer.request(1);
            });
            consumer.request(256);
            try {
                await("every confirmed send delivered").atMost(timeout).until(() -> delivered.containsAll(confirmed));
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                List<String> lost = confirmed.stream().filter(c -> !delivered.contains(c)).sorted().toList();
                throw new AssertionError(lost.size() + " confirmed send(s) lost, e.g. "
                        + lost.subList(0, Math.min(20, lost.size())), e);
            }
        }
    }

    @Override
    public String toString() {
        return "confirmed " + confirmed.size() + ", not confirmed " + failed.get() + ", delivered " + delivered.size();
    }
}
