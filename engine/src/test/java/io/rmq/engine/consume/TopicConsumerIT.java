package io.rmq.engine.consume;

import static io.rmq.engine.EngineFixture.bytes;
import static io.rmq.engine.EngineFixture.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
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
import io.rmq.engine.topic.SlotKeys;
import io.rmq.engine.topic.TopicConflictException;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.Invariant;
import io.rmq.testing.redis.RedisExtension;
import io.rmq.testing.redis.RedisTestServer;

/** The engine end to end: producer, consumer, commit, rollback, sweeper, extension, shutdown. */
@ExtendWith(RedisExtension.class)
class TopicConsumerIT {

    private static final Duration WAIT = Duration.ofSeconds(10);

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

    private static ConsumerOptions.Builder options() {
        return ConsumerOptions.builder().retryBackoff(Duration.ZERO).pollInterval(Duration.ofMillis(200))
                .shutdownTimeout(Duration.ofMillis(300));
    }

    @Test
    void priorityMessagesAreConsumedHighestFirstAndMergeKeepsTheLastPriority() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("tasks", 1, TopicType.PRIORITY));
        TopicProducer producer = client.producer(keys);
        producer.sendWithPriority(bytes("low"), 1, null).toCompletableFuture().join();
        producer.sendWithPriority(bytes("high"), 100, null).toCompletableFuture().join();
        producer.sendWithPriority(bytes("mid"), 50, null).toCompletableFuture().join();
        SendResult merged = producer.sendWithPriority(bytes("low"), 75, null).toCompletableFuture().join();
        assertThat(merged.merged()).isTrue();

        EngineFixture.Recorder r = fx.consume(client, keys, options().build());
        r.consumer.request(10);
        List<Delivery> got = r.take(3, WAIT);
        assertThat(got).extracting(EngineFixture::text).containsExactly("high", "low", "mid");
        assertThat(got.get(1).score()).isEqualTo(75.0);
        assertThat(got.get(0).attempt()).isEqualTo(1);
        got.forEach(Delivery::commit);
        await().atMost(WAIT).until(() -> fx.redis().zcard(keys.slot(0).prepare()) == 0);
    }

    @Test
    void rangeMergeCollapsesABurstAndKeepsTheFirstDueTime() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("prices", 4, TopicType.RANGE_MERGE));
        TopicProducer producer = client.producer(keys);
        int stored = 0;
        for (int i = 0; i < 50; i++) {
            for (String sku : List.of("sku-1", "sku-2", "sku-3")) {
                if (producer.sendInRange(bytes("refresh:" + sku), Duration.ofMillis(300), sku)
                        .toCompletableFuture().join().stored()) {
                    stored++;
                }
            }
        }
        assertThat(stored).isEqualTo(3);
        EngineFixture.Recorder r = fx.consume(client, keys, options().build());
        r.consumer.request(100);
        List<Delivery> got = r.take(3, WAIT);
        assertThat(got).extracting(EngineFixture::text)
                .containsExactlyInAnyOrder("refresh:sku-1", "refresh:sku-2", "refresh:sku-3");
        got.forEach(Delivery::commit);
        // once the three are committed the topic is empty in Redis: the 147 duplicates were merged, none is left to come
        await().atMost(WAIT).until(() -> fx.inQueues(keys) == 0);
        assertThat(r.received).isEmpty();
    }

    @Test
    void fixedTimeMessagesAreNotDeliveredBeforeTheirTimeAndWakeWithoutPolling() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("orders", 2, TopicType.FIXED_TIME));
        TopicProducer producer = client.producer(keys);
        EngineFixture.Recorder r = fx.consume(client, keys, options().pollInterval(Duration.ofMinutes(10)).build());
        r.consumer.request(100);
        // the consumer listens for wake notices and has popped (the probe): it now sleeps on its 10-minute safety poll
        fx.awaitWakeSubscription(keys, WAIT);
        producer.sendAt(bytes("probe"), Instant.now(), null).toCompletableFuture().join();
        assertThat(text(r.next(WAIT))).isEqualTo("probe");
        Instant due = Instant.now().plusMillis(400);
        producer.sendAt(bytes("close-order-1"), due, "order-1").toCompletableFuture().join();
        producer.sendAt(bytes("past-order"), Instant.now().minusSeconds(60), null).toCompletableFuture().join();

        Delivery first = r.next(WAIT);
        assertThat(text(first)).isEqualTo("past-order");
        Delivery second = r.next(WAIT);
        Instant deliveredAt = Instant.now();
        assertThat(text(second)).isEqualTo("close-order-1");
        // the score is the due time in whole ms, and Redis compares it with its clock in whole ms
        assertThat(deliveredAt).isAfterOrEqualTo(due.truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
        assertThat((long) second.score()).isEqualTo(due.toEpochMilli());
    }

    @Test
    void nackRetriesThenMovesToTheDeadQueueAfterOnePlusMaxRetriesDeliveries() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("jobs", 1, TopicType.FIXED_TIME));
        client.producer(keys).sendAt(bytes("poison"), Instant.now(), null).toCompletableFuture().join();
        EngineFixture.Recorder r = fx.consume(client, keys, options().maxRetries(2).build());
        r.consumer.request(100);
        for (int attempt = 1; attempt <= 3; attempt++) {
            Delivery d = r.next(WAIT);
            assertThat(d.attempt()).isEqualTo(attempt);
            d.rollback(new RuntimeException("boom")).toCompletableFuture().join();
        }
        SlotKeys slot = keys.slot(0);
        assertThat(fx.redis().zrange(slot.dead(), 0, -1)).containsExactly("poison");
        assertThat(fx.redis().zcard(slot.store())).isZero();
        assertThat(fx.redis().zcard(slot.prepare())).isZero();
        assertThat(fx.redis().hlen(slot.attempts())).isZero();
        // nothing is left in the store or prepare queue, so no fourth delivery can come
        assertThat(r.received).isEmpty();
    }

    @Test
    void timedRetryWaitsForTheBackoff() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("mail", 1, TopicType.FIXED_TIME));
        client.producer(keys).sendAt(bytes("m"), Instant.now(), null).toCompletableFuture().join();
        EngineFixture.Recorder r = fx.consume(client, keys, options().retryBackoff(Duration.ofMillis(700)).build());
        r.consumer.request(10);
        Delivery d = r.next(WAIT);
        long before = redisTimeMillis();
        d.rollback(new RuntimeException("later")).toCompletableFuture().join();
        long after = redisTimeMillis();
        Delivery retry = r.next(WAIT);
        long retriedAt = redisTimeMillis();
        assertThat(retry.attempt()).isEqualTo(2);
        // the rollback made it due one backoff after the failure, by Redis's clock, and it was not popped earlier
        assertThat((long) retry.score()).as("due time of the retry").isBetween(before + 700, after + 700);
        assertThat(retriedAt).as("Redis's clock once the retry arrived").isGreaterThanOrEqualTo((long) retry.score());
    }

    /** The Redis clock ({@code TIME}) in ms since the epoch, as the scripts read it. */
    private long redisTimeMillis() {
        List<String> time = fx.redis().time();
        return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    }

    @Test
    void aMemberAddedByPlainZaddIsConsumed() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("price", 4, TopicType.PRIORITY));
        fx.redis().zadd("price_3", 5, "from-redis-cli");
        EngineFixture.Recorder r = fx.consume(client, keys, options().build());
        r.consumer.request(1);
        Delivery d = r.next(WAIT);
        assertThat(text(d)).isEqualTo("from-redis-cli");
        assertThat(d.slot()).isEqualTo(3);
        assertThat(d.score()).isEqualTo(5.0);
    }

    @Test
    void aSlowConsumerDoesNotMakeMessagesPileUpInThePrepareQueue() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("bulk", 4, TopicType.PRIORITY));
        TopicProducer producer = client.producer(keys);
        for (int i = 0; i < 500; i++) {
            producer.sendWithPriority(bytes("m" + i), i, null);
        }
        producer.sendWithPriority(bytes("last"), 0, null).toCompletableFuture().join();
        EngineFixture.Recorder r = fx.consume(client, keys, options().batchSize(8).build());
        r.consumer.request(3);
        r.take(3, WAIT);
        // A bounded prefetch takes time to show: a consumer that went on popping while its listener asks for
        // nothing more would move a batch into the prepare queues with every pop, a round trip of about 1 ms.
        Invariant.holdsFor(Duration.ofMillis(500), "the three delivered plus at most one batch of prefetch popped,"
                + " and no delivery beyond the demand", () -> fx.prepared(keys) <= 3 + 8 && r.received.isEmpty());
        assertThat(fx.prepared(keys)).isBetween(3L, 3L + 8);
    }

    @Test
    void aConsumerThatVanishesWithoutAckingHasItsMessagesRedelivered() throws Exception {
        TopicDefinition topic = new TopicDefinition("vanish", 1, TopicType.FIXED_TIME);
        RmqEngine doomed = new RmqEngine(fx.uri).start();
        doomed.ready().toCompletableFuture().join();
        TopicKeys keys = EngineFixture.register(doomed, topic);
        doomed.producer(keys).sendAt(bytes("job"), Instant.now(), null).toCompletableFuture().join();
        ConsumerOptions opts = options().prepareTimeout(Duration.ofMillis(500)).build();
        TopicConsumer victim = doomed.consumer(keys, opts, "victim");
        BlockingQueue<Delivery> got = new LinkedBlockingQueue<>();
        victim.start(got::add);
        victim.request(1);
        assertThat(got.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("the first delivery")
                .extracting(EngineFixture::text).isEqualTo("job");
        doomed.close(); // abrupt: no commit, no release, no more deadline extension

        EngineFixture.Recorder survivor = fx.consume(client, EngineFixture.register(client, topic), opts);
        survivor.consumer.request(1);
        Delivery again = survivor.next(WAIT);
        assertThat(text(again)).isEqualTo("job");
        assertThat(again.attempt()).isEqualTo(2);
    }

    @Test
    void aLiveButSlowConsumerKeepsItsMessageBeyondThePrepareTimeout() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("slow", 1, TopicType.FIXED_TIME));
        client.producer(keys).sendAt(bytes("long-job"), Instant.now(), null).toCompletableFuture().join();
        ConsumerOptions opts = options().prepareTimeout(Duration.ofMillis(300)).build();
        EngineFixture.Recorder slow = fx.consume(client, keys, opts);
        EngineFixture.Recorder other = fx.consume(fx.client(), keys, opts);
        slow.consumer.request(1);
        Delivery d = slow.next(WAIT);
        String prepare = keys.slot(0).prepare();
        double firstDeadline = fx.redis().zscore(prepare, "long-job");
        other.consumer.request(1);
        // Keeping the message takes time to show: were its deadline not extended, the sweeper would roll it
        // back 300 ms after the pop and the other consumer would get it. Five prepare timeouts pass.
        Invariant.holdsFor(Duration.ofMillis(1_500), "the message held by the slow consumer alone",
                () -> other.received.isEmpty() && fx.redis().zcard(prepare) == 1);
        assertThat(fx.redis().zscore(prepare, "long-job")).as("its deadline, extended").isGreaterThan(firstDeadline);
        d.commit();
        await().atMost(WAIT).until(() -> fx.redis().zcard(keys.slot(0).prepare()) == 0);
        assertThat(other.received).isEmpty();
    }

    @Test
    void aCleanShutdownLeavesThePrepareQueueEmptyAndCountsNoAttempt() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("graceful", 1, TopicType.PRIORITY));
        TopicProducer producer = client.producer(keys);
        for (int i = 0; i < 20; i++) {
            producer.sendWithPriority(bytes("m" + i), i, null).toCompletableFuture().join();
        }
        // a grace period that cannot run out while the test looks
        EngineFixture.Recorder r = fx.consume(client, keys, options().batchSize(10)
                .shutdownTimeout(Duration.ofSeconds(30)).build());
        r.consumer.request(2);
        List<Delivery> inProcess = r.take(2, WAIT);
        SlotKeys slot = keys.slot(0);
        assertThat(fx.redis().zcard(slot.prepare())).as("the two delivered and a prefetch").isGreaterThan(2);

        CompletableFuture<Void> closed = r.consumer.closeAsync().toCompletableFuture();
        // closing releases the prefetched messages at once, then waits for the two being processed
        await().atMost(WAIT).until(() -> fx.redis().zcard(slot.prepare()) == 2 && fx.redis().zcard(slot.store()) == 18);
        assertThat(closed).as("waits for the messages being processed").isNotDone();
        inProcess.forEach(Delivery::commit); // finishes during the grace period
        closed.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);

        assertThat(fx.redis().zcard(slot.prepare())).isZero();
        assertThat(fx.redis().zcard(slot.store())).isEqualTo(18);
        assertThat(fx.redis().hlen(slot.attempts())).isZero();
        assertThat(fx.redis().zscore(slot.store(), "m17")).isEqualTo(17.0);
    }

    @Test
    void aPausedConsumerPopsNothingReleasesItsPrefetchAndResumesWithTheDemandItKept() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("pausing", 1, TopicType.PRIORITY));
        TopicProducer producer = client.producer(keys);
        for (int i = 0; i < 20; i++) {
            producer.sendWithPriority(bytes("m" + i), i, null).toCompletableFuture().join();
        }
        EngineFixture.Recorder r = fx.consume(client, keys, options().batchSize(10).build());
        r.consumer.request(1);
        Delivery inProcess = r.next(WAIT);
        SlotKeys slot = keys.slot(0);
        assertThat(fx.redis().zcard(slot.prepare())).as("the one delivered and a prefetch").isGreaterThan(1);

        r.consumer.pause();
        assertThat(r.consumer.isPaused()).isTrue();
        await().atMost(WAIT).until(() -> fx.redis().zcard(slot.prepare()) == 1);
        r.consumer.request(5);
        Invariant.holdsFor(Duration.ofMillis(300), "nothing popped or delivered while paused",
                () -> r.received.isEmpty() && fx.redis().zcard(slot.prepare()) == 1);
        inProcess.commit();
        await().atMost(WAIT).until(() -> fx.redis().zcard(slot.prepare()) == 0);
        assertThat(fx.redis().zscore(slot.store(), "m18")).as("released with its score").isEqualTo(18.0);
        assertThat(fx.redis().hlen(slot.attempts())).as("no attempt counted").isZero();

        r.consumer.resume();
        assertThat(r.consumer.isPaused()).isFalse();
        assertThat(r.take(5, WAIT)).extracting(EngineFixture::text).containsExactly("m18", "m17", "m16", "m15", "m14");
    }

    @Test
    void aConflictingTopicDefinitionIsRefusedNamingBoth() {
        EngineFixture.register(client, new TopicDefinition("shared", 16, TopicType.PRIORITY));
        assertThatThrownBy(() -> EngineFixture.register(fx.client(), new TopicDefinition("shared", 8, TopicType.FIXED_TIME)))
                .isInstanceOf(CompletionException.class)
                .cause().isInstanceOf(TopicConflictException.class)
                .hasMessageContaining("type PRIORITY with slot-amount 16")
                .hasMessageContaining("type FIXED_TIME with slot-amount 8");
    }
}
