package io.rmq.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.rmq.testing.WeldApp;
import io.rmq.testing.redis.PlainRedis;
import io.rmq.testing.redis.RedisExtension;
import io.rmq.testing.redis.RedisTestServer;

/** The connector in SmallRye Reactive Messaging on Weld SE, against a real Redis. */
@ExtendWith(RedisExtension.class)
class RedisRmqConnectorIT {

    private static final String RMQ = RedisRmqConnector.CONNECTOR_NAME;
    private static final Duration WAIT = Duration.ofSeconds(15);

    private String uri;
    private PlainRedis plain;
    private WeldApp app;

    @BeforeEach
    void setUp(RedisTestServer redis) {
        uri = uri(redis);
        plain = PlainRedis.connect(uri, cluster());
    }

    /** The Redis the tests run against: the shared server; a subclass runs them on a cluster. */
    String uri(RedisTestServer redis) {
        return redis.uri();
    }

    boolean cluster() {
        return false;
    }

    @AfterEach
    void tearDown() {
        if (app != null) {
            app.close();
        }
        plain.close();
    }

    private RedisClusterCommands<String, String> redis() {
        return plain.commands();
    }

    private WeldApp.Builder app(String topic, String type, Class<?>... beans) {
        return WeldApp.builder().beans(RedisRmqConnector.class).beans(beans)
                .config("mp.messaging.connector." + RMQ + ".redis-uri", uri)
                .outgoing("out", RMQ, "topic", topic, "topic-type", type, "slot-amount", 1)
                .incoming("in", RMQ, "topic", topic, "topic-type", type, "slot-amount", 1, "poll-interval", 500,
                        "retry-backoff", 0, "shutdown-timeout", 2000);
    }

    @Test
    void priorityMessagesFlowFromAnEmitterToAnIncomingMethodWithMetadata() throws Exception {
        app = app("tasks", "PRIORITY", ConnectorBeans.Sender.class, ConnectorBeans.Receiver.class).start();
        ConnectorBeans.Sender sender = app.get(ConnectorBeans.Sender.class);
        sender.send("routine", OutgoingRmqMetadata.builder().withPriority(1).build()).toCompletableFuture().get(10, TimeUnit.SECONDS);
        sender.send("urgent", OutgoingRmqMetadata.builder().withPriority(9.5).build()).toCompletableFuture().get(10, TimeUnit.SECONDS);

        ConnectorBeans.Receiver receiver = app.get(ConnectorBeans.Receiver.class);
        await().atMost(WAIT).until(() -> receiver.payloads().size() == 2);
        assertThat(receiver.payloads()).containsExactlyInAnyOrder("routine", "urgent");
        IncomingRmqMetadata urgent = receiver.metadata().get(receiver.payloads().indexOf("urgent"));
        assertThat(urgent.getTopic()).isEqualTo("tasks");
        assertThat(urgent.getSlot()).isZero();
        assertThat(urgent.getAttempt()).isEqualTo(1);
        assertThat(urgent.getScore()).isEqualTo(9.5);
        await().atMost(WAIT).until(() -> redis().zcard("prepare{tasks_0}") == 0);
    }

