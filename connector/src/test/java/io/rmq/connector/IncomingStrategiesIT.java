package io.rmq.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.spi.ConnectorLiteral;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.testing.Invariant;
import io.rmq.testing.LogRecorder;
import io.rmq.testing.WeldApp;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;
import io.smallrye.reactive.messaging.ChannelRegistry;
import io.smallrye.reactive.messaging.providers.extension.PausableChannelDecorator;

/**
 * Failure strategies, batch consumption and pausing on SmallRye Reactive Messaging and Weld, against a real Redis:
 * what a nacked message becomes with each {@code failure-strategy}; {@code batch=true} delivering a {@code List}
 * acked or nacked as one; the application's pause and resume through {@link RmqTopics}; SmallRye's
 * {@code pausable} channels.
 */
@RedisTest
class IncomingStrategiesIT {

    private static final String RMQ = RedisRmqConnector.CONNECTOR_NAME;
    private static final Duration WAIT = Duration.ofSeconds(20);
    /** PRIORITY, one slot: a message written with ZADD is consumed; its keys are known. */
    private static final String STORE = "jobs_0";
    private static final String PREPARE = "prepare{jobs_0}";
    private static final String DEAD = "dead{jobs_0}";

    /** Acks every job but those starting with "bad", which it nacks. */
    @ApplicationScoped
    public static class Worker {
        final List<String> seen = new CopyOnWriteArrayList<>();

        List<String> seen() {
            return seen;
        }

        @Incoming("jobs")
        public CompletionStage<Void> work(Message<String> job) {
            int attempt = job.getMetadata(IncomingRmqMetadata.class).orElseThrow().getAttempt();
            seen.add(job.getPayload() + "#" + attempt);
            return job.getPayload().startsWith("bad") ? job.nack(new IllegalStateException("cannot do " + job.getPayload()))
                    : job.ack();
        }
    }

    /** Receives jobs in batches; nacks a batch holding a "bad" job. */
    @ApplicationScoped
    public static class BatchWorker {
        final List<List<String>> batches = new CopyOnWriteArrayList<>();
        final List<IncomingRmqBatchMetadata> metadata = new CopyOnWriteArrayList<>();

        List<List<String>> batches() {
            return batches;
        }

        List<IncomingRmqBatchMetadata> metadata() {
            return metadata;
        }

        @Incoming("jobs")
        public CompletionStage<Void> work(Message<List<String>> batch) {
            batches.add(List.copyOf(batch.getPayload()));
            metadata.add(batch.getMetadata(IncomingRmqBatchMetadata.class).orElseThrow());
            return batch.getPayload().stream().anyMatch(j -> j.startsWith("bad"))
                    ? batch.nack(new IllegalStateException("a bad job in the batch")) : batch.ack();
        }
    }

    private RedisTestServer server;
    private RedisCommands<String, String> redis;
    private WeldApp app;

    @BeforeEach
    void setUp(RedisTestServer server, RedisConnections connections) {
        this.server = server;
        this.redis = connections.sync();
    }

    @AfterEach
    void tearDown() {
        if (app != null) {
            app.close();
        }
    }

    /**
     * After a pause, with {@code sent} messages sent since: a pop under way when {@code pause} returned (the channel
     * polls every 100 ms) may still move them, and then releases them to the store queue rather than hand them over.
     * So for 500 ms none reaches the application ({@code seen} holds) and none is lost (the store and prepare queues
     * together hold them all, read at one instant); then all are back in the store queue, and for 500 ms more nothing
     * is popped.
     */
    private void assertNothingPoppedWhilePaused(int sent, String what, BooleanSupplier seen) {
        Invariant.holdsFor(Duration.ofMillis(500), "none handed over or lost while paused",
                () -> seen.getAsBoolean() && inStoreOrPrepare() == sent);
        await().atMost(WAIT).until(() -> redis.zcard(STORE) == sent && redis.zcard(PREPARE) == 0);
        Invariant.holdsFor(Duration.ofMillis(500), what, () -> redis.zcard(PREPARE) == 0 && seen.getAsBoolean());
    }

    /** The members of the store and the prepare queue, counted by one script: at one instant. */
    private long inStoreOrPrepare() {
        return redis.eval("return redis.call('ZCARD', KEYS[1]) + redis.call('ZCARD', KEYS[2])",
                ScriptOutputType.INTEGER, STORE, PREPARE);
    }

