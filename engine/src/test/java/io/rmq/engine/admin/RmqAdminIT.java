package io.rmq.engine.admin;

import static io.rmq.engine.EngineFixture.bytes;
import static io.rmq.engine.EngineFixture.register;
import static io.rmq.engine.EngineFixture.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rmq.engine.EngineFixture;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.admin.AdminProgress;
import io.rmq.engine.admin.DeadCursor;
import io.rmq.engine.admin.DeadMessage;
import io.rmq.engine.admin.DeadPage;
import io.rmq.engine.admin.DeadSelection;
import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.admin.SlotCounters;
import io.rmq.engine.admin.SlotStats;
import io.rmq.engine.admin.TopicStats;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.settlement.EngineEvents;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.Invariant;
import io.rmq.testing.LogRecorder;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;

/** The admin API against a real Redis, with producers and consumers running. */
@RedisTest
class RmqAdminIT {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final ConsumerOptions FAST = ConsumerOptions.builder().prepareTimeout(Duration.ofSeconds(2))
            .pollInterval(Duration.ofMillis(200)).retryBackoff(Duration.ZERO).build();

    EngineFixture fx;
    private RmqAdmin admin;
    private String uri;

    @BeforeEach
    void setUp(RedisTestServer redis) {
        uri = uri(redis);
        fx = fixture(uri);
        admin = RmqAdmin.connect(uri);
    }

    /** The Redis the tests run against: the shared server; a subclass runs them on a cluster. */
    String uri(RedisTestServer redis) {
        return redis.uri();
    }

    EngineFixture fixture(String redisUri) {
        return new EngineFixture(redisUri);
    }

    @AfterEach
    void tearDown() throws Exception {
        admin.close();
        fx.close();
    }

