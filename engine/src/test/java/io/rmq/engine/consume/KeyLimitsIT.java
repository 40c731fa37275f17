package io.rmq.engine.consume;

import static io.rmq.engine.EngineFixture.bytes;
import static io.rmq.engine.EngineFixture.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.engine.EngineFixture;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.scripts.SendResult;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.topic.KeyLimits;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisExtension;
import io.rmq.testing.redis.RedisTestServer;

/** Consumers with limits per key, end to end against a real Redis; {@link KeyLimitsClusterIT} on a Redis Cluster. */
@ExtendWith(RedisExtension.class)
class KeyLimitsIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final KeyLimits ONE_AT_A_TIME = new KeyLimits(1, 0, 0);

    EngineFixture fx;
    RmqEngine client;

    @BeforeEach
    void setUp(RedisTestServer redis) {
        fx = fixture(redis);
        client = fx.client();
    }

    /** The Redis the tests run against: the shared server; a subclass runs them on a cluster. */
    EngineFixture fixture(RedisTestServer redis) {
        return new EngineFixture(redis.uri());
    }

    @AfterEach
    void tearDown() throws Exception {
        fx.close();
    }

    @Test
    void aKeyWithABacklogDoesNotHoldBackTheKeysBehindIt() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("head-of-line", 1, TopicType.FIXED_TIME));
        TopicProducer producer = client.producer(keys);
        producer.updateKeyLimits(ONE_AT_A_TIME);
        Instant past = Instant.now().minusSeconds(3_600);
        List<CompletionStage<SendResult>> sent = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            sent.add(producer.sendAt(bytes("A-" + i), past.plusMillis(i), "A"));
        }
        // 100 messages due after all of A's, each of a key of its own
        for (int i = 0; i < 100; i++) {
            sent.add(producer.sendAt(bytes("B-" + i), past.plusMillis(10_000 + i), "B" + i));
        }
        CompletableFuture.allOf(sent.stream().map(CompletionStage::toCompletableFuture).toArray(CompletableFuture[]::new))
                .join();

        EngineFixture.Recorder r = fx.consume(client, keys, options());
        r.consumer.request(Long.MAX_VALUE);
        int deliveredA = 0;
        int deliveredB = 0;
        while (deliveredB < 100) {
            Delivery d = r.next(WAIT);
            if (text(d).startsWith("A-")) {
                deliveredA++;
            } else {
                deliveredB++;
            }
            assertThat(deliveredA).as("A's deliveries before B's 100 are all out").isLessThan(50);
            d.commit();
        }
    }

    @Test
    void oneMessageOfAKeyAtATimeAcrossConsumersAndEveryMessageDelivered() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("serial-keys", 4, TopicType.PRIORITY));
        TopicProducer producer = client.producer(keys);
        producer.updateKeyLimits(ONE_AT_A_TIME);
        int perKey = 20;
        int keyCount = 10;
        List<CompletionStage<SendResult>> sent = new ArrayList<>();
        for (int k = 0; k < keyCount; k++) {
            for (int i = 0; i < perKey; i++) {
                sent.add(producer.sendWithPriority(bytes("k" + k + "-" + i), i, "k" + k));
            }
        }
        CompletableFuture.allOf(sent.stream().map(CompletionStage::toCompletableFuture).toArray(CompletableFuture[]::new))
                .join();

        BlockingQueue<Delivery> received = new LinkedBlockingQueue<>();
        for (int c = 0; c < 2; c++) {
            EngineFixture.Recorder r = fx.consume(client, keys, options());
            Thread forwarder = new Thread(() -> forward(r, received), "forward-" + c);
            forwarder.setDaemon(true);
            forwarder.start();
            r.consumer.request(Long.MAX_VALUE);
        }
        // deliveries are held (not committed) while more arrive: a second message of a held key is an overlap
        Map<String, Delivery> held = new HashMap<>();
        int delivered = 0;
        while (delivered < perKey * keyCount) {
            Delivery d = held.isEmpty() ? received.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS)
                    : received.poll(100, TimeUnit.MILLISECONDS);
            if (d == null) {
                assertThat(held).as("nothing delivered after %d deliveries", delivered).isNotEmpty();
                held.values().forEach(Delivery::commit);
                held.clear();
                continue;
            }
            delivered++;
            String key = text(d).substring(0, text(d).indexOf('-'));
            assertThat(held).as("a second message of %s while one is in flight", key).doesNotContainKey(key);
            held.put(key, d);
        }
        held.values().forEach(Delivery::commit);
        await().atMost(WAIT).until(() -> fx.inQueues(keys) == 0);
        assertThat(received).as("each message delivered once").isEmpty();
    }

    @Test
    void aRateLimitPerKeySpacesOneKeysDeliveriesAndLetsTheOthersGo() throws Exception {
        int rate = 20;
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("key-rate", 2, TopicType.PRIORITY));
        TopicProducer producer = client.producer(keys);
        KeyLimits limits = new KeyLimits(0, rate, 1);
        producer.updateKeyLimits(limits);
        for (int i = 0; i < 20; i++) {
            producer.sendWithPriority(bytes("hot-" + i), 1, "hot").toCompletableFuture().join();
        }
        for (int i = 0; i < 20; i++) {
            producer.sendWithPriority(bytes("cold-" + i), 1, "cold-" + i).toCompletableFuture().join();
        }

        EngineFixture.Recorder r = fx.consume(client, keys, options().toBuilder().keyLimits(limits).build());
        long start = System.nanoTime();
        r.consumer.request(Long.MAX_VALUE);
        int hot = 0;
        int cold = 0;
        while (hot + cold < 40) {
            Delivery d = r.next(WAIT);
            double seconds = (System.nanoTime() - start) / 1e9;
            if (text(d).startsWith("hot-")) {
                hot++;
                assertThat((double) hot).as("hot deliveries by %.3f s", seconds).isLessThanOrEqualTo(1 + rate * seconds + 1);
            } else {
                cold++;
            }
            d.commit();
        }
        assertThat(cold).isEqualTo(20);
    }

    @Test
    void aConsumerWithoutLimitsPaysNothingAndOldMessagesAreDeliveredWhenLimitsComeOn() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("switched-on", 1, TopicType.PRIORITY));
        TopicProducer producer = client.producer(keys);
        for (int i = 0; i < 5; i++) {
            producer.sendWithPriority(bytes("old-" + i), i, "k" + i).toCompletableFuture().join();
        }
        assertThat(fx.redis().exists(keys.slot(0).flowKeys())).as("no key recorded without limits").isZero();

        EngineFixture.Recorder r = fx.consume(client, keys, options());
        r.consumer.request(Long.MAX_VALUE);
        // the old messages have no key: the whole slot is one key, so they come one at a time, and all of them
        for (int i = 0; i < 5; i++) {
            Delivery d = r.received.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(d).as("delivery %d; Redis holds %s", i, state(keys)).isNotNull();
            assertThat(r.received).as("one at a time").isEmpty();
            d.commit();
        }
    }

    /** The slot's queues and key state, for a failure's message. */
    private String state(TopicKeys keys) {
        var slot = keys.slot(0);
        return "store " + fx.redis().zrange(slot.store(), 0, -1) + ", prepare " + fx.redis().zrange(slot.prepare(), 0, -1)
                + ", parked keys " + fx.redis().zrangeWithScores(slot.parkedKeys(), 0, -1) + ", key counts "
                + fx.redis().hgetall(slot.keyCounts()) + ", parked " + fx.redis().zrange(slot.parked("~slot"), 0, -1);
    }

    private static void forward(EngineFixture.Recorder from, BlockingQueue<Delivery> to) {
        try {
            while (true) {
                to.add(from.received.take());
            }
        } catch (InterruptedException stopped) {
            Thread.currentThread().interrupt();
        }
    }

    private static ConsumerOptions options() {
        return ConsumerOptions.builder().pollInterval(Duration.ofMillis(200)).shutdownTimeout(Duration.ofMillis(300))
                .batchSize(16).keyLimits(ONE_AT_A_TIME).build();
    }
}