    private void start(Class<?> consumer, Object... attributes) {
        Object[] all = new Object[attributes.length + 8];
        System.arraycopy(new Object[] { "topic", "jobs", "topic-type", "PRIORITY", "slot-amount", 1,
                "poll-interval", 100 }, 0, all, 0, 8);
        System.arraycopy(attributes, 0, all, 8, attributes.length);
        app = WeldApp.builder().beans(RedisRmqConnector.class, RmqTopics.class, consumer, PausableChannelDecorator.class)
                .config("mp.messaging.connector." + RMQ + ".redis-uri", server.uri())
                .incoming("jobs", RMQ, all)
                .start();
    }

    /** One ZADD: a poll between the jobs could not pop some without the others. The first is the highest priority. */
    private void send(String... jobs) {
        Object[] scoresAndJobs = new Object[2 * jobs.length];
        for (int i = 0; i < jobs.length; i++) {
            scoresAndJobs[2 * i] = (double) (jobs.length - i);
            scoresAndJobs[2 * i + 1] = jobs[i];
        }
        redis.zadd(STORE, scoresAndJobs);
    }

    @Test
    void retryIsTheDefaultTheNackedMessageIsDeliveredAgainThenDead() {
        send("bad-1", "good-1");
        start(Worker.class, "max-retries", 1, "retry-backoff", 0);
        Worker worker = app.get(Worker.class);

        await().atMost(WAIT).until(() -> redis.zcard(DEAD) == 1);
        assertThat(worker.seen()).contains("bad-1#1", "bad-1#2", "good-1#1").doesNotContain("bad-1#3");
        assertThat(redis.hget("failures{jobs_0}", "bad-1")).contains("cannot do bad-1");
    }

    @Test
    void deadLetterMovesTheNackedMessageToTheDeadQueueAtOnceWithItsReason() {
        send("bad-1", "good-1");
        try (LogRecorder log = LogRecorder.record("io.rmq")) {
            start(Worker.class, "failure-strategy", "dead-letter", "max-retries", 5);
            Worker worker = app.get(Worker.class);

            await().atMost(WAIT).until(() -> redis.zcard(DEAD) == 1 && redis.zcard(PREPARE) == 0);
            assertThat(worker.seen()).containsExactly("bad-1#1", "good-1#1");
            assertThat(redis.zscore(DEAD, "bad-1")).isNotNull();
            assertThat(redis.hget("failures{jobs_0}", "bad-1"))
                    .endsWith("java.lang.IllegalStateException: cannot do bad-1");
            assertThat(log.messagesContaining("RMQ-0581")).singleElement().asString()
                    .contains("moved straight to the dead queue dead{jobs_0}");
        }
    }

    @Test
    void ignoreCommitsTheNackedMessageAndLogsIt() {
        send("bad-1", "good-1");
        try (LogRecorder log = LogRecorder.record("io.rmq")) {
            start(Worker.class, "failure-strategy", "IGNORE");
            Worker worker = app.get(Worker.class);

            await().atMost(WAIT).until(() -> worker.seen().size() == 2 && redis.zcard(PREPARE) == 0);
            assertThat(redis.zcard(STORE)).isZero();
            assertThat(redis.zcard(DEAD)).isZero();
            // a plain commit counts its messages one round trip after removing them
            await().atMost(WAIT).until(() -> "2".equals(redis.hget("counters{jobs_0}", "acked")));
            assertThat(log.await("the ignored failure", m -> m.contains("RMQ-2360"), 1, WAIT)).singleElement()
                    .asString().contains("channel 'jobs'").contains("cannot do bad-1");
        }
    }

    @Test
    void failRollsBackTheMessageAndItsPrefetchAndFailsTheChannel() {
        start(Worker.class, "failure-strategy", "fail");
        Worker worker = app.get(Worker.class);
        // sent once the channel is subscribed: a channel that fails while SmallRye still subscribes it fails the
        // deployment instead (SRMSG00105). No wake notice: the consumer's poll (100 ms) finds them, bad-1 first.
        send("bad-1", "good-1", "good-2", "good-3");
        RedisRmqConnector connector = app.container().select(RedisRmqConnector.class, ConnectorLiteral.of(RMQ)).get();

        await().atMost(WAIT).until(() -> connector.channelSnapshots().get(0).state() == ChannelSnapshot.State.FAILED);
        ChannelSnapshot snapshot = connector.channelSnapshots().get(0);
        assertThat(snapshot.isAlive()).as("liveness DOWN").isFalse();
        assertThat(snapshot.failure().orElseThrow()).hasMessageStartingWith("RMQ-2361 Incoming channel 'jobs'")
                .hasMessageContaining("cannot do bad-1");
        await().atMost(WAIT).until(() -> redis.zcard(PREPARE) == 0);
        assertThat(worker.seen()).containsExactly("bad-1#1");
        assertThat(redis.zrange(STORE, 0, -1)).as("nothing lost").containsExactlyInAnyOrder("bad-1", "good-1",
                "good-2", "good-3");
        assertThat(redis.hget("attempts{jobs_0}", "bad-1")).as("the failed delivery counted").isEqualTo("1");
    }

