package io.rmq.engine.consume;

import static io.rmq.engine.EngineFixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.engine.EngineFixture;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.consume.flow.FlowLimit;
import io.rmq.engine.produce.ProducerOptions;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.topic.PriorityAging;
import io.rmq.engine.topic.SlotKeys;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisExtension;
import io.rmq.testing.redis.RedisTestServer;

/**
 * Priority aging under a flood, against a real Redis. Consumption is held to mu = 1,000 messages/s by the topic's rate
 * limit; a flood of priority 10 arrives at lambda = 2,000/s, twice that; one message of priority 0 is sent into it.
 * With a pace k it is outranked only by the backlog B0 pending when it is sent and by the messages sent less than
 * (10 - 0)/k after it: it is delivered after at most B0 + lambda * 10/k deliveries, i.e. within
 * (B0 + lambda * 10/k) / mu. Without aging it is not delivered while the flood lasts (the backlog only grows).
 */
@ExtendWith(RedisExtension.class)
class PriorityAgingIT {

    private static final int MU = 1_000;
    private static final int LAMBDA = 2_000;
    private static final double HIGH = 10;
    private static final double LOW = 0;
    /** Ten points per second: the low message is outranked by what is sent in the second after it. */
    private static final String PACE = "10/s";
    /** Messages popped together with the low one or before it in the prefetch: the pop's batch. */
    private static final int BATCH = 32;
    private static final byte[] LOW_MESSAGE = bytes("low");

    private EngineFixture fx;
    private RmqEngine client;
    private ScheduledExecutorService flood;
    private TopicConsumer consumer;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong lowDeliveredAtNanos = new AtomicLong();
    private final AtomicLong deliveredBeforeLow = new AtomicLong(-1);

    @BeforeEach
    void setUp(RedisTestServer redis) {
        fx = new EngineFixture(redis.uri());
        client = fx.client();
        flood = Executors.newSingleThreadScheduledExecutor();
    }

    @AfterEach
    void tearDown() throws Exception {
        flood.shutdownNow();
        if (consumer != null) {
            consumer.close();
        }
        fx.close();
    }

    @Test
    void anAgedLowPriorityMessageIsDeliveredWithinTheBound() {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("aged", 1, TopicType.PRIORITY));
        TopicProducer producer = client.producer(keys, ProducerOptions.builder().priorityAging(PriorityAging.parse(PACE))
                .build());
        PriorityAging aging = producer.updatePriorityAging(PriorityAging.parse(PACE)).toCompletableFuture().join();
        consume(keys);
        startFlood(producer);

        Start start = sendLowAfterABacklog(producer, keys.slot(0));
        await().atMost(Duration.ofSeconds(60)).until(() -> lowDeliveredAtNanos.get() != 0);

