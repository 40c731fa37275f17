package io.rmq.engine.pending;

import static io.rmq.engine.EngineFixture.bytes;
import static io.rmq.engine.EngineFixture.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.engine.EngineFixture;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.topic.SlotRouter;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisExtension;
import io.rmq.testing.redis.RedisTestServer;

/**
 * Cancel, find, reschedule and reprioritize ({@link PendingMessages}) against a real Redis: per topic type, with a
 * copy in flight, with an expiry recorded, across a topic's growth, the counters, the wake of a sleeping consumer,
 * and many races of a cancel against the pop of a running consumer.
 */
@ExtendWith(RedisExtension.class)
class PendingMessagesIT {

    static final Duration WAIT = Duration.ofSeconds(20);

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

    private static <T> T join(java.util.concurrent.CompletionStage<T> stage) {
        return stage.toCompletableFuture().join();
    }

    private long counter(TopicKeys keys, String field) {
        long n = 0;
        for (int slot = 0; slot < keys.topic().slotAmount(); slot++) {
            String value = fx.redis().hget(keys.slot(slot).counters(), field);
            n += value == null ? 0 : Long.parseLong(value);
        }
        return n;
    }

    @Test
    void aFixedTimeMessageIsFoundRescheduledAndCancelledAndTheCountersSaySo() {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("orders", 4, TopicType.FIXED_TIME));
        PendingMessages pending = client.pendingMessages(keys);
        Instant due = Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.MILLIS);
        join(client.producer(keys).sendAt(bytes("close:1"), due, "order-1"));

        MessageState state = join(pending.find(bytes("close:1"), "order-1"));
        assertThat(state.pending()).isTrue();
        assertThat(state.inFlight()).isFalse();
        assertThat(state.dueAt()).isEqualTo(due);
        assertThat(state.priority()).isNull();
        assertThat(state.attempts()).isZero();
        assertThat(state.dead()).isFalse();
        assertThat(state.expiresAt()).isNull();
        assertThat(join(pending.find(bytes("close:1"), "another basis")).found()).as("another slot").isFalse();

        Instant later = due.plus(1, ChronoUnit.HOURS);
        assertThat(join(pending.reschedule(bytes("close:1"), "order-1", later))).isEqualTo(new Rescheduling(true, false));
        assertThat(join(pending.find(bytes("close:1"), "order-1")).dueAt()).isEqualTo(later);
        assertThat(join(pending.reschedule(bytes("unknown"), "order-1", later))).isEqualTo(new Rescheduling(false, false));

        Cancellation cancelled = join(pending.cancel(bytes("close:1"), "order-1"));
        assertThat(cancelled.outcome()).isEqualTo(CancelOutcome.CANCELLED);
        assertThat(cancelled.inFlight()).isFalse();
        assertThat(join(pending.find(bytes("close:1"), "order-1")).found()).isFalse();
        assertThat(join(pending.cancel(bytes("close:1"), "order-1")).outcome()).isEqualTo(CancelOutcome.NOT_FOUND);
        assertThat(fx.inQueues(keys)).isZero();

        assertThat(counter(keys, "cancelled")).isEqualTo(1);
        assertThat(counter(keys, "rescheduled")).isEqualTo(1);
    }

    @Test
    void aPriorityMessageIsReprioritizedWhateverTheMergeRuleAndRefusesAReschedule() {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("tasks", 2, TopicType.PRIORITY));
        PendingMessages pending = client.pendingMessages(keys);
        join(client.producer(keys).sendWithPriority(bytes("task"), 5, null));

        assertThat(join(pending.reprioritize(bytes("task"), null, 42.5)).rescheduled()).isTrue();
        MessageState state = join(pending.find(bytes("task"), null));
        assertThat(state.priority()).isEqualTo(42.5);
        assertThat(state.dueAt()).isNull();

        assertThatThrownBy(() -> pending.reschedule(bytes("task"), null, Instant.now()))
                .hasMessageStartingWith("RMQ-0502 Topic 'tasks' is of type PRIORITY: reschedule does not apply");
        assertThat(join(pending.reprioritize(bytes("task"), null, Double.NaN).<Throwable>handle((r, e) -> e)))
                .hasMessageContaining("RMQ-0504");
    }

    @Test
    void aRescheduledRangeMergeMessageKeepsItsNewDueTimeWhenADuplicateMergesIntoIt() {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("prices", 1, TopicType.RANGE_MERGE));
        PendingMessages pending = client.pendingMessages(keys);
        TopicProducer producer = client.producer(keys);
        join(producer.sendInRange(bytes("sku-1"), Duration.ofMinutes(5), null));
        Instant later = Instant.now().plus(2, ChronoUnit.HOURS).truncatedTo(ChronoUnit.MILLIS);
        assertThat(join(pending.reschedule(bytes("sku-1"), null, later)).rescheduled()).isTrue();

        assertThat(join(producer.sendInRange(bytes("sku-1"), Duration.ofMinutes(1), null)).merged()).isTrue();
        assertThat(join(pending.find(bytes("sku-1"), null)).dueAt()).as("the first due time stands").isEqualTo(later);
        assertThatThrownBy(() -> pending.reprioritize(bytes("sku-1"), null, 1)).hasMessageStartingWith("RMQ-0502");
        assertThat(join(pending.reschedule(bytes("sku-1"), null, null).<Throwable>handle((r, e) -> e))).hasMessageContaining("RMQ-0503");
    }

    @Test
    void aCopyInFlightIsNotCancelledAndIsToldBesideACancelledPendingCopy() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("states", 1, TopicType.FIXED_TIME));
        PendingMessages pending = client.pendingMessages(keys);
        TopicProducer producer = client.producer(keys);
        join(producer.sendAt(bytes("state"), Instant.now(), null));
        EngineFixture.Recorder r = fx.consume(client, keys, ConsumerOptions.builder().build());
        r.consumer.request(1);
        Delivery first = r.next(WAIT);

        Cancellation inFlight = join(pending.cancel(bytes("state"), null));
        assertThat(inFlight.outcome()).isEqualTo(CancelOutcome.IN_FLIGHT);
        assertThat(inFlight.cancelled()).isFalse();
        assertThat(join(pending.find(bytes("state"), null)).inFlight()).isTrue();

        // sent again while the first copy is consumed: queued again, then cancelled while the first is in flight
        assertThat(join(producer.sendAt(bytes("state"), Instant.now(), null)).stored()).isTrue();
        MessageState both = join(pending.find(bytes("state"), null));
        assertThat(both.pending()).isTrue();
        assertThat(both.inFlight()).isTrue();
        assertThat(join(pending.reschedule(bytes("state"), null, Instant.now().plusSeconds(60))))
                .isEqualTo(new Rescheduling(true, true));
        Cancellation cancelled = join(pending.cancel(bytes("state"), null));
        assertThat(cancelled).isEqualTo(new Cancellation(true, true));
        assertThat(cancelled.outcome()).isEqualTo(CancelOutcome.CANCELLED);

        first.commit();
        r.consumer.request(10);
        await().atMost(WAIT).until(() -> fx.inQueues(keys) == 0);
        assertThat(r.received.poll(300, TimeUnit.MILLISECONDS)).as("the cancelled copy is never delivered").isNull();
    }

    @Test
    void anExpiryIsFoundAndForgottenWithTheCancelledMessage() {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("expiring", 2, TopicType.FIXED_TIME));
        PendingMessages pending = client.pendingMessages(keys);
        join(client.producer(keys).sendAt(bytes("offer"), Instant.now().plusSeconds(3600), "o"));
        String expiry = keys.slot(SlotRouter.slotOf("o", bytes("offer"), 2)).expiry();
        Instant expiresAt = Instant.now().plusSeconds(60).truncatedTo(ChronoUnit.MILLIS);
        fx.redis().zadd(expiry, expiresAt.toEpochMilli(), "offer");

        assertThat(join(pending.find(bytes("offer"), "o")).expiresAt()).isEqualTo(expiresAt);
        assertThat(join(pending.cancel(bytes("offer"), "o")).cancelled()).isTrue();
        assertThat(fx.redis().zscore(expiry, "offer")).isNull();
    }

    @Test
    void aRetriedMessageTellsItsAttemptsAndADeadOneItsDeath() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("failing", 1, TopicType.PRIORITY));
        PendingMessages pending = client.pendingMessages(keys);
        join(client.producer(keys).sendWithPriority(bytes("bad"), 1, null));
        EngineFixture.Recorder r = fx.consume(client, keys, ConsumerOptions.builder().maxRetries(1)
                .retryBackoff(Duration.ZERO).build());
        r.consumer.request(1);
        r.next(WAIT).rollback(new IllegalStateException("first"));
        await().atMost(WAIT).until(() -> join(pending.find(bytes("bad"), null)).attempts() == 1);
        r.consumer.request(1);
        r.next(WAIT).rollback(new IllegalStateException("second"));
        await().atMost(WAIT).until(() -> join(pending.find(bytes("bad"), null)).dead());

        MessageState dead = join(pending.find(bytes("bad"), null));
        assertThat(dead.pending()).isFalse();
        assertThat(dead.deadAt()).isBefore(Instant.now().plusSeconds(1));
        assertThat(join(pending.cancel(bytes("bad"), null)).outcome()).isEqualTo(CancelOutcome.NOT_FOUND);
    }

    @Test
    void aSleepingConsumerGetsARescheduledMessageWhenItBecomesDueWithoutWaitingForTheSafetyPoll() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("wake", 1, TopicType.FIXED_TIME));
        PendingMessages pending = client.pendingMessages(keys);
        join(client.producer(keys).sendAt(bytes("late"), Instant.now().plusSeconds(3600), null));
        EngineFixture.Recorder r = fx.consume(client, keys, ConsumerOptions.builder().pollInterval(Duration.ofMinutes(10))
                .build());
        r.consumer.request(10);
        fx.awaitWakeSubscription(keys, WAIT);
        assertThat(r.received.poll(200, TimeUnit.MILLISECONDS)).isNull();

        Instant soon = Instant.now().plusMillis(300);
        assertThat(join(pending.reschedule(bytes("late"), null, soon)).rescheduled()).isTrue();
        Delivery d = r.next(WAIT); // well within the 10-minute safety poll
        assertThat(text(d)).isEqualTo("late");
        assertThat(Instant.now()).isAfterOrEqualTo(soon.minusMillis(50));
        d.commit();
    }

    @Test
    void aCancelFollowsTheTopicsGrowthToTheSlotThatHoldsTheMessage() throws Exception {
        TopicDefinition topic = new TopicDefinition("growing", 2, TopicType.FIXED_TIME);
        TopicKeys keys = EngineFixture.register(client, topic);
        PendingMessages pending = client.pendingMessages(keys); // knows only the 2 slots of the definition
        TopicProducer producer = client.producer(keys);
        String before = basisMovingTo(2, 4, 0);
        String after = basisMovingTo(2, 4, 1);
        join(producer.sendAt(bytes("before"), Instant.now().plusSeconds(3600), before));

        try (RmqAdmin admin = RmqAdmin.connect(fx.uri)) {
            ExecutorService runner = Executors.newSingleThreadExecutor();
            Future<TopicDefinition> growth = runner.submit(() -> admin.growTopic(topic, 4));
            int oldSlot = SlotRouter.slotOf(bytes(before), 2);
            await().atMost(WAIT).until(() -> fx.redis().exists(keys.presplit(oldSlot, 4)) == 1);

            // sent during the growth: refused by the split slot, it lands in the new half (held)
            join(producer.sendAt(bytes("after"), Instant.now().plusSeconds(3600), after));
            assertThat(fx.redis().zscore(keys.slot(SlotRouter.slotOf(bytes(after), 4)).store(), "after")).isNotNull();
            assertThat(join(pending.find(bytes("after"), after)).pending()).isTrue();
            assertThat(join(pending.find(bytes("before"), before)).pending()).isTrue();

            assertThat(join(pending.cancel(bytes("before"), before)).outcome()).isEqualTo(CancelOutcome.CANCELLED);
            assertThat(growth.get(WAIT.toSeconds(), TimeUnit.SECONDS).slotAmount()).as("the old slot drained").isEqualTo(4);
            runner.shutdown();
            assertThat(join(pending.reschedule(bytes("after"), after, Instant.now().plusSeconds(60))).rescheduled()).isTrue();
            assertThat(join(pending.cancel(bytes("after"), after)).outcome()).isEqualTo(CancelOutcome.CANCELLED);
            assertThat(fx.inQueues(new TopicKeys(new TopicDefinition("growing", 4, TopicType.FIXED_TIME)))).isZero();
        }
    }

    /** The {@code n}-th slot basis whose slot under {@code to} slots is a new one (at least {@code from}). */
    private static String basisMovingTo(int from, int to, int n) {
        int found = 0;
        for (int i = 0;; i++) {
            String basis = "basis-" + i;
            if (SlotRouter.slotOf(bytes(basis), to) >= from && found++ == n) {
                return basis;
            }
        }
    }

    @Test
    void aCancelRacingAPopIsEitherCancelledOrDeliveredNeverBoth() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("race", 4, TopicType.FIXED_TIME));
        PendingMessages pending = client.pendingMessages(keys);
        TopicProducer producer = client.producer(keys);
        Map<String, AtomicInteger> delivered = new ConcurrentHashMap<>();
        TopicConsumer consumer = client.consumer(keys, ConsumerOptions.builder().build(), "racer");
        try {
            consumer.start(d -> {
                delivered.computeIfAbsent(text(d), k -> new AtomicInteger()).incrementAndGet();
                d.commit();
            });
            consumer.request(Integer.MAX_VALUE);

            int races = 10_000;
            Map<String, CancelOutcome> outcomes = new ConcurrentHashMap<>();
            int inParallel = 64;
            for (int from = 0; from < races; from += inParallel) {
                List<CompletableFuture<?>> batch = new ArrayList<>(inParallel);
                for (int i = from; i < Math.min(races, from + inParallel); i++) {
                    String name = "race-" + i;
                    batch.add(producer.sendAt(bytes(name), Instant.EPOCH, null)
                            .thenCompose(sent -> pending.cancel(bytes(name), null))
                            .thenAccept(c -> outcomes.put(name, c.outcome())).toCompletableFuture());
                }
                CompletableFuture.allOf(batch.toArray(CompletableFuture[]::new)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
            long cancelled = outcomes.values().stream().filter(o -> o == CancelOutcome.CANCELLED).count();
            await().atMost(WAIT).until(() -> delivered.size() == races - cancelled && fx.inQueues(keys) == 0);

            Map<CancelOutcome, Integer> tally = new java.util.EnumMap<>(CancelOutcome.class);
            for (int i = 0; i < races; i++) {
                String name = "race-" + i;
                CancelOutcome outcome = outcomes.get(name);
                tally.merge(outcome, 1, Integer::sum);
                AtomicInteger times = delivered.get(name);
                if (outcome == CancelOutcome.CANCELLED) {
                    assertThat(times).as("%s was cancelled: never delivered", name).isNull();
                } else {
                    assertThat(times).as("%s was %s: delivered", name, outcome).isNotNull();
                    assertThat(times.get()).as("%s delivered exactly once", name).isEqualTo(1);
                }
            }
            System.out.println("cancel against pop, " + races + " races: " + tally);
            assertThat(tally.getOrDefault(CancelOutcome.CANCELLED, 0)).as("%s", tally).isPositive();
            assertThat(races - tally.getOrDefault(CancelOutcome.CANCELLED, 0)).as("%s", tally).isPositive();
            assertThat(counter(keys, "cancelled")).isEqualTo(cancelled);
        } finally {
            consumer.close();
        }
    }
}
