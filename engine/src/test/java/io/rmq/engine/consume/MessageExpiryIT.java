package io.rmq.engine.consume;

import static io.rmq.engine.EngineFixture.bytes;
import static io.rmq.engine.EngineFixture.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.engine.EngineFixture;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.produce.Expiry;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.settlement.EngineEvents;
import io.rmq.engine.topic.SlotKeys;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisExtension;
import io.rmq.testing.redis.RedisTestServer;

/**
 * Messages sent with an expiry: never delivered once expired, removed and counted (or kept in the dead queue),
 * merged by the topic type's rule, not expired while in flight, cleaned up when nobody pops them.
 */
@ExtendWith(RedisExtension.class)
class MessageExpiryIT {

    private static final Duration WAIT = Duration.ofSeconds(20);

    EngineFixture fx;
    RmqEngine client;
    final AtomicLong expiredEvents = new AtomicLong();
    final AtomicLong deadEvents = new AtomicLong();

    @BeforeEach
    void setUp(RedisTestServer redis) {
        fx = fixture(redis);
        client = fx.client();
        client.addListener(new EngineEvents() {
            @Override
            public void expired(TopicDefinition topic, long count) {
                expiredEvents.addAndGet(count);
            }

            @Override
            public void deadLettered(TopicDefinition topic, long count) {
                deadEvents.addAndGet(count);
            }
        });
    }

    /** The Redis the tests run against: the shared server; a subclass runs them on a cluster. */
    EngineFixture fixture(RedisTestServer redis) {
        return new EngineFixture(redis.uri());
    }

    @AfterEach
    void tearDown() throws Exception {
        fx.close();
    }

    private static ConsumerOptions.Builder options() {
        return ConsumerOptions.builder().retryBackoff(Duration.ZERO).pollInterval(Duration.ofMillis(200))
                .prepareTimeout(Duration.ofSeconds(1)).shutdownTimeout(Duration.ofMillis(300));
    }

