package io.rmq.engine.consume;

import static io.rmq.engine.EngineFixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.engine.EngineFixture;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.consume.flow.AdaptiveSlowDown;
import io.rmq.engine.consume.flow.FlowLimit;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisExtension;
import io.rmq.testing.redis.RedisTestServer;

/**
 * Consumers held to their topic's rate limit, against a real Redis. The limit is checked by counts: by any moment,
 * the consumers together have delivered no more than the bucket plus the rate times the time since they started
 * (a slow machine only delivers fewer), and the whole backlog is delivered.
 */
@ExtendWith(RedisExtension.class)
class FlowRateIT {

    private static final Duration WAIT = Duration.ofSeconds(20);

    EngineFixture fx;
    RmqEngine client;

    @BeforeEach
    void setUp(RedisTestServer redis) {
        fx = fixture(redis);
        client = fx.client();
    }

    EngineFixture fixture(RedisTestServer redis) {
        return new EngineFixture(redis.uri());
    }

    @AfterEach
    void tearDown() throws Exception {
        fx.close();
    }

    @Test
    void twoConsumersTogetherKeepTheTopicsRate() throws Exception {
        int rate = 20;
        int burst = 5;
        int backlog = 60;
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("limited", 4, TopicType.PRIORITY));
        TopicProducer producer = client.producer(keys);
        for (int i = 0; i < backlog; i++) {
            producer.sendWithPriority(bytes("m" + i), 1, null).toCompletableFuture().join();
        }
        ConsumerOptions options = ConsumerOptions.builder().pollInterval(Duration.ofMillis(200))
                .shutdownTimeout(Duration.ofMillis(300)).rateLimit(new FlowLimit(rate, burst)).build();

        BlockingQueue<Delivery> received = new LinkedBlockingQueue<>();
        long start = System.nanoTime();
        for (int c = 0; c < 2; c++) {
            EngineFixture.Recorder r = fx.consume(client, keys, options);
            Thread forwarder = new Thread(() -> forward(r, received), "forward-" + c);
            forwarder.setDaemon(true);
            forwarder.start();
            r.consumer.request(Long.MAX_VALUE);
        }