    @Test
    void aBatchChannelDeliversListsAckedOrNackedAsOne() {
        send("good-1", "good-2", "good-3");
        start(BatchWorker.class, "batch", "true", "batch-size", 10, "failure-strategy", "dead-letter");
        BatchWorker worker = app.get(BatchWorker.class);

        await().atMost(WAIT).until(() -> redis.zcard(STORE) + redis.zcard(PREPARE) == 0);
        assertThat(worker.batches().stream().flatMap(List::stream)).containsExactly("good-1", "good-2", "good-3");
        assertThat(worker.batches().get(0)).as("popped together, delivered together").hasSize(3);
        IncomingRmqBatchMetadata first = worker.metadata().get(0);
        assertThat(first.getChannel()).isEqualTo("jobs");
        assertThat(first.getMessages()).extracting(IncomingRmqMetadata::getScore).containsExactly(3.0, 2.0, 1.0);
        await().atMost(WAIT).until(() -> "3".equals(redis.hget("counters{jobs_0}", "acked")));

        send("bad-1", "good-4");
        await().atMost(WAIT).until(() -> redis.zcard(DEAD) == 2);
        assertThat(worker.batches().get(worker.batches().size() - 1)).containsExactly("bad-1", "good-4");
        assertThat(redis.hget("failures{jobs_0}", "good-4")).as("each message of the batch, with the batch's reason")
                .contains("a bad job in the batch");
    }

    @Test
    void theApplicationPausesAndResumesItsChannelThroughRmqTopics() {
        start(Worker.class, "batch-size", 10);
        Worker worker = app.get(Worker.class);
        RmqTopics topics = app.get(RmqTopics.class);
        send("good-1");
        await().atMost(WAIT).until(() -> worker.seen().size() == 1);

        topics.pause("jobs");
        assertThat(topics.isPaused("jobs")).isTrue();
        send("good-2", "good-3");
        assertNothingPoppedWhilePaused(2, "nothing popped while paused", () -> worker.seen().size() == 1);

        topics.resume("jobs");
        await().atMost(WAIT).until(() -> worker.seen().size() == 3);
        assertThat(topics.isPaused("jobs")).isFalse();
        assertThatThrownBy(() -> topics.pause("job")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("RMQ-2362 'job' is not an incoming channel of the connector smallrye-redis-rmq, so it"
                        + " cannot be paused or resumed; its incoming channels are jobs");
    }

    @Test
    void pausingAChannelPausesEachOfItsCopies() {
        start(Worker.class, "batch-size", 10, "concurrency", 2);
        Worker worker = app.get(Worker.class);
        RmqTopics topics = app.get(RmqTopics.class);

        topics.pause("jobs");
        assertThat(topics.isPaused("jobs")).isTrue();
        assertThat(topics.isPaused("jobs$1")).as("a copy, by its own name").isTrue();
        send("good-1", "good-2", "good-3");
        assertNothingPoppedWhilePaused(3, "no copy pops while the channel is paused", () -> worker.seen().isEmpty());

        topics.resume("jobs");
        await().atMost(WAIT).until(() -> worker.seen().size() == 3);
        assertThat(topics.isPaused("jobs")).isFalse();
    }

    @Test
    void smallRyesPausableChannelStartsPausedAndPopsNothingUntilResumed() {
        send("good-1", "good-2");
        start(Worker.class, "pausable", "true", "pausable.initially-paused", "true");
        Worker worker = app.get(Worker.class);

        Invariant.holdsFor(Duration.ofMillis(500), "nothing popped while initially paused",
                () -> redis.zcard(PREPARE) == 0 && worker.seen().isEmpty());
        ChannelRegistry registry = app.get(ChannelRegistry.class);
        registry.getPausable("jobs").resume();
        await().atMost(WAIT).until(() -> worker.seen().size() == 2);

        registry.getPausable("jobs").pause();
        assertThat(registry.getPausable("jobs").isPaused()).isTrue();
    }
}