    @Test
    void listsTheRecordedTopicsAndNamesThemWhenAskedForAnUnknownOne() {
        RmqEngine engine = fx.client();
        register(engine, new TopicDefinition("orders", 8, TopicType.FIXED_TIME));
        register(engine, new TopicDefinition("prices", 4, TopicType.RANGE_MERGE));
        register(engine, new TopicDefinition("orders", 2, TopicType.PRIORITY, "other:"));

        assertThat(admin.topics("")).containsExactly(new TopicDefinition("orders", 8, TopicType.FIXED_TIME),
                new TopicDefinition("prices", 4, TopicType.RANGE_MERGE));
        assertThat(admin.topic("orders", "other:")).isEqualTo(new TopicDefinition("orders", 2, TopicType.PRIORITY, "other:"));
        assertThatThrownBy(() -> admin.topic("invoices", "")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("RMQ-0312 Topic 'invoices' is not recorded").hasMessageEndingWith("orders, prices");
    }

    @Test
    void statsCountPendingDueInFlightAndDeadPerSlot() {
        RmqEngine engine = fx.client();
        TopicKeys keys = register(engine, new TopicDefinition("stats", 2, TopicType.FIXED_TIME));
        long now = redisNow();
        fx.redis().zadd(keys.slot(0).store(), now - 5_000, "late");
        fx.redis().zadd(keys.slot(0).store(), now + 600_000, "later");
        fx.redis().zadd(keys.slot(1).prepare(), now + 30_000, "busy");
        fx.redis().zadd(keys.slot(1).dead(), now - 1, "gone");
        fx.redis().hset(keys.slot(1).owner(), Map.of("worker", "w@host:1#ab", "epoch", "4", "since", "1700000000000"));

        TopicStats stats = admin.stats(keys.topic());

        SlotStats slot0 = stats.slots().get(0);
        assertThat(slot0.pending()).isEqualTo(2);
        assertThat(slot0.due()).isEqualTo(1);
        assertThat(slot0.oldestDueAgeMillis()).isBetween(5_000L, 60_000L);
        assertThat(slot0.owner()).isEmpty();
        SlotStats slot1 = stats.slots().get(1);
        assertThat(slot1.inFlight()).isEqualTo(1);
        assertThat(slot1.dead()).isEqualTo(1);
        assertThat(slot1.owner()).hasValueSatisfying(o -> {
            assertThat(o.worker()).isEqualTo("w@host:1#ab");
            assertThat(o.epoch()).isEqualTo(4);
            assertThat(o.since()).isEqualTo(Instant.ofEpochMilli(1_700_000_000_000L));
        });
        assertThat(List.of(stats.pending(), stats.due(), stats.inFlight(), stats.dead())).containsExactly(2L, 1L, 1L, 1L);
        assertThat(stats.paused()).isFalse();
    }

    @Test
    void aMessageThatFailedItsLastDeliveryShowsInTheDeadQueueWithItsFailure() throws Exception {
        RmqEngine engine = fx.client();
        TopicKeys keys = register(engine, new TopicDefinition("failing", 4, TopicType.FIXED_TIME));
        EngineFixture.Recorder consumer = fx.consume(engine, keys, FAST.toBuilder().maxRetries(1).build());
        consumer.consumer.request(Long.MAX_VALUE);
        engine.producer(keys).sendAt(bytes("order-7"), Instant.EPOCH, "7").toCompletableFuture().join();

        for (int delivery = 1; delivery <= 2; delivery++) {
            Delivery d = consumer.next(WAIT);
            assertThat(d.attempt()).isEqualTo(delivery);
            d.rollback(new IllegalStateException("stock service down (" + delivery + ")")).toCompletableFuture().join();
        }

        DeadPage page = admin.dead(keys.topic(), DeadCursor.START, 10);
        assertThat(page.messages()).singleElement().satisfies(m -> {
            assertThat(m.contentText()).isEqualTo("order-7");
            assertThat(m.deliveries()).isEqualTo(2);
            assertThat(m.lastFailure()).isEqualTo("java.lang.IllegalStateException: stock service down (2)");
            assertThat(m.diedAt()).isBetween(Instant.now().minusSeconds(60), Instant.now().plusSeconds(60));
        });
        assertThat(page.next()).isEmpty();
    }

    @Test
    void pagesThroughTheDeadQueuesSlotAfterSlot() {
        TopicKeys keys = register(fx.client(), new TopicDefinition("paged", 4, TopicType.PRIORITY));
        for (int i = 0; i < 7; i++) {
            fx.redis().zadd(keys.slot(i % 4).dead(), 1_000 + i, "m" + i);
        }

        List<String> seen = new ArrayList<>();
        DeadCursor cursor = DeadCursor.START;
        int pages = 0;
        while (cursor != null) {
            DeadPage page = admin.dead(keys.topic(), cursor, 3);
            page.messages().forEach(m -> seen.add(m.slot() + ":" + m.contentText()));
            cursor = page.next().orElse(null);
            pages++;
        }

        assertThat(seen).containsExactly("0:m0", "0:m4", "1:m1", "1:m5", "2:m2", "2:m6", "3:m3");
        assertThat(pages).isEqualTo(3);
        assertThat(admin.dead(keys.topic(), DeadCursor.parse("1:1"), 1).messages()).extracting(DeadMessage::contentText)
                .containsExactly("m5");
    }

    @Test
    void aRequeueWhileConsumersRunLosesNothingAndDeliversNothingTwice() {
        RmqEngine engine = fx.client();
        TopicKeys keys = register(engine, new TopicDefinition("redrive", 8, TopicType.FIXED_TIME));
        for (int i = 0; i < 300; i++) {
            fx.redis().zadd(keys.slot(i % 8).dead(), 1_000 + i, "dead-" + i);
        }
        Map<String, Integer> deliveries = new ConcurrentHashMap<>();
        TopicConsumer consumer = engine.consumer(keys, FAST, "redrive-consumer");
        consumer.start(d -> {
            deliveries.merge(text(d), 1, Integer::sum);
            d.commit();
        });
        consumer.request(Long.MAX_VALUE);
        TopicProducer producer = engine.producer(keys);

        assertThat(admin.countDead(keys.topic(), DeadSelection.all())).as("a dry run").isEqualTo(300);
        Thread sender = new Thread(() -> {
            for (int i = 0; i < 300; i++) {
                producer.sendAt(bytes("fresh-" + i), Instant.EPOCH, null).toCompletableFuture().join();
            }
        });
        sender.start();
        long requeued = admin.requeueDead(keys.topic(), DeadSelection.all(), 2_000);

        assertThat(requeued).isEqualTo(300);
        await().atMost(WAIT).until(() -> deliveries.size() == 600);
        Invariant.holdsFor(Duration.ofMillis(500), "no message delivered twice",
                () -> deliveries.values().stream().allMatch(n -> n == 1) && deliveries.size() == 600);
        assertThat(admin.stats(keys.topic()).dead()).isZero();
        // the commits are gathered and sent after the hand-over: wait for the last one
        await().atMost(WAIT).until(() -> admin.stats(keys.topic()).counters().acked() == 600);
        SlotCounters counted = admin.stats(keys.topic()).counters();
        assertThat(List.of(counted.sent(), counted.merged(), counted.requeued(), counted.nacked(), counted.dead()))
                .as("sent, merged, requeued, nacked, dead, over all slots").containsExactly(300L, 0L, 300L, 0L, 0L);
        assertThat(counted.delivered()).as("popped, prefetched ones included").isEqualTo(600 + counted.released());
        consumer.close();
    }

    @Test
    void requeueAndPurgeActOnlyOnTheirSelection() {
        TopicKeys keys = register(fx.client(), new TopicDefinition("select", 2, TopicType.PRIORITY));
        fx.redis().zadd(keys.slot(0).dead(), 1_000, "old-a");
        fx.redis().hset(keys.slot(0).failures(), "old-a", "3\t7.5\tjava.lang.RuntimeException: x");
        fx.redis().zadd(keys.slot(1).dead(), 2_000, "old-b");
        fx.redis().zadd(keys.slot(0).dead(), 9_000, "new-sku-42");
        fx.redis().zadd(keys.slot(1).dead(), 9_500, "new-sku-43");

        assertThat(admin.countDead(keys.topic(), DeadSelection.diedBefore(Instant.ofEpochMilli(5_000)))).isEqualTo(2);
        assertThat(admin.requeueDead(keys.topic(), DeadSelection.diedBefore(Instant.ofEpochMilli(5_000)), 100)).isEqualTo(2);
        assertThat(fx.redis().zscore(keys.slot(0).store(), "old-a")).as("its priority back").isEqualTo(7.5);
        assertThat(fx.redis().zscore(keys.slot(1).store(), "old-b")).as("priority unknown").isEqualTo(0.0);
        assertThat(fx.redis().hexists(keys.slot(0).failures(), "old-a")).isFalse();

        assertThat(admin.purgeDead(keys.topic(), DeadSelection.contentContains("sku-43"))).isEqualTo(1);
        assertThat(admin.purgeDead(keys.topic(), DeadSelection.members(List.of(bytes("new-sku-42"), bytes("absent")))))
                .isEqualTo(1);
        assertThat(admin.stats(keys.topic()).dead()).isZero();
        assertThat(admin.stats(keys.topic()).pending()).isEqualTo(2);
        assertThat(admin.stats(keys.topic()).counters()).as("a dry run counts nothing")
                .isEqualTo(new SlotCounters(0, 0, 0, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 0));
    }

    @Test
    void aContentSelectionIsReadInPagesAndAListedMemberCountsOnce() {
        TopicKeys keys = register(fx.client(), new TopicDefinition("paged", 1, TopicType.FIXED_TIME));
        for (int i = 0; i < 1_200; i++) {
            fx.redis().zadd(keys.slot(0).dead(), i, (i % 2 == 0 ? "hit-" : "miss-") + i);
        }
        assertThat(admin.countDead(keys.topic(), DeadSelection.contentContains("hit"))).isEqualTo(600);
        assertThat(admin.countDead(keys.topic(), DeadSelection.all())).isEqualTo(1_200);
        assertThat(admin.purgeDead(keys.topic(), DeadSelection.contentContains("hit"))).isEqualTo(600);
        assertThat(fx.redis().zcard(keys.slot(0).dead())).isEqualTo(600);
        assertThat(admin.purgeDead(keys.topic(), DeadSelection.members(List.of(bytes("miss-1"), bytes("miss-1"), bytes("miss-1")))))
                .isEqualTo(1);

        AdminProgress stopped = new AdminProgress();
        stopped.stop();
        assertThat(admin.requeueDead(keys.topic(), DeadSelection.all(), 10, stopped)).as("stopped before it began").isZero();
        assertThat(fx.redis().zcard(keys.slot(0).dead())).isEqualTo(599);
    }

    @Test
    void aRequeueKeepsToItsRate() {
        TopicKeys keys = register(fx.client(), new TopicDefinition("paced", 1, TopicType.FIXED_TIME));
        for (int i = 0; i < 30; i++) {
            fx.redis().zadd(keys.slot(0).dead(), i, "m" + i);
        }
        // 10 at once, then 10 per second: at any moment at most 10 + 10 x (seconds since the start) have moved.
        // The clock starts before the requeue, so the time measured here is never shorter than the time the
        // pacer has had: a slow machine loosens the bound, it cannot break it; a requeue that does not keep
        // to its rate moves all 30 at the first look.
        long start = System.nanoTime();
        CompletableFuture<Long> requeue = CompletableFuture.supplyAsync(
                () -> admin.requeueDead(keys.topic(), DeadSelection.all(), 10));
        List<String> tooMany = new CopyOnWriteArrayList<>();
        AtomicLong looks = new AtomicLong();
        await().atMost(WAIT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20)).until(() -> {
            boolean done = requeue.isDone();
            long moved = fx.redis().zcard(keys.slot(0).store());
            double allowed = 10 + 10 * (System.nanoTime() - start) / 1e9;
            looks.incrementAndGet();
            if (moved > allowed) {
                tooMany.add(moved + " moved where " + allowed + " were allowed");
            }
            return done;
        });

        assertThat(requeue.join()).isEqualTo(30);
        assertThat(fx.redis().zcard(keys.slot(0).store())).isEqualTo(30);
        assertThat(tooMany).as("looks at the store queue while the requeue ran: " + looks).isEmpty();
    }