        double seconds = (lowDeliveredAtNanos.get() - start.nanos) / 1e9;
        long ahead = deliveredBeforeLow.get() - start.delivered;
        long lowSince = Long.parseLong(fx.redis().hget(keys.slot(0).since(), "low"));
        long outrankingAfter = sentWithin(keys.slot(0), start.redisMillis, lowSince + (long) ((HIGH - LOW) / aging.pacePerMilli()));
        double bound = (start.backlog + LAMBDA * (HIGH - LOW) / (aging.pacePerMilli() * 1000)) / MU;
        System.out.printf("PRIORITY AGING pace %s: B0 %d, sent after it and outranking it %d, delivered before it %d,"
                + " waited %.2f s, bound (B0 + lambda*(p_h - p_l)/k)/mu = %.2f s%n", PACE, start.backlog, outrankingAfter,
                ahead, seconds, bound);
        // the bound by counts: only the backlog and what was sent within (p_h - p_l)/k after it went first
        assertThat(ahead).isLessThanOrEqualTo(start.backlog + outrankingAfter + BATCH);
        // and in time, at the nominal rates
        assertThat(seconds).isLessThanOrEqualTo(bound * 1.1 + 1);
    }

    @Test
    void withoutAgingTheLowPriorityMessageWaitsWhileTheFloodLasts() {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("plain", 1, TopicType.PRIORITY));
        TopicProducer producer = client.producer(keys);
        consume(keys);
        startFlood(producer);

        Start start = sendLowAfterABacklog(producer, keys.slot(0));
        double bound = (start.backlog + LAMBDA * (HIGH - LOW) / 10.0) / MU; // what aging at 10/s would have bounded
        long floodSeconds = (long) Math.ceil(2 * bound + 1);
        await().during(Duration.ofSeconds(floodSeconds)).atMost(Duration.ofSeconds(floodSeconds + 5))
                .until(() -> lowDeliveredAtNanos.get() == 0);

        System.out.printf("PRIORITY AGING off: B0 %d, not delivered in %d s of flood (twice the aged bound, %.2f s, + 1 s);"
                + " %d delivered meanwhile%n", start.backlog, floodSeconds, bound, delivered.get() - start.delivered);
        assertThat(fx.redis().zscore(keys.slot(0).store(), "low")).isEqualTo(LOW); // still pending, not lost
    }

    @Test
    void aConsumerThatKnowsOfAgingReportsPrioritiesAndForgetsTheSendTimesOfWhatItCommits() {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("forgotten", 1, TopicType.PRIORITY));
        TopicProducer producer = client.producer(keys, ProducerOptions.builder().priorityAging(PriorityAging.parse(PACE))
                .build());
        producer.updatePriorityAging(PriorityAging.parse(PACE)).toCompletableFuture().join();
        for (int i = 0; i < 50; i++) {
            producer.sendWithPriority(bytes("m" + i), i % 5, null).toCompletableFuture().join();
        }
        assertThat(fx.redis().hlen(keys.slot(0).since())).isEqualTo(50);
        TopicConsumer consumer = client.consumer(keys, ConsumerOptions.builder().priorityAging(PriorityAging.parse(PACE))
                .build(), "forgetting");
        Map<String, Double> priorities = new ConcurrentHashMap<>();
        consumer.start(d -> {
            priorities.put(new String(d.content(), StandardCharsets.UTF_8), d.priority());
            delivered.incrementAndGet();
            d.commit();
        });
        consumer.request(Long.MAX_VALUE);
        this.consumer = consumer;

        await().atMost(Duration.ofSeconds(20)).until(() -> delivered.get() == 50 && fx.prepared(keys) == 0);
        for (int i = 0; i < 50; i++) { // each delivery reports the priority it was sent with, not its aged score
            assertThat(priorities.get("m" + i)).as("m" + i).isCloseTo(i % 5, within(1e-6));
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> fx.redis().exists(keys.slot(0).since()) == 0);
    }

    private record Start(long backlog, long redisMillis, long nanos, long delivered) {
    }

    /** Waits for a second of flood, then sends the low message; the backlog counts what is pending or popped then. */
    private Start sendLowAfterABacklog(TopicProducer producer, SlotKeys slot) {
        await().atMost(Duration.ofSeconds(30)).until(() -> sent.get() >= LAMBDA && delivered.get() > 0);
        long before = delivered.get();
        long redisMillis = redisMillis();
        long backlog = fx.redis().zcard(slot.store()) + fx.redis().zcard(slot.prepare());
        long nanos = System.nanoTime();
        producer.sendWithPriority(LOW_MESSAGE, LOW, null).toCompletableFuture().join();
        return new Start(backlog, redisMillis, nanos, before);
    }

    /** Flood messages first sent from {@code fromMillis} up to (excluding) {@code untilMillis}, by their send times. */
    private long sentWithin(SlotKeys slot, long fromMillis, long untilMillis) {
        Map<String, String> since = fx.redis().hgetall(slot.since());
        return since.entrySet().stream().filter(e -> !e.getKey().equals("low")).mapToLong(e -> Long.parseLong(e.getValue()))
                .filter(at -> at >= fromMillis && at < untilMillis).count();
    }

    private void consume(TopicKeys keys) {
        TopicConsumer consumer = client.consumer(keys, ConsumerOptions.builder().batchSize(BATCH)
                .pollInterval(Duration.ofMillis(200)).shutdownTimeout(Duration.ofMillis(300))
                .rateLimit(new FlowLimit(MU, 50)).build(), "aging-test");
        consumer.start(d -> {
            long n = delivered.incrementAndGet();
            if (new String(d.content(), StandardCharsets.UTF_8).equals("low")) {
                deliveredBeforeLow.set(n - 1);
                lowDeliveredAtNanos.set(System.nanoTime());
            }
            d.commit();
        });
        consumer.request(Long.MAX_VALUE);
        this.consumer = consumer;
    }

    /** LAMBDA messages of priority HIGH per second, in 20 every 10 ms, each of its own content. */
    private void startFlood(TopicProducer producer) {
        int perTick = LAMBDA / 100;
        flood.scheduleAtFixedRate(() -> {
            for (int i = 0; i < perTick; i++) {
                producer.sendWithPriority(bytes("h" + sent.incrementAndGet()), HIGH, null);
            }
        }, 0, 10, TimeUnit.MILLISECONDS);
    }

    private long redisMillis() {
        List<String> time = fx.redis().time();
        return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    }
}