    @Test
    void aFixedTimeMessageThatExpiresBeforeItIsDueIsNeverDeliveredAndIsCounted() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("expiry-fixed", 1, TopicType.FIXED_TIME));
        TopicProducer producer = client.producer(keys);
        long now = redisNow();
        producer.sendAt(bytes("late"), Instant.ofEpochMilli(now + 300), null, Expiry.at(Instant.ofEpochMilli(now + 100)))
                .toCompletableFuture().join();
        producer.sendAt(bytes("on-time"), Instant.ofEpochMilli(now + 600), null, Expiry.after(Duration.ofMinutes(1)))
                .toCompletableFuture().join();

        EngineFixture.Recorder r = fx.consume(client, keys, options().build());
        r.consumer.request(10);
        Delivery d = r.next(WAIT);
        assertThat(text(d)).isEqualTo("on-time");
        d.commit();

        await().atMost(WAIT).until(() -> counter(keys, "expired") == 1);
        SlotKeys slot = keys.slot(0);
        await().atMost(WAIT).until(() -> fx.redis().exists(slot.heldExpiry()) == 0);
        assertThat(fx.redis().exists(slot.store(), slot.expiry(), slot.dead())).as("nothing left").isZero();
        assertThat(r.received).as("never delivered").isEmpty();
        assertThat(expiredEvents.get()).isEqualTo(1);
        assertThat(deadEvents.get()).as("dropped, not dead").isZero();
    }

    @Test
    void aRangeMergeMessageExpiresOnTheRedisClockAfterItsTimeToLive() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("expiry-range", 1, TopicType.RANGE_MERGE));
        TopicProducer producer = client.producer(keys);
        producer.sendInRange(bytes("stale"), Duration.ofMillis(500), null, Expiry.after(Duration.ofMillis(100)))
                .toCompletableFuture().join();
        producer.sendInRange(bytes("fresh"), Duration.ofMillis(600), null).toCompletableFuture().join();

        EngineFixture.Recorder r = fx.consume(client, keys, options().build());
        r.consumer.request(10);
        assertThat(text(r.next(WAIT))).isEqualTo("fresh");
        assertThat(counter(keys, "expired")).isEqualTo(1);
        assertThat(r.received).isEmpty();
    }

    @Test
    void aPriorityMessageThatExpiredIsNeverDeliveredEvenAtTheHighestPriority() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("expiry-priority", 1, TopicType.PRIORITY));
        TopicProducer producer = client.producer(keys);
        long now = redisNow();
        producer.sendWithPriority(bytes("urgent-but-expired"), 100, null, Expiry.at(Instant.ofEpochMilli(now - 1)))
                .toCompletableFuture().join();
        producer.sendWithPriority(bytes("low"), 1, null).toCompletableFuture().join();

        EngineFixture.Recorder r = fx.consume(client, keys, options().build());
        r.consumer.request(10);
        assertThat(text(r.next(WAIT))).isEqualTo("low");
        assertThat(counter(keys, "expired")).isEqualTo(1);
        assertThat(r.received).isEmpty();
    }

    @Test
    void mergesFollowTheScoreRuleOfTheTopicType() {
        long now = redisNow();
        Expiry soon = Expiry.at(Instant.ofEpochMilli(now + 60_000));
        Expiry later = Expiry.at(Instant.ofEpochMilli(now + 120_000));

        TopicKeys range = EngineFixture.register(client, new TopicDefinition("merge-range", 1, TopicType.RANGE_MERGE));
        TopicProducer p = client.producer(range);
        p.sendInRange(bytes("a"), Duration.ofMinutes(5), null, soon).toCompletableFuture().join();
        p.sendInRange(bytes("a"), Duration.ofMinutes(5), null, later).toCompletableFuture().join();
        p.sendInRange(bytes("b"), Duration.ofMinutes(5), null).toCompletableFuture().join();
        p.sendInRange(bytes("b"), Duration.ofMinutes(5), null, later).toCompletableFuture().join();
        p.sendInRange(bytes("c"), Duration.ofMinutes(5), null, soon).toCompletableFuture().join();
        p.sendInRange(bytes("c"), Duration.ofMinutes(5), null).toCompletableFuture().join();
        String set = range.slot(0).expiry();
        assertThat(fx.redis().zscore(set, "a")).as("RANGE_MERGE: the first send's expiry stands").isEqualTo(now + 60_000.0);
        assertThat(fx.redis().zscore(set, "b")).as("the first send had none").isNull();
        assertThat(fx.redis().zscore(set, "c")).as("a later send without one keeps it").isEqualTo(now + 60_000.0);

        for (TopicType type : List.of(TopicType.FIXED_TIME, TopicType.PRIORITY)) {
            TopicKeys keys = EngineFixture.register(client, new TopicDefinition("merge-" + type.name().toLowerCase(), 1, type));
            TopicProducer q = client.producer(keys);
            for (String[] sends : new String[][] { { "a", "soon", "later" }, { "b", "none", "later" }, { "c", "soon", "none" } }) {
                for (int i = 1; i <= 2; i++) {
                    Expiry e = switch (sends[i]) {
                        case "soon" -> soon;
                        case "later" -> later;
                        default -> null;
                    };
                    if (type == TopicType.FIXED_TIME) {
                        q.sendAt(bytes(sends[0]), Instant.ofEpochMilli(now + 30_000 * i), null, e).toCompletableFuture().join();
                    } else {
                        q.sendWithPriority(bytes(sends[0]), i, null, e).toCompletableFuture().join();
                    }
                }
            }
            String s = keys.slot(0).expiry();
            assertThat(fx.redis().zscore(s, "a")).as(type + ": the last send's expiry stands").isEqualTo(now + 120_000.0);
            assertThat(fx.redis().zscore(s, "b")).as(type + ": a last send with one sets it").isEqualTo(now + 120_000.0);
            assertThat(fx.redis().zscore(s, "c")).as(type + ": a last send without one clears it").isNull();
            assertThat(fx.redis().zcard(keys.slot(0).store())).isEqualTo(3);
        }
    }

    @Test
    void expiredMessagesGoToTheDeadQueueWithTheReasonExpiredWhenTheConsumerAsks() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("expiry-dead", 1, TopicType.FIXED_TIME));
        TopicProducer producer = client.producer(keys);
        long now = redisNow();
        producer.sendAt(bytes("gone"), Instant.ofEpochMilli(now), null, Expiry.at(Instant.ofEpochMilli(now - 10)))
                .toCompletableFuture().join();
        producer.sendAt(bytes("kept"), Instant.ofEpochMilli(now), null).toCompletableFuture().join();

        EngineFixture.Recorder r = fx.consume(client, keys, options().expiredToDead(true).build());
        r.consumer.request(10);
        assertThat(text(r.next(WAIT))).isEqualTo("kept");
        SlotKeys slot = keys.slot(0);
        assertThat(fx.redis().zrange(slot.dead(), 0, -1)).containsExactly("gone");
        assertThat(fx.redis().hget(slot.failures(), "gone")).isEqualTo("0\t\texpired");
        assertThat(counter(keys, "expired")).isEqualTo(1);
        assertThat(counter(keys, "dead")).isEqualTo(1);
        assertThat(expiredEvents.get()).isEqualTo(1);
        assertThat(deadEvents.get()).isEqualTo(1);
        assertThat(fx.redis().exists(slot.expiry())).isZero();
    }

    @Test
    void expiredMessagesNotYetDueOfSlotsNobodyPopsAreRemovedByTheSweeper() {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("expiry-sweep", 4, TopicType.FIXED_TIME));
        TopicProducer producer = client.producer(keys);
        long now = redisNow();
        for (int i = 0; i < 40; i++) {
            producer.sendAt(bytes("m" + i), Instant.ofEpochMilli(now + 3_600_000), "b" + i,
                    Expiry.after(Duration.ofMillis(50))).toCompletableFuture().join();
        }
        producer.sendAt(bytes("stays"), Instant.ofEpochMilli(now + 3_600_000), null, Expiry.after(Duration.ofHours(2)))
                .toCompletableFuture().join();

        // no demand: the consumer never pops; its topic's sweeper runs every prepare-timeout / 2
        fx.consume(client, keys, options().build());
        await().atMost(WAIT).until(() -> counter(keys, "expired") == 40);
        assertThat(fx.inQueues(keys)).isEqualTo(1);
        assertThat(expiredEvents.get()).isEqualTo(40);
    }

    @Test
    void aMessageInFlightDoesNotExpireAndIsExpiredByTheNextPopOnceRolledBackAfterItsExpiry() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("expiry-flight", 1, TopicType.FIXED_TIME));
        TopicProducer producer = client.producer(keys);
        long now = redisNow();
        producer.sendAt(bytes("slow"), Instant.ofEpochMilli(now), null, Expiry.at(Instant.ofEpochMilli(now + 300)))
                .toCompletableFuture().join();

        EngineFixture.Recorder r = fx.consume(client, keys, options().build());
        r.consumer.request(10);
        Delivery d = r.next(WAIT);
        SlotKeys slot = keys.slot(0);
        assertThat(fx.redis().hget(slot.heldExpiry(), "slow")).as("held while in flight").isEqualTo(Long.toString(now + 300));
        assertThat(fx.redis().exists(slot.expiry())).isZero();
        await().atMost(WAIT).until(() -> redisNow() > now + 300);
        assertThat(counter(keys, "expired")).as("not expired in flight").isZero();

        d.rollback(new IllegalStateException("failed after its expiry")).toCompletableFuture().join();
        await().atMost(WAIT).until(() -> counter(keys, "expired") == 1);
        assertThat(fx.inQueues(keys)).isZero();
        assertThat(fx.redis().exists(slot.heldExpiry(), slot.expiry(), slot.attempts(), slot.failures())).isZero();
        assertThat(r.received).as("not delivered again").isEmpty();
    }

    @Test
    void aCommitForgetsTheHeldExpiryAndACopySentMeanwhileKeepsItsOwn() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("expiry-commit", 1, TopicType.FIXED_TIME));
        TopicProducer producer = client.producer(keys);
        long now = redisNow();
        producer.sendAt(bytes("m"), Instant.ofEpochMilli(now), null, Expiry.after(Duration.ofMinutes(1)))
                .toCompletableFuture().join();
        EngineFixture.Recorder r = fx.consume(client, keys, options().build());
        r.consumer.request(1);
        Delivery d = r.next(WAIT);
        // sent again while the first copy is in flight, without an expiry: a new message, with none
        producer.sendAt(bytes("m"), Instant.ofEpochMilli(now), null).toCompletableFuture().join();
        d.commit().toCompletableFuture().join();
        SlotKeys slot = keys.slot(0);
        await().atMost(WAIT).until(() -> fx.redis().exists(slot.heldExpiry()) == 0);
        assertThat(fx.redis().zscore(slot.expiry(), "m")).isNull();
        r.consumer.request(1);
        r.next(WAIT).commit();
        assertThat(counter(keys, "expired")).isZero();
    }

    /**
     * 10,000 messages due at random times within 3 s, each expiring at a random time up to 0.5 s before or after
     * it is due: none is popped at or after its expiry, every other is delivered, and the expired ones are counted
     * exactly.
     */
    @Test
    void tenThousandMessagesWithRandomExpiriesAroundTheirDueTimes() throws Exception {
        int total = 10_000;
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("expiry-many", 16, TopicType.FIXED_TIME));
        TopicProducer producer = client.producer(keys);
        Random random = new Random(23);
        long base = redisNow() + 500;
        Map<String, Long> expiresAt = new HashMap<>();
        Map<String, Long> dueAt = new HashMap<>();
        List<java.util.concurrent.CompletableFuture<?>> sends = new java.util.ArrayList<>();
        for (int i = 0; i < total; i++) {
            String m = "msg-" + i;
            long due = base + random.nextInt(3_000);
            long expires = due - 500 + random.nextInt(1_000);
            dueAt.put(m, due);
            expiresAt.put(m, expires);
            sends.add(producer.sendAt(bytes(m), Instant.ofEpochMilli(due), m, Expiry.at(Instant.ofEpochMilli(expires)))
                    .toCompletableFuture());
        }
        sends.forEach(java.util.concurrent.CompletableFuture::join);

        Map<String, Long> poppedAt = new ConcurrentHashMap<>();
        AtomicLong duplicates = new AtomicLong();
        TopicConsumer consumer = client.consumer(keys, options().build(), "expiry-many");
        consumer.start(d -> {
            if (poppedAt.put(text(d), d.poppedAtMillis()) != null) {
                duplicates.incrementAndGet();
            }
            d.commit();
        });
        try {
            consumer.request(Long.MAX_VALUE);
            await().atMost(Duration.ofSeconds(60)).until(() -> poppedAt.size() + counter(keys, "expired") >= total
                    && fx.inQueues(keys) == 0);
        } finally {
            consumer.close();
        }

        long expired = counter(keys, "expired");
        assertThat(duplicates.get()).isZero();
        assertThat(poppedAt.size() + expired).as("delivered + expired").isEqualTo(total);
        poppedAt.forEach((m, at) -> assertThat(at).as("%s popped before it expired", m).isLessThan(expiresAt.get(m)));
        long certainlyExpired = expiresAt.entrySet().stream().filter(e -> e.getValue() <= dueAt.get(e.getKey())).count();
        assertThat(expiresAt.keySet().stream().filter(m -> expiresAt.get(m) <= dueAt.get(m)))
                .as("expired before due: never delivered").noneMatch(poppedAt::containsKey);
        assertThat(expired).as("at least those expiring before they are due").isGreaterThanOrEqualTo(certainlyExpired);
        assertThat(expiredEvents.get()).as("the engine's events count the same").isEqualTo(expired);
        for (int slot = 0; slot < 16; slot++) {
            SlotKeys k = keys.slot(slot);
            assertThat(fx.redis().exists(k.expiry(), k.heldExpiry(), k.dead())).as("slot %d left nothing", slot).isZero();
        }
        System.out.printf("EXPIRY 10000: delivered %d, expired %d (%d expired before they were due)%n",
                poppedAt.size(), expired, certainlyExpired);
    }

    long counter(TopicKeys keys, String field) {
        long n = 0;
        for (int slot = 0; slot < keys.topic().slotAmount(); slot++) {
            String value = fx.redis().hget(keys.slot(slot).counters(), field);
            n += value == null ? 0 : Long.parseLong(value);
        }
        return n;
    }

    long redisNow() {
        List<String> time = fx.redis().time();
        return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    }
}
