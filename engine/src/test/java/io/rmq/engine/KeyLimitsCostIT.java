package io.rmq.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.topic.KeyLimits;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisProcess;

/**
 * What limits per key cost Redis, read as {@link CommandsPerMessageIT} reads it ({@code total_commands_processed},
 * a script call and each command it runs counting one): 30,000 {@code FIXED_TIME} messages over 1,000 keys (their
 * slot bases) on 16 slots, sent and consumed with the default batch size, once without limits and once with
 * {@code key-concurrency} 1 (the consumer pops with {@code pop_flow.lua}; messages of a key in flight wait parked).
 * Prints {@code KEY LIMITS COST ...}; asserts only that every message is delivered once (the figures depend on the
 * machine and on how the deliveries interleave).
 */
class KeyLimitsCostIT {

    private static final int MESSAGES = 30_000;
    private static final int KEYS = 1_000;
    private static final int IN_FLIGHT = 1024;

    @ParameterizedTest
    @ValueSource(ints = {0, 1})
    void costPerMessageWithAndWithoutAConcurrencyOfOnePerKey(int concurrency, @TempDir Path dir) throws Exception {
        KeyLimits limits = new KeyLimits(concurrency, 0, 0);
        try (RedisProcess redis = RedisProcess.start(dir, List.of(), false);
                RmqEngine engine = new RmqEngine("redis://" + redis.address()).start()) {
            engine.ready().toCompletableFuture().get(30, TimeUnit.SECONDS);
            TopicKeys keys = EngineFixture.register(engine, new TopicDefinition("keyed-cost", 16, TopicType.FIXED_TIME));
            TopicProducer producer = engine.producer(keys);
            producer.updateKeyLimits(limits);

            CommandsPerMessageIT.Reading beforeSend = CommandsPerMessageIT.Reading.of(redis);
            long sendStart = System.nanoTime();
            send(producer);
            long sendNanos = System.nanoTime() - sendStart;
            CommandsPerMessageIT.Reading afterSend = CommandsPerMessageIT.Reading.of(redis);

            long consumeStart = System.nanoTime();
            AtomicInteger committed = new AtomicInteger();
            try (TopicConsumer consumer = engine.consumer(keys, ConsumerOptions.builder().keyLimits(limits).build(), "cost")) {
                consumer.start(d -> d.commit().thenRun(committed::incrementAndGet));
                consumer.request(Long.MAX_VALUE);
                await().atMost(Duration.ofMinutes(3)).until(() -> committed.get() >= MESSAGES);
                long consumeNanos = System.nanoTime() - consumeStart;
                CommandsPerMessageIT.Reading afterConsume = CommandsPerMessageIT.Reading.of(redis);
                CommandsPerMessageIT.Reading send = afterSend.since(beforeSend);
                CommandsPerMessageIT.Reading consume = afterConsume.since(afterSend);
                System.out.printf("KEY LIMITS COST key-concurrency=%s over %d keys: send %.3f, consume %.3f commands per"
                        + " message; send %.1f s, consume %.1f s (%.0f messages/s); Redis time per message %.2f us"
                        + " (scripts %.2f us)%n", concurrency == 0 ? "none" : concurrency, KEYS,
                        send.commands() / (double) MESSAGES, consume.commands() / (double) MESSAGES, sendNanos / 1e9,
                        consumeNanos / 1e9, MESSAGES / (consumeNanos / 1e9),
                        (send.commandMicros() + consume.commandMicros()) / (double) MESSAGES,
                        (send.scriptMicros() + consume.scriptMicros()) / (double) MESSAGES);
                assertThat(committed).hasValue(MESSAGES);
            }
        }
    }

    private static void send(TopicProducer producer) {
        Semaphore window = new Semaphore(IN_FLIGHT);
        List<CompletableFuture<?>> sends = new ArrayList<>(MESSAGES);
        long dueFrom = Instant.now().toEpochMilli() - MESSAGES;
        for (int i = 0; i < MESSAGES; i++) {
            window.acquireUninterruptibly();
            byte[] content = ("message-" + i).getBytes(StandardCharsets.UTF_8);
            sends.add(producer.sendAt(content, Instant.ofEpochMilli(dueFrom + i), "k" + (i % KEYS)).toCompletableFuture()
                    .whenComplete((r, f) -> window.release()));
        }
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).join();
    }
}
