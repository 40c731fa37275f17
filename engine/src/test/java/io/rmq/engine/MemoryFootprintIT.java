package io.rmq.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.scripts.SendResult;
import io.rmq.engine.topic.SlotKeys;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.RedisProcess;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What a message costs Redis in memory: while pending, the same as a bare sorted set of the same
 * members and scores (the queue keeps nothing else per message); once consumed and committed, nothing
 * (no attempt count, origin score or failure is left behind, and the queues are gone). On a
 * {@code redis-server} of the test's own, {@code used_memory_dataset} of {@code INFO memory} is compared with
 * a copy of each store queue made by {@code ZUNIONSTORE} (a plain sorted set). Prints
 * {@code MEMORY FOOTPRINT ...}.
 */
class MemoryFootprintIT {

    private static final int SLOTS = 16;
    private static final int MESSAGES = 50_000;
    private static final int PAYLOAD_BYTES = 100;

    @ParameterizedTest
    @EnumSource(TopicType.class)
    void pendingMessagesCostWhatABareSortedSetCostsAndConsumedOnesCostNothing(TopicType type, @TempDir Path dir)
            throws Exception {
        try (RedisProcess redis = RedisProcess.start(dir, List.of(), false);
                RmqEngine engine = new RmqEngine("redis://" + redis.address()).start()) {
            engine.ready().toCompletableFuture().join();
            TopicKeys keys = EngineFixture.register(engine, new TopicDefinition("memory", SLOTS, type));
            TopicProducer producer = engine.producer(keys);
            AtomicInteger consumed = new AtomicInteger();
            TopicConsumer consumer = engine.consumer(keys, ConsumerOptions.builder().build(), "memory");
            consumer.start(d -> d.commit().thenRun(consumed::incrementAndGet));
            // what is kept per slot, not per message (counters hashes), exists before the measure starts
            send(producer, type, 0, 1_000);
            consumer.request(1_000);
            await("the first messages consumed").atMost(Duration.ofMinutes(1))
                    .until(() -> consumed.get() == 1_000 && preparedMembers(redis, keys) == 0);
            long before = usedMemory(redis);

            send(producer, type, 1_000, MESSAGES);
            long pending = usedMemory(redis) - before;

            List<String> copies = new ArrayList<>();
            for (int slot = 0; slot < SLOTS; slot++) {
                String copy = "bare-copy:" + slot;
                redis.cli("ZUNIONSTORE", copy, "1", keys.slot(slot).store());
                copies.add(copy);
            }
            long bare = usedMemory(redis) - before - pending;
            redis.cli(concat("DEL", copies));
            double ratio = (double) pending / bare;

            consumer.request(Long.MAX_VALUE);
            await("every message consumed and committed").atMost(Duration.ofMinutes(2))
                    .until(() -> consumed.get() == 1_000 + MESSAGES && preparedMembers(redis, keys) == 0);
            consumer.close();

            List<String> left = new ArrayList<>();
            for (int slot = 0; slot < SLOTS; slot++) {
                SlotKeys k = keys.slot(slot);
                for (String key : List.of(k.store(), k.prepare(), k.attempts(), k.origin(), k.failures(), k.dead())) {
                    if (!redis.cli("EXISTS", key).equals("0")) {
                        left.add(key);
                    }
                }
            }
            long after = usedMemory(redis) - before;
            System.out.printf("MEMORY FOOTPRINT %s: %,d pending messages of %d bytes: %,d bytes of Redis memory"
                    + " (%.1f per message), a bare sorted set of the same members and scores %,d (%.1f per message):"
                    + " %.3f times; after consuming them all: %,d bytes more than before sending%n",
                    type, MESSAGES, PAYLOAD_BYTES, pending, (double) pending / MESSAGES, bare,
                    (double) bare / MESSAGES, ratio, after);

            assertThat(ratio).as("memory of the pending messages / a bare sorted set's").isBetween(0.98, 1.02);
            assertThat(left).as("per-message keys left once everything was consumed").isEmpty();
            // What stays is per slot (the counters hashes) and the server's own (buffers it keeps for the
            // scripts' arguments): a few hundred KB whatever the number of messages. Anything kept per
            // message (an attempt count, an origin score: some 60 bytes each) would be several times the bound.
            assertThat(after).as("memory left after consuming, against %,d bytes pending", pending)
                    .isLessThan(pending / 20);
        }
    }

    /** Sends {@code count} unique messages, numbered from {@code first}, and waits until Redis stored them. */
    private static void send(TopicProducer producer, TopicType type, int first, int count) {
        List<CompletableFuture<SendResult>> sends = new ArrayList<>(count);
        for (int i = first; i < first + count; i++) {
            byte[] content = content(i);
            sends.add((switch (type) {
                case RANGE_MERGE -> producer.sendInRange(content, Duration.ofMillis(1), null);
                case PRIORITY -> producer.sendWithPriority(content, i % 10, null);
                case FIXED_TIME -> producer.sendAt(content, Instant.now(), null);
            }).toCompletableFuture());
        }
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).join();
    }

    private static byte[] content(int i) {
        byte[] content = new byte[PAYLOAD_BYTES];
        Arrays.fill(content, (byte) 'x');
        byte[] id = String.format("m-%010d-", i).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(id, 0, content, 0, id.length);
        return content;
    }

    /**
     * The memory of the data ({@code used_memory_dataset}: {@code used_memory} less the server's overhead,
     * which holds the clients' buffers and the scripts' cache, both of which vary with the traffic).
     */
    private static long usedMemory(RedisProcess redis) {
        for (String line : redis.cli("INFO", "memory").split("\r?\n")) {
            if (line.startsWith("used_memory_dataset:")) {
                return Long.parseLong(line.substring("used_memory_dataset:".length()).trim());
            }
        }
        throw new IllegalStateException("no used_memory_dataset in INFO memory");
    }

    private static long preparedMembers(RedisProcess redis, TopicKeys keys) {
        long n = 0;
        for (int slot = 0; slot < SLOTS; slot++) {
            n += Long.parseLong(redis.cli("ZCARD", keys.slot(slot).prepare()));
        }
        return n;
    }

    private static String[] concat(String first, List<String> rest) {
        List<String> all = new ArrayList<>(rest.size() + 1);
        all.add(first);
        all.addAll(rest);
        return all.toArray(String[]::new);
    }
}
