package io.rmq.examples.liberty;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.rmq.engine.RmqEngine;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.scripts.SendResult;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;

/**
 * Builds a known state of a topic in the example's Redis through the engine, as applications do:
 * pending messages sent by a producer, and dead messages that a consumer allowed one delivery
 * ({@code maxRetries(0)}) failed. One engine per test class; closed after it.
 */
final class TopicState implements AutoCloseable {

    private static final long WAIT_SECONDS = 20;

    private final RmqEngine engine;

    TopicState(String redisUri) {
        this.engine = new RmqEngine(redisUri).start();
    }

    /** Records {@code topic} in Redis, as its first producer or consumer does. */
    TopicKeys register(TopicDefinition topic) {
        return await(engine.registerTopic(topic));
    }

    /** Sends a timed message due at {@code at}. */
    SendResult sendAt(TopicKeys keys, byte[] content, Instant at, String slotBasis) {
        return await(engine.producer(keys).sendAt(content, at, slotBasis));
    }

    /**
     * Sends these contents due now, then consumes them with one allowed delivery each and fails every
     * delivery with {@code IllegalStateException("<failure>")}: each lands in its slot's dead queue with
     * that failure recorded. Returns once every rollback is done in Redis.
     */
    void killed(TopicKeys keys, String failure, List<byte[]> contents) throws InterruptedException {
        for (byte[] content : contents) {
            sendAt(keys, content, Instant.now(), null);
        }
        CountDownLatch rolledBack = new CountDownLatch(contents.size());
        ConsumerOptions oneDelivery = ConsumerOptions.builder().maxRetries(0).shutdownTimeout(Duration.ofMillis(200)).build();
        try (TopicConsumer consumer = engine.consumer(keys, oneDelivery, "admin-it-dead-maker")) {
            consumer.start(delivery -> delivery.rollback(new IllegalStateException(failure)).thenRun(rolledBack::countDown));
            consumer.request(Long.MAX_VALUE);
            if (!rolledBack.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError(rolledBack.getCount() + " of " + contents.size() + " deliveries not rolled back");
            }
        }
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static <T> T await(CompletionStage<T> stage) {
        try {
            return stage.toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @Override
    public void close() {
        engine.close();
    }
}
