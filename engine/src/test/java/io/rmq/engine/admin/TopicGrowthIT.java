package io.rmq.engine.admin;

import static io.rmq.engine.EngineFixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.rmq.engine.EngineFixture;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.scripts.SendResult;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.topic.SlotRouter;
import io.rmq.engine.topic.TopicConflictException;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.RedisExtension;
import io.rmq.testing.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Growing a topic online ({@link RmqAdmin#growTopic}): under continuous sends and consumption nothing is lost
 * or delivered twice and the new slots are consumed; a duplicate sent during the growth merges with its pending
 * copy in the old slot, and a key's new message waits until its old slot let go of the key's earlier one; an
 * application configured with the old amount keeps working, one configured with more slots than recorded is
 * refused.
 */
@ExtendWith(RedisExtension.class)
class TopicGrowthIT {

    /** Generous upper bound, never an expected duration. */
    static final Duration WAIT = Duration.ofSeconds(60);

    EngineFixture fx;
    RmqEngine client;
    RmqAdmin admin;
    private final List<TopicConsumer> consumers = new ArrayList<>();

    @BeforeEach
    void setUp(RedisTestServer redis) {
        fx = fixture(redis);
        client = fx.client();
        admin = RmqAdmin.connect(fx.uri);
    }

    /** The Redis the tests run against: the shared server; a subclass runs them on a cluster. */
    EngineFixture fixture(RedisTestServer redis) {
        return new EngineFixture(redis.uri());
    }

    @AfterEach
    void tearDown() throws Exception {
        consumers.forEach(TopicConsumer::close);
        admin.close();
        fx.close();
    }

    private static ConsumerOptions.Builder options() {
        return ConsumerOptions.builder().retryBackoff(Duration.ZERO).pollInterval(Duration.ofMillis(200))
                .shutdownTimeout(Duration.ofMillis(500));
    }

    @Test
    void aTopicGrowsFourfoldUnderContinuousSendsAndConsumptionWithoutLosingOrRepeatingAMessage() throws Exception {
        TopicDefinition topic = new TopicDefinition("growing", 4, TopicType.FIXED_TIME);
        TopicKeys keys = EngineFixture.register(client, topic);
        TopicProducer producer = client.producer(keys);
        List<String> received = new CopyOnWriteArrayList<>();
        Set<Integer> slotsConsumed = ConcurrentHashMap.newKeySet();
        TopicConsumer consumer = consumeAndCommit(keys, "grower", d -> {
            received.add(EngineFixture.text(d));
            slotsConsumed.add(d.slot());
        });

        List<String> sent = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> stop = new CompletableFuture<>();
        CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> {
            for (int i = 0; !stop.isDone() || i < 600; i++) {
                String content = "m" + i;
                producer.sendAt(bytes(content), Instant.now(), "key-" + (i % 40)).toCompletableFuture().join();
                sent.add(content);
                if (i % 20 == 0) {
                    pause(5);
                }
            }
        });
        await().atMost(WAIT).until(() -> received.size() >= 200);

        TopicDefinition grown = admin.growTopic(topic, 16);
        stop.complete(null);
        sending.get();

        assertThat(grown.slotAmount()).isEqualTo(16);
        await().atMost(WAIT).until(() -> received.size() >= sent.size());
        assertThat(received).hasSameSizeAs(sent).containsExactlyInAnyOrderElementsOf(sent);
        assertThat(admin.topic("growing", "").slotAmount()).isEqualTo(16);
        await().atMost(WAIT).until(() -> consumer.assignedSlots().length == 16);
        assertThat(slotsConsumed).as("slots consumed").anyMatch(s -> s >= 4);
        for (int s = 0; s < 16; s++) {
            assertThat(fx.redis().exists(keys.slot(s).paused(), keys.presplit(s % 8, 16), keys.presplit(s % 4, 8)))
                    .as("holds and pre-split sets of slot %d left", s).isZero();
        }
    }

    @Test
    void consumersHearTheGrowthNotice() {
        TopicDefinition topic = new TopicDefinition("noticed", 2, TopicType.FIXED_TIME);
        TopicKeys keys = EngineFixture.register(client, topic);
        TopicConsumer consumer = consumeAndCommit(keys, "listener", d -> { });
        fx.awaitWakeSubscription(keys, WAIT);

        admin.growTopic(topic, 4);

        // well before the registry check of every 30 s
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.assignedSlots().length == 4);
    }

    @Test
    void aDuplicateSentDuringTheGrowthMergesWithItsPendingCopyAndTheKeysNextMessageWaitsForIt() throws Exception {
        TopicDefinition topic = new TopicDefinition("merging", 2, TopicType.PRIORITY);
        TopicKeys keys = EngineFixture.register(client, topic);
        TopicProducer producer = client.producer(keys);
        String basis = basisMovingTo(2, 4);
        int old = SlotRouter.slotOf(bytes(basis), 2);
        producer.sendWithPriority(bytes("dup"), 1, basis).toCompletableFuture().join();

        CompletableFuture<TopicDefinition> growth = CompletableFuture.supplyAsync(() -> admin.growTopic(topic, 4));
        await().atMost(WAIT).until(() -> fx.redis().exists(keys.splitMarker(old, 4)) == 1);

        SendResult merged = producer.sendWithPriority(bytes("dup"), 5, basis).toCompletableFuture().join();
        SendResult fresh = producer.sendWithPriority(bytes("fresh"), 9, basis).toCompletableFuture().join();

        assertThat(merged.merged()).isTrue();
        assertThat(merged.slot()).isEqualTo(old);
        assertThat(fx.redis().zscore(keys.slot(old).store(), "dup")).isEqualTo(5.0);
        assertThat(fresh.slot()).isEqualTo(old + 2);
        assertThat(fx.redis().get(keys.slot(old + 2).paused())).isEqualTo("growth:4");
        assertThat(growth).isNotDone();
        io.rmq.engine.admin.TopicStats during = admin.stats(topic);
        assertThat(during.topic().slotAmount()).as("stats during the growth").isEqualTo(4);
        assertThat(during.slots().get(old + 2).paused()).as("the held new slot").isTrue();
        assertThat(during.slots().get(old + 2).pending()).isEqualTo(1);

        List<String> received = new CopyOnWriteArrayList<>();
        TopicConsumer consumer = consumeAndCommit(keys, "merger",
                d -> received.add(EngineFixture.text(d) + "@" + d.slot() + "/" + (long) d.score()));

        assertThat(growth.get(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS).slotAmount()).isEqualTo(4);
        await().atMost(WAIT).until(() -> received.size() == 2);
        // 'fresh' outranks 'dup', yet waits: its new slot starts only once the old slot let go of 'dup'
        assertThat(received).containsExactly("dup@" + old + "/5", "fresh@" + (old + 2) + "/9");
    }

    @Test
    void aRangeMergeDuplicateSentDuringTheGrowthKeepsTheFirstDueTime() throws Exception {
        TopicDefinition topic = new TopicDefinition("ranges", 2, TopicType.RANGE_MERGE);
        TopicKeys keys = EngineFixture.register(client, topic);
        TopicProducer producer = client.producer(keys);
        String basis = basisMovingTo(2, 4);
        int old = SlotRouter.slotOf(bytes(basis), 2);
        SendResult first = producer.sendInRange(bytes("tick"), Duration.ofSeconds(2), basis).toCompletableFuture().join();

        CompletableFuture<TopicDefinition> growth = CompletableFuture.supplyAsync(() -> admin.growTopic(topic, 4));
        await().atMost(WAIT).until(() -> fx.redis().exists(keys.splitMarker(old, 4)) == 1);
        SendResult again = producer.sendInRange(bytes("tick"), Duration.ofSeconds(30), basis).toCompletableFuture().join();

        assertThat(again.merged()).isTrue();
        assertThat(again.slot()).isEqualTo(old);
        assertThat(again.score()).isEqualTo(first.score());

        List<Delivery> received = new CopyOnWriteArrayList<>();
        TopicConsumer consumer = consumeAndCommit(keys, "ranger", received::add);
        assertThat(growth.get(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS).slotAmount()).isEqualTo(4);
        await().atMost(WAIT).until(() -> received.size() == 1);
        assertThat(received.get(0).score()).isEqualTo(first.score());
    }

    @Test
    void anInterruptedGrowthIsResumedByGrowingAgain() throws Exception {
        TopicDefinition topic = new TopicDefinition("resumed", 2, TopicType.FIXED_TIME);
        TopicKeys keys = EngineFixture.register(client, topic);
        String basis = basisMovingTo(2, 4);
        int old = SlotRouter.slotOf(bytes(basis), 2);
        // due in an hour: the old slot holds it, so the growth waits for it
        client.producer(keys).sendAt(bytes("later"), Instant.now().plusSeconds(3600), basis).toCompletableFuture().join();
        java.util.concurrent.ExecutorService runner = java.util.concurrent.Executors.newSingleThreadExecutor();
        java.util.concurrent.Future<TopicDefinition> first = runner.submit(() -> admin.growTopic(topic, 4));
        await().atMost(WAIT).until(() -> fx.redis().exists(keys.presplit(old, 4)) == 1);

        first.cancel(true); // interrupts the growth while it waits for the old slot
        runner.shutdown();
        assertThat(runner.awaitTermination(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(fx.redis().hget(TopicKeys.registryKey(""), "resumed")).isEqualTo("FIXED_TIME:2");
        assertThat(fx.redis().hget(TopicKeys.growthKey(""), "resumed")).isEqualTo("4");
        assertThat(fx.redis().get(keys.slot(old + 2).paused())).isEqualTo("growth:4");

        assertThat(admin.removePending(topic, bytes("later"), basis)).isTrue();
        // as if the interrupted run had also seen the old slot drained, but stopped before releasing its new half
        fx.redis().del(keys.presplit(old, 4));
        TopicDefinition grown = admin.growTopic(topic, 4);

        assertThat(grown.slotAmount()).isEqualTo(4);
        assertThat(fx.redis().hget(TopicKeys.registryKey(""), "resumed")).isEqualTo("FIXED_TIME:4");
        assertThat(fx.redis().exists(keys.slot(old + 2).paused(), keys.presplit(old, 4))).isZero();
    }

    @Test
    void theOldAmountKeepsWorkingAfterTheGrowthAndMoreSlotsThanRecordedAreRefused() {
        TopicDefinition topic = new TopicDefinition("configured", 4, TopicType.FIXED_TIME);
        TopicProducer stale = client.producer(EngineFixture.register(client, topic));

        admin.growTopic(topic, 8);

        TopicKeys later = EngineFixture.register(fx.client(), topic);
        assertThat(later.topic().slotAmount()).isEqualTo(8);
        String basis = basisMovingTo(4, 8);
        SendResult viaStale = stale.sendAt(bytes("a"), Instant.now(), basis).toCompletableFuture().join();
        SendResult viaLater = fx.client().producer(later).sendAt(bytes("b"), Instant.now(), basis)
                .toCompletableFuture().join();
        assertThat(viaStale.slot()).isEqualTo(viaLater.slot()).isEqualTo(SlotRouter.slotOf(bytes(basis), 8));

        assertThatThrownBy(() -> EngineFixture.register(fx.client(), new TopicDefinition("configured", 16,
                TopicType.FIXED_TIME)))
                .isInstanceOf(CompletionException.class).cause().isInstanceOf(TopicConflictException.class)
                .hasMessageContaining("RMQ-0410").hasMessageContaining("has 8 slots in Redis")
                .hasMessageContaining("slot-amount 16");
        assertThatThrownBy(() -> EngineFixture.register(fx.client(), new TopicDefinition("configured", 2,
                TopicType.FIXED_TIME)))
                .as("fewer slots than the topic ever had").cause().isInstanceOf(TopicConflictException.class)
                .hasMessageContaining("RMQ-0304");
        assertThatThrownBy(() -> admin.growTopic(topic, 8)).hasMessageContaining("RMQ-0411");
        assertThatThrownBy(() -> admin.growTopic(topic, 12)).hasMessageContaining("RMQ-0411");
    }

    /** A started consumer, without coordination, that asks for every message and commits each once recorded. */
    private TopicConsumer consumeAndCommit(TopicKeys keys, String name, java.util.function.Consumer<Delivery> record) {
        TopicConsumer consumer = client.consumer(keys, options().build(), name);
        consumers.add(consumer);
        consumer.start(d -> {
            record.accept(d);
            d.commit();
        });
        consumer.request(Long.MAX_VALUE);
        return consumer;
    }

    /** A slot basis whose slot under {@code to} slots is the new half of its slot under {@code from}. */
    static String basisMovingTo(int from, int to) {
        for (int i = 0;; i++) {
            String basis = "basis-" + i;
            if (SlotRouter.slotOf(bytes(basis), to) >= from) {
                return basis;
            }
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