    @Test
    void scheduledMessagesArriveNotBeforeTheirTime() throws Exception {
        app = app("orders", "FIXED_TIME", ConnectorBeans.Sender.class, ConnectorBeans.Receiver.class).start();
        ConnectorBeans.Sender sender = app.get(ConnectorBeans.Sender.class);
        Instant due = Instant.now().plusMillis(700);
        sender.send("close-order-7", OutgoingRmqMetadata.builder().withDeliverAt(due).build())
                .toCompletableFuture().get(10, TimeUnit.SECONDS);
        ConnectorBeans.Receiver receiver = app.get(ConnectorBeans.Receiver.class);
        await().atMost(WAIT).until(() -> receiver.payloads().size() == 1);
        // the score is the due time in whole ms, and Redis compares it with its clock in whole ms
        assertThat(Instant.now()).isAfterOrEqualTo(due.truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
        assertThat((long) receiver.metadata().get(0).getScore()).isEqualTo(due.toEpochMilli());
    }

    @Test
    void duplicatesSentWithinTheRangeAreMergedIntoOneDelivery() throws Exception {
        app = app("prices", "RANGE_MERGE", ConnectorBeans.Sender.class, ConnectorBeans.Receiver.class)
                .config("mp.messaging.outgoing.out.time-range", 500).start();
        ConnectorBeans.Sender sender = app.get(ConnectorBeans.Sender.class);
        for (int i = 0; i < 30; i++) {
            sender.send("refresh:sku-" + (i % 2), null);
        }
        await().atMost(WAIT).until(() -> sender.acked().size() == 30);
        ConnectorBeans.Receiver receiver = app.get(ConnectorBeans.Receiver.class);
        await().atMost(WAIT).until(() -> receiver.payloads().size() == 2);
        // once both are committed the topic is empty in Redis: the 28 duplicates were merged, none is left to come
        await().atMost(WAIT).until(() -> redis().zcard("prices_0") + redis().zcard("prepare{prices_0}") == 0);
        assertThat(receiver.payloads()).containsExactlyInAnyOrder("refresh:sku-0", "refresh:sku-1");
    }

    @Test
    void aNackedMessageIsRetriedThenDeadLetteredAfterOnePlusMaxRetriesDeliveries() {
        app = app("jobs", "FIXED_TIME", ConnectorBeans.Sender.class, ConnectorBeans.FailingReceiver.class)
                .config("mp.messaging.incoming.in.max-retries", 2).start();
        app.get(ConnectorBeans.Sender.class).send("poison", null);
        ConnectorBeans.FailingReceiver receiver = app.get(ConnectorBeans.FailingReceiver.class);
        await().atMost(WAIT).until(() -> redis().zcard("dead{jobs_0}") == 1);
        assertThat(receiver.attempts()).containsExactly(1, 2, 3);
        assertThat(redis().zrange("dead{jobs_0}", 0, -1)).containsExactly("poison");
    }

    @Test
    void invalidMetadataOrPayloadIsNackedAndNothingIsWritten() throws Exception {
        app = app("tasks", "PRIORITY", ConnectorBeans.Sender.class).start();
        ConnectorBeans.Sender sender = app.get(ConnectorBeans.Sender.class);
        assertThatThrownBy(() -> sender.send("no-priority", null).toCompletableFuture().get(10, TimeUnit.SECONDS))
                .hasMessageContaining("without a priority").hasMessageContaining("'priority'");
        assertThatThrownBy(() -> sender.send("wrong-kind", OutgoingRmqMetadata.builder()
                .withDeliverAt(Instant.now()).build()).toCompletableFuture().get(10, TimeUnit.SECONDS))
                .hasMessageContaining("a delivery time or delay").hasMessageContaining("RMQ-2010");
        assertThatThrownBy(() -> sender.send(42, OutgoingRmqMetadata.builder().withPriority(1).build())
                .toCompletableFuture().get(10, TimeUnit.SECONDS))
                .hasMessageContaining("java.lang.Integer").hasMessageContaining("'codec'");
        assertThat(redis().exists("tasks_0")).isZero();
        assertThat(sender.acked()).isEmpty();
        assertThat(sender.nacked()).hasSize(3);
    }

    @Test
    void concurrentCopiesOfAChannelConsumeEverythingOnce() {
        app = WeldApp.builder().beans(RedisRmqConnector.class, ConnectorBeans.PayloadReceiver.class)
                .config("mp.messaging.connector." + RMQ + ".redis-uri", uri)
                .incoming("in", RMQ, "topic", "work", "topic-type", "PRIORITY", "slot-amount", 8,
                        "concurrency", 3, "batch-size", 4, "poll-interval", 200)
                .start();
        List<String> sent = IntStream.range(0, 300).mapToObj(i -> "job-" + i).collect(Collectors.toList());
        for (String job : sent) {
            int slot = io.rmq.engine.topic.SlotRouter.slotOf(null, job.getBytes(), 8);
            redis().zadd("work_" + slot, 1, job);
        }
        ConnectorBeans.PayloadReceiver receiver = app.get(ConnectorBeans.PayloadReceiver.class);
        await().atMost(WAIT).until(() -> receiver.payloads().size() >= 300);
        assertThat(receiver.payloads()).containsExactlyInAnyOrderElementsOf(sent);
    }

    @Test
    void stoppingTheApplicationLeavesNothingInThePrepareQueue() throws Exception {
        app = app("graceful", "PRIORITY", ConnectorBeans.PayloadReceiver.class)
                .config("mp.messaging.incoming.in.batch-size", 50).start();
        for (int i = 0; i < 2000; i++) {
            redis().zadd("graceful_0", i, "m" + i);
        }
        ConnectorBeans.PayloadReceiver receiver = app.get(ConnectorBeans.PayloadReceiver.class);
        List<String> processed = receiver.payloads();
        await().atMost(WAIT).until(() -> processed.size() > 10);
        app.close();
        app = null;
        assertThat(redis().zcard("prepare{graceful_0}")).isZero();
        int consumed = processed.size();
        assertThat(processed).doesNotHaveDuplicates();
        assertThat(redis().zcard("graceful_0")).isEqualTo(2000L - consumed);
    }

    @Test
    void aChannelWithoutTopicTypeFailsTheDeploymentNamingChannelAndAttribute() {
        WeldApp.Builder bad = WeldApp.builder().beans(RedisRmqConnector.class, ConnectorBeans.PayloadReceiver.class)
                .incoming("in", RMQ, "redis-uri", uri, "slot-amount", 12);
        assertThatThrownBy(bad::start)
                .hasStackTraceContaining("'in'")
                .hasStackTraceContaining("topic-type")
                .hasStackTraceContaining("slot-amount");
    }

    @Test
    void aTopicUsedWithAnotherTypeFailsTheDeploymentNamingBothDefinitions() {
        redis().hset("rmq:topics", "tasks", "FIXED_TIME:1");
        WeldApp.Builder conflicting = app("tasks", "PRIORITY", ConnectorBeans.Receiver.class);
        assertThatThrownBy(conflicting::start)
                .hasStackTraceContaining("type FIXED_TIME with slot-amount 1")
                .hasStackTraceContaining("type PRIORITY with slot-amount 1");
    }

    @Test
    void aSlowConsumerDoesNotMakeMessagesPileUpInThePrepareQueue() {
        app = app("backlog", "PRIORITY", ConnectorBeans.SlowReceiver.class)
                .config("mp.messaging.incoming.in.batch-size", 10).start();
        for (int i = 0; i < 300; i++) {
            redis().zadd("backlog_0", i, "m" + i);
        }
        ConnectorBeans.SlowReceiver receiver = app.get(ConnectorBeans.SlowReceiver.class);
        AtomicLong mostPrepared = new AtomicLong();
        await("30 messages processed").atMost(WAIT).pollInterval(Duration.ofMillis(5)).until(() -> {
            mostPrepared.accumulateAndGet(redis().zcard("prepare{backlog_0}"), Math::max);
            return receiver.payloads().size() >= 30;
        });
        // at most one batch of prefetch plus the message being processed
        assertThat(mostPrepared.get()).isLessThanOrEqualTo(10 + 1);
        assertThat(redis().zcard("backlog_0")).isGreaterThan(250);
    }

    @Test
    void aCodecCarriesApplicationTypesBothWays() throws Exception {
        String codec = ConnectorBeans.PriceCodec.class.getName();
        app = app("prices", "PRIORITY", ConnectorBeans.Sender.class, ConnectorBeans.PriceReceiver.class)
                .config("mp.messaging.outgoing.out.codec", codec)
                .config("mp.messaging.outgoing.out.priority", 1)
                .config("mp.messaging.incoming.in.codec", codec).start();
        app.get(ConnectorBeans.Sender.class).send(new ConnectorBeans.Price("sku-9", 1999), null)
                .toCompletableFuture().get(10, TimeUnit.SECONDS);
        ConnectorBeans.PriceReceiver receiver = app.get(ConnectorBeans.PriceReceiver.class);
        await().atMost(WAIT).until(() -> receiver.prices().size() == 1);
        assertThat(receiver.prices()).containsExactly(new ConnectorBeans.Price("sku-9", 1999));
    }
}
