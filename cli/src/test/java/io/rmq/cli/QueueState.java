package io.rmq.cli;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.rmq.engine.RmqEngine;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.scripts.SendResult;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.testing.Futures;

/**
 * Builds a known state of a topic through the engine, as applications would: pending messages sent
 * by a producer, dead messages that a consumer allowed one delivery ({@code maxRetries(0)}) failed.
 * Closed after each test.
 */
final class QueueState implements AutoCloseable {

    private static final long WAIT_SECONDS = 20;

    private final RmqEngine engine;
    private final TopicKeys keys;

    private QueueState(RmqEngine engine, TopicKeys keys) {
        this.engine = engine;
        this.keys = keys;
    }

    /** An engine on {@code redisUri} with {@code topic} registered (recorded in Redis). */
    static QueueState of(String redisUri, TopicDefinition topic) {
        RmqEngine engine = new RmqEngine(redisUri).start();
        return new QueueState(engine, Futures.await(engine.registerTopic(topic)));
    }

    /** Records topics in Redis, as their first producer or consumer does, and closes the engine. */
    static void register(String redisUri, TopicDefinition... topics) {
        try (RmqEngine engine = new RmqEngine(redisUri).start()) {
            for (TopicDefinition topic : topics) {
                Futures.await(engine.registerTopic(topic));
            }
        }
    }

    TopicKeys keys() {
        return keys;
    }

    TopicDefinition topic() {
        return keys.topic();
    }

    /** Sends a timed message due at {@code at}. */
    SendResult sendAt(String content, Instant at, String slotBasis) {
        return sendAt(bytes(content), at, slotBasis);
    }

    /** Sends a timed message with binary content due at {@code at}. */
    SendResult sendAt(byte[] content, Instant at, String slotBasis) {
        return Futures.await(producer().sendAt(content, at, slotBasis));
    }

    /** Sends a message to a PRIORITY topic. */
    SendResult sendWithPriority(String content, double priority, String slotBasis) {
        return Futures.await(producer().sendWithPriority(bytes(content), priority, slotBasis));
    }

    /**
     * Sends these contents due now, then consumes them with one allowed delivery each and fails
     * every delivery with {@code IllegalStateException("<failure> <content>")}: each lands in its
     * slot's dead queue with that failure recorded. Returns once every rollback is done in Redis.
     */
    void killed(String failure, List<byte[]> contents) {
        for (byte[] content : contents) {
            sendAt(content, Instant.now(), null);
        }
        CountDownLatch rolledBack = new CountDownLatch(contents.size());
        ConsumerOptions oneDelivery = ConsumerOptions.builder().maxRetries(0).shutdownTimeout(Duration.ofMillis(200))
                .build();
        try (TopicConsumer consumer = engine.consumer(keys, oneDelivery, "dead-maker")) {
            consumer.start(delivery -> delivery
                    .rollback(new IllegalStateException(failure + " " + new String(delivery.content(), StandardCharsets.UTF_8)))
                    .thenRun(rolledBack::countDown));
            consumer.request(Long.MAX_VALUE);
            if (!rolledBack.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError(rolledBack.getCount() + " of " + contents.size() + " deliveries not rolled back");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** {@link #killed(String, List)} for UTF-8 contents. */
    void killed(String failure, String... contents) {
        killed(failure, java.util.Arrays.stream(contents).map(QueueState::bytes).toList());
    }

    private TopicProducer producer() {
        return engine.producer(keys);
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        engine.close();
    }
}
