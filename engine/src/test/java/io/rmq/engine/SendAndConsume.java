package io.rmq.engine;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;

/**
 * Sends one message through an engine and consumes it without coordination, returning its content; run by
 * {@link WithoutCuratorIT} inside a class loader without Curator, so it speaks to the test through JDK types only.
 */
public final class SendAndConsume implements Function<String, Callable<String>> {

    @Override
    public Callable<String> apply(String redisUri) {
        return () -> {
            try (RmqEngine engine = new RmqEngine(redisUri).start()) {
                TopicKeys keys = engine.registerTopic(new TopicDefinition("curator.free", 2, TopicType.PRIORITY))
                        .toCompletableFuture().get(30, TimeUnit.SECONDS);
                engine.producer(keys).sendWithPriority("without ZooKeeper".getBytes(StandardCharsets.UTF_8), 1, null)
                        .toCompletableFuture().get(30, TimeUnit.SECONDS);
                CompletableFuture<String> received = new CompletableFuture<>();
                try (TopicConsumer consumer = engine.consumer(keys,
                        ConsumerOptions.builder().shutdownTimeout(Duration.ofMillis(500)).build(), "curator-free")) {
                    consumer.start(d -> {
                        d.commit();
                        received.complete(new String(d.content(), StandardCharsets.UTF_8));
                    });
                    consumer.request(1);
                    return received.get(30, TimeUnit.SECONDS);
                }
            }
        };
    }
}
