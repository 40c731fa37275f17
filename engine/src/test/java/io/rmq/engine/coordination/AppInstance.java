package io.rmq.engine.coordination;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.rmq.engine.RmqEngine;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;

/**
 * One application instance as the tests see it: its own {@link RmqEngine} (so its own ZooKeeper
 * session), several consumers of one topic (workers, like SmallRye {@code concurrency} copies
 * {@code <name>$1}, {@code <name>$2}, ...), and a pool of threads on which the messages are processed
 * (so one worker's messages of different slots are processed concurrently, and only the engine keeps
 * a slot's messages apart). Each message is checked with the {@link OverlapDetector}, processed for
 * a little while, and committed.
 */
final class AppInstance implements AutoCloseable {

    private final String name;
    private final RmqEngine client;
    private final OverlapDetector detector;
    private final ExecutorService pool;
    private final List<TopicConsumer> consumers = new ArrayList<>();
    private final long processingMillis;
    private final java.util.concurrent.atomic.AtomicLong processedHere = new java.util.concurrent.atomic.AtomicLong();

    /**
     * @param threads          the processing threads of the instance, shared by its workers
     * @param processingMillis how long each message is "processed"
     */
    AppInstance(String name, String redisUri, OverlapDetector detector, int threads, long processingMillis) {
        this.name = name;
        this.client = new RmqEngine(redisUri).start();
        this.detector = detector;
        this.pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, name + "-processing");
            t.setDaemon(true);
            return t;
        });
        this.processingMillis = processingMillis;
    }

    /** Starts {@code workers} consumers of the topic and asks each for all messages. */
    AppInstance start(TopicDefinition topic, ConsumerOptions options, int workers) {
        TopicKeys keys = client.registerTopic(topic).toCompletableFuture().join();
        for (int i = 1; i <= workers; i++) {
            TopicConsumer consumer = client.consumer(keys, options, name + "$" + i);
            consumers.add(consumer);
            consumer.start(d -> pool.execute(() -> process(consumer.name(), d)));
            consumer.request(Long.MAX_VALUE);
        }
        return this;
    }

    private void process(String worker, Delivery d) {
        String content = new String(d.content(), StandardCharsets.UTF_8);
        String key = OverlapDetector.keyOf(content);
        try {
            detector.begin(key, name, worker, content);
            Thread.sleep(processingMillis);
            detector.end(key, name, content);
            processedHere.incrementAndGet();
            d.commit();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            d.rollback(e);
        }
    }

    /** Messages this instance processed. */
    long processed() {
        return processedHere.get();
    }

    List<TopicConsumer> consumers() {
        return consumers;
    }

    /** The worker ids of the consumers that have joined the coordination. */
    List<String> workerIds() {
        return consumers.stream().map(TopicConsumer::workerId).flatMap(Optional::stream).toList();
    }

    /** Waits until every consumer has joined the coordination, and returns their worker ids. */
    List<String> workerIdsWhenJoined() {
        org.awaitility.Awaitility.await().atMost(CoordinationFixture.WAIT)
                .until(() -> consumers.stream().allMatch(c -> c.workerId().isPresent()));
        return workerIds();
    }

    RmqEngine client() {
        return client;
    }

    /** Stops gracefully: consumers first (they leave the coordination and finish what they hold), then the client. */
    @Override
    public void close() {
        consumers.forEach(TopicConsumer::close);
        pool.shutdown();
        try {
            pool.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        client.close();
    }
}
