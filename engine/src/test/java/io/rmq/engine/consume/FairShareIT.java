package io.rmq.engine.consume;

import static io.rmq.engine.EngineFixture.bytes;
import static io.rmq.engine.EngineFixture.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.engine.EngineFixture;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.consume.flow.FlowLimit;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.topic.FairShare;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisExtension;
import io.rmq.testing.redis.RedisTestServer;

/**
 * Fair share between tenants with consumption as the bottleneck (the topic's rate limit): tenant A floods the topic,
 * then tenant B sends a few messages. Without fair share B waits for A's whole backlog; with it, B is served at its
 * weight's share of every pop. Prints B's p99 wait (delivered - sent) both ways.
 */
@ExtendWith(RedisExtension.class)
class FairShareIT {

    private static final int RATE = Integer.getInteger("rmq.fair.rate", 5_000);
    private static final int FLOOD = Integer.getInteger("rmq.fair.flood", 100_000);
    private static final int FEW = 100;
    private static final Duration WAIT = Duration.ofSeconds(2L * FLOOD / RATE + 30);

    EngineFixture fx;
    RmqEngine client;

    @BeforeEach
    void setUp(RedisTestServer redis) {
        fx = new EngineFixture(redis.uri());
        client = fx.client();
    }

    @AfterEach
    void tearDown() throws Exception {
        fx.close();
    }

    @Test
    void aQuietTenantWaitsForItsShareNotForAFlood() throws Exception {
        long fair = p99WaitOfB("fair", FairShare.of(true, ""));
        long unfair = p99WaitOfB("unfair", FairShare.OFF);

        System.out.printf("FairShareIT: rate %d/s, A sends %d then B sends %d: B's p99 wait %d ms with fair share, %d ms"
                + " without%n", RATE, FLOOD, FEW, fair, unfair);
        // B's share is half of the rate while both are backlogged: its 100 messages take 100 / (RATE / 2) s
        assertThat(fair).isLessThanOrEqualTo((long) (FEW * 1000.0 / (RATE / 2.0) * 1.5) + 1_000);
        assertThat(unfair).isGreaterThan(10 * fair);
    }

    @Test
    void weightsThreeToOneGiveTheLighterTenantAQuarter() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("weighted", 4, TopicType.FIXED_TIME));
        TopicProducer producer = client.producer(keys);
        send(producer, "a", 4_000, true);
        send(producer, "b", 4_000, true);
        EngineFixture.Recorder r = fx.consume(client, keys, options(FairShare.of(true, "a:3,b:1")));
        r.consumer.request(Long.MAX_VALUE);

        List<Delivery> first = r.take(2_000, WAIT);
        long b = first.stream().filter(d -> text(d).startsWith("b")).count();
        first.forEach(Delivery::commit);

        System.out.printf("FairShareIT: weights a:3,b:1, both backlogged: B took %d of the first 2000 deliveries%n", b);
        assertThat(b / 2_000.0).isBetween(0.20, 0.30);
    }

    @Test
    void theAdminCountsAndRemovesATenantsPendingMessages() {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("administered", 2, TopicType.FIXED_TIME));
        TopicProducer producer = client.producer(keys);
        send(producer, "a", 3, true);
        producer.sendAt(bytes("plain"), Instant.now(), null).toCompletableFuture().join();

        try (RmqAdmin admin = RmqAdmin.connect(fx.uri)) {
            assertThat(admin.stats(keys.topic()).pending()).isEqualTo(4);
            assertThat(admin.removePending(keys.topic(), bytes("a1"), null)).as("not in the store queue").isFalse();
            assertThat(admin.removePending(keys.topic(), bytes("a1"), null, "a")).isTrue();
            assertThat(admin.stats(keys.topic()).pending()).isEqualTo(3);
        }
    }

    /** A floods, then B sends FEW; the p99 of B's waits, ms. */
    private long p99WaitOfB(String topic, FairShare fair) throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition(topic, 4, TopicType.FIXED_TIME));
        TopicProducer producer = client.producer(keys);
        send(producer, "a", FLOOD, fair.on());
        EngineFixture.Recorder r = fx.consume(client, keys, options(fair));
        r.consumer.request(Long.MAX_VALUE);
        send(producer, "b", FEW, fair.on());

        long[] waits = new long[FEW];
        int seen = 0;
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (seen < FEW) {
            Delivery d = r.received.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            assertThat(d).as("B's delivery %d of %d", seen + 1, FEW).isNotNull();
            if (text(d).startsWith("b")) {
                waits[seen++] = d.poppedAtMillis() - (long) d.score();
            }
            d.commit();
        }
        r.consumer.close();
        Arrays.sort(waits);
        return waits[(int) Math.ceil(0.99 * FEW) - 1];
    }

    private static ConsumerOptions options(FairShare fair) {
        return ConsumerOptions.builder().pollInterval(Duration.ofMillis(200)).shutdownTimeout(Duration.ofMillis(300))
                .rateLimit(new FlowLimit(RATE, RATE / 20)).fairShare(fair).build();
    }

    /** Sends n messages of tenant t ("t0", "t1", ...), due now, with the tenant when fair share is on. */
    private static void send(TopicProducer producer, String tenant, int n, boolean withTenant) {
        List<CompletableFuture<?>> sent = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            sent.add(producer.sendAt(bytes(tenant + i), Instant.now(), null, null, null, withTenant ? tenant : null)
                    .toCompletableFuture());
        }
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).join();
    }
}