        for (int n = 1; n <= backlog; n++) {
            Delivery d = received.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(d).as("delivery %d of %d", n, backlog).isNotNull();
            double seconds = (System.nanoTime() - start) / 1e9;
            assertThat((double) n).as("deliveries by %.3f s", seconds).isLessThanOrEqualTo(burst + rate * seconds + 1);
            d.commit();
        }
        assertThat(fx.redis().hgetall(keys.flow())).containsEntry("rate", "20").containsEntry("cfg:rate", "20")
                .containsEntry("burst", "5").containsEntry("gen", "1");
    }

    @Test
    void aLiveChangeThroughTheAdminApiTakesOverFromTheConfiguredLimit() throws Exception {
        int backlog = 100;
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("raised", 2, TopicType.PRIORITY));
        TopicProducer producer = client.producer(keys);
        for (int i = 0; i < backlog; i++) {
            producer.sendWithPriority(bytes("m" + i), 1, null).toCompletableFuture().join();
        }
        // 1 message per minute: without the change, the backlog would take over an hour and a half
        EngineFixture.Recorder r = fx.consume(client, keys, ConsumerOptions.builder().pollInterval(Duration.ofMillis(200))
                .shutdownTimeout(Duration.ofMillis(300)).rateLimit(FlowLimit.parse("1/m", 1)).build());
        r.consumer.request(Long.MAX_VALUE);
        r.next(WAIT).commit(); // the bucket's one message; the next permit is a minute away
        await().atMost(WAIT).until(() -> fx.redis().hexists(keys.flow(), "tat"));

        try (RmqAdmin admin = RmqAdmin.connect(fx.uri)) {
            assertThat(admin.setRateLimit(keys.topic(), 1000, 100)).isEqualTo(2);
        }

        // the rest of the backlog follows well within a minute: the consumer gave its old reservation back
        assertThat(r.take(backlog - 1, WAIT)).hasSize(backlog - 1).allSatisfy(Delivery::commit);
        assertThat(fx.redis().hmget(keys.flow(), "rate", "cfg:rate").stream().map(kv -> kv.getValue()))
                .containsExactly("1000", "0.016666666666666666");
    }

    @Test
    void aConsumerWithoutALimitNeverTouchesTheLimiter() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("free", 2, TopicType.PRIORITY));
        client.producer(keys).sendWithPriority(bytes("m"), 1, null).toCompletableFuture().join();
        EngineFixture.Recorder r = fx.consume(client, keys, ConsumerOptions.builder().build());
        r.consumer.request(1);

        r.next(WAIT).commit();

        assertThat(fx.redis().exists(keys.flow())).isZero();
    }

    @Test
    void aConsumerStartedWithoutALimitFollowsALimitSetLiveAndItsRemoval() throws Exception {
        int backlog = 50;
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("live", 2, TopicType.PRIORITY));
        TopicProducer producer = client.producer(keys);
        for (int i = 0; i < backlog; i++) {
            producer.sendWithPriority(bytes("m" + i), 1, null).toCompletableFuture().join();
        }
        // batches of 1: nothing popped before the limit waits in the prefetch
        EngineFixture.Recorder r = fx.consume(client, keys, ConsumerOptions.builder().pollInterval(Duration.ofMillis(200))
                .shutdownTimeout(Duration.ofMillis(300)).batchSize(1).build());
        r.consumer.request(1);
        r.next(WAIT).commit(); // unthrottled
        try (RmqAdmin admin = RmqAdmin.connect(fx.uri)) {
            admin.setRateLimit(keys.topic(), 1.0 / 60, 1);
            // a consumer that pops reads the topic's flow settings every second
            await().atMost(WAIT).until(() -> r.consumer.flowSettings().rate().isPresent());

            r.consumer.request(Long.MAX_VALUE);
            r.next(WAIT).commit(); // the bucket's one message; the next permit is a minute away
            assertThat(r.received.poll(1500, TimeUnit.MILLISECONDS)).as("a delivery beyond the limit").isNull();

            admin.removeRateLimit(keys.topic());
        }
        assertThat(r.take(backlog - 2, WAIT)).hasSize(backlog - 2).allSatisfy(Delivery::commit);
        assertThat(r.consumer.flowSettings().rate()).isEmpty();
    }

    @Test
    void aFlowHashLostWithRedisIsWrittenAgainFromTheConfiguredLimit() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("lost", 2, TopicType.PRIORITY));
        EngineFixture.Recorder r = fx.consume(client, keys, ConsumerOptions.builder().pollInterval(Duration.ofMillis(200))
                .shutdownTimeout(Duration.ofMillis(300)).rateLimit(new FlowLimit(500, 50)).build());
        r.consumer.request(Long.MAX_VALUE);
        client.producer(keys).sendWithPriority(bytes("first"), 1, null).toCompletableFuture().join();
        r.next(WAIT).commit();
        await().atMost(WAIT).until(() -> r.consumer.flowSettings().gen() == 1);

        fx.redis().del(keys.flow()); // what a restart without persistence leaves
        client.producer(keys).sendWithPriority(bytes("second"), 1, null).toCompletableFuture().join();
        r.next(WAIT).commit();

        // the limiter's reply to that pop shows generation 0: the settings are read, found gone, and written again
        await().atMost(WAIT).until(() -> "500".equals(fx.redis().hget(keys.flow(), "rate")));
        assertThat(fx.redis().hgetall(keys.flow())).containsEntry("cfg:rate", "500").containsEntry("burst", "50");
    }

    @Test
    void theAdaptiveSlowDownBacksOffWhileDeliveriesFail() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("failing", 2, TopicType.PRIORITY));
        TopicProducer producer = client.producer(keys);
        for (int i = 0; i < 100; i++) {
            producer.sendWithPriority(bytes("m" + i), 1, null).toCompletableFuture().join();
        }
        EngineFixture.Recorder r = fx.consume(client, keys, ConsumerOptions.builder().pollInterval(Duration.ofMillis(200))
                .shutdownTimeout(Duration.ofMillis(300)).maxRetries(1_000).retryBackoff(Duration.ZERO)
                .rateLimit(new FlowLimit(100, 0)).adaptiveSlowDown(new AdaptiveSlowDown(0.5, 5)).build());
        Thread failing = new Thread(() -> {
            try {
                while (true) {
                    r.received.take().rollback(new IllegalStateException("the downstream is down"));
                }
            } catch (InterruptedException stopped) {
                Thread.currentThread().interrupt();
            }
        }, "failing-downstream");
        failing.setDaemon(true);
        failing.start();
        r.consumer.request(Long.MAX_VALUE);

        await().atMost(WAIT).until(() -> fx.redis().hget(keys.flow(), "a.rate") != null);
        assertThat(fx.redis().hget(keys.flow(), "a.reason")).startsWith("failures 100% > 50%");
        await().atMost(WAIT).until(() -> r.consumer.flowSettings().effectiveRate().orElse(100.0) < 100);
        failing.interrupt();
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
}