    @Test
    void aRecordedRequeueIsListedAndCancelledThroughAnotherConnection() throws Exception {
        TopicKeys keys = register(fx.client(), new TopicDefinition("shared-ops", 1, TopicType.FIXED_TIME));
        for (int i = 0; i < 30; i++) {
            fx.redis().zadd(keys.slot(0).dead(), i, "op" + i);
        }
        AdminProgress progress = new AdminProgress();
        AdminOperation started = new AdminOperation("op-1", "ops", "requeuing dead messages", "shared-ops",
                "selection: all, at most 2/s", Instant.ofEpochMilli(1_700_000_000_000L), 0, false);
        CompletableFuture<Long> requeue = CompletableFuture.supplyAsync(() -> {
            try (RecordedOperation recorded = admin.recordOperation("", started, progress)) {
                return admin.requeueDead(keys.topic(), DeadSelection.all(), 2, progress);
            }
        });
        try (RmqAdmin other = RmqAdmin.connect(uri)) { // another process's admin, say the command-line tool
            await().atMost(WAIT).until(() -> other.operations("").stream().anyMatch(o -> o.acted() > 0));
            AdminOperation listed = other.operations("").get(0);
            assertThat(listed).usingRecursiveComparison().ignoringFields("acted").isEqualTo(started);
            assertThat(other.operations("other:")).isEmpty();
            assertThat(other.cancelOperation("", "no-such-id")).isEmpty();
            assertThat(other.cancelOperation("", "op-1")).hasValueSatisfying(o -> assertThat(o.stopping()).isTrue());

            long moved = requeue.get(WAIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
            assertThat(progress.stopped()).isTrue();
            assertThat(moved).isLessThan(30).isEqualTo(30 - fx.redis().zcard(keys.slot(0).dead()));
            assertThat(other.operations("")).as("removed when it ended").isEmpty();
            assertThat(fx.redis().exists(SharedOperations.key(""))).isZero();
        }
    }

    @Test
    void theRecordOfAnOperationWhoseProcessDiedIsDroppedOnceItsHeartbeatExpires() {
        try (RecordedOperation recorded = admin.recordOperation("gone:", new AdminOperation("op-2", "ops", "purging dead messages",
                "t", "selection: all", Instant.now(), 0, false), new AdminProgress())) {
            assertThat(admin.operations("gone:")).extracting(AdminOperation::id).containsExactly("op-2");
            fx.redis().del("{gone:rmq:topics}operation:op-2"); // as when it expires after the process died
            assertThat(admin.operations("gone:")).isEmpty();
            assertThat(fx.redis().hkeys(SharedOperations.key("gone:"))).isEmpty();
        }
    }

    @Test
    void removesAPendingMessageOrMakesItDueNow() throws Exception {
        RmqEngine engine = fx.client();
        TopicKeys keys = register(engine, new TopicDefinition("scheduled", 4, TopicType.FIXED_TIME));
        TopicProducer producer = engine.producer(keys);
        Instant nextWeek = Instant.now().plus(Duration.ofDays(7));
        producer.sendAt(bytes("close:1"), nextWeek, "order-1").toCompletableFuture().join();
        producer.sendAt(bytes("close:2"), nextWeek, "order-2").toCompletableFuture().join();
        EngineFixture.Recorder consumer = fx.consume(engine, keys, FAST);
        consumer.consumer.request(Long.MAX_VALUE);

        assertThat(admin.makeDueNow(keys.topic(), bytes("close:1"), "order-1")).isTrue();
        assertThat(text(consumer.next(WAIT))).isEqualTo("close:1");
        assertThat(admin.removePending(keys.topic(), bytes("close:2"), "order-2")).isTrue();
        assertThat(admin.removePending(keys.topic(), bytes("close:2"), "order-2")).as("gone already").isFalse();
        assertThat(admin.makeDueNow(keys.topic(), bytes("close:3"), "order-3")).isFalse();
        assertThat(admin.stats(keys.topic()).pending()).isZero();
    }

    @Test
    void aPauseStopsEveryConsumerOfTheClusterAndAResumeRestartsThem() {
        TopicDefinition topic = new TopicDefinition("pausable", 4, TopicType.FIXED_TIME);
        Set<String> received = ConcurrentHashMap.newKeySet();
        List<TopicConsumer> consumers = new ArrayList<>();
        RmqEngine first = null;
        for (int app = 0; app < 2; app++) { // two applications, each with its own engine
            RmqEngine engine = fx.client();
            first = first == null ? engine : first;
            TopicConsumer c = engine.consumer(register(engine, topic), FAST, "app-" + app);
            c.start(d -> {
                received.add(text(d));
                d.commit();
            });
            c.request(Long.MAX_VALUE);
            consumers.add(c);
        }
        TopicProducer producer = first.producer(new TopicKeys(topic));

        admin.pause(topic);
        assertThat(admin.stats(topic).paused()).isTrue();
        for (int i = 0; i < 20; i++) {
            producer.sendAt(bytes("m" + i), Instant.EPOCH, null).toCompletableFuture().join();
        }
        Invariant.holdsFor(Duration.ofMillis(1_500), "nothing delivered while paused", received::isEmpty);
        assertThat(admin.stats(topic).due()).isEqualTo(20);

        admin.resume(topic);

        await().atMost(WAIT).until(() -> received.size() == 20);
        assertThat(admin.stats(topic).paused()).isFalse();
        consumers.forEach(TopicConsumer::close);
    }

    @Test
    void theSweeperKeepsTheDeadQueueWithinItsRetentionAndSaysSo() {
        RmqEngine engine = fx.client();
        AtomicLong trimmed = new AtomicLong();
        engine.addListener(new EngineEvents() {
            @Override
            public void deadTrimmed(TopicDefinition topic, long count) {
                trimmed.addAndGet(count);
            }
        });
        TopicKeys keys = register(engine, new TopicDefinition("retention", 1, TopicType.FIXED_TIME));
        long now = redisNow();
        for (int i = 0; i < 5; i++) {
            fx.redis().zadd(keys.slot(0).dead(), now - 1_000 + i, "dead-" + i);
        }
        try (LogRecorder log = LogRecorder.record("io.rmq.engine")) {
            fx.consume(engine, keys, FAST.toBuilder().deadMaxCount(2).build());

            await().atMost(WAIT).until(() -> trimmed.get() == 3);
            assertThat(fx.redis().zrange(keys.slot(0).dead(), 0, -1)).containsExactly("dead-3", "dead-4");
            assertThat(log.messagesContaining("RMQ-0114")).singleElement().asString()
                    .contains("Deleted 3 message(s)").contains("at most 2 messages");
        }
    }

    @Test
    void anUnreachableRedisIsNamedWithoutItsPassword() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String secret = "redis://ops:s3cret@127.0.0.1:" + port;

        assertThatThrownBy(() -> RmqAdmin.connect(secret)).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("RMQ-0313 Cannot reach Redis at redis://***@127.0.0.1:" + port)
                .hasMessageNotContaining("s3cret");
    }

    private long redisNow() {
        List<String> time = fx.redis().time();
        return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    }
}
