package io.rmq.badinput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.connector.IncomingRmqMetadata;
import io.rmq.connector.OutgoingRmqMetadata;
import io.rmq.connector.RedisRmqConnector;
import io.rmq.engine.topic.SlotRouter;
import io.rmq.testing.LogRecorder;
import io.rmq.testing.WeldApp;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;

/**
 * The catalogue of bad Redis state (docs/bad-input.md): keys of a topic written by another client with
 * the wrong type or unreadable values, and a topic registry that disagrees. A key of the wrong type
 * fails the calls of its slot with RMQ-0340 naming the key, while the other slot keeps flowing; the
 * messages of the broken slot stay where they are and flow once the key is repaired.
 */
@RedisTest
class BadRedisStateIT {

    private static final String RMQ = RedisRmqConnector.CONNECTOR_NAME;
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int SLOTS = 2;

    private WeldApp app;
    private LogRecorder log;
    private RedisCommands<String, String> redis;

    @BeforeEach
    void record(RedisConnections connections) {
        log = LogRecorder.record("io.rmq");
        redis = connections.sync();
    }

    @AfterEach
    void stop() {
        if (app != null) {
            app.close();
        }
        log.close();
    }

    private WeldApp.Builder app(RedisTestServer server) {
        return WeldApp.builder()
                .beans(RedisRmqConnector.class, BadInputBeans.Sender.class, BadInputBeans.Receiver.class)
                .config("mp.messaging.connector." + RMQ + ".redis-uri", server.uri())
                .incoming("in", RMQ, "topic", "s", "topic-type", "FIXED_TIME", "slot-amount", SLOTS, "poll-interval",
                        200, "retry-backoff", 0, "max-retries", 3, "prepare-timeout", 1000, "shutdown-timeout", 2000)
                .outgoing("out", RMQ, "topic", "s", "topic-type", "FIXED_TIME", "slot-amount", SLOTS);
    }

    private void start(RedisTestServer server) {
        app = app(server).start();
    }

    private BadInputBeans.Receiver receiver() {
        return app.get(BadInputBeans.Receiver.class);
    }

    /** A slot basis that routes to {@code slot}. */
    private static OutgoingRmqMetadata toSlot(int slot) {
        for (int i = 0;; i++) {
            String basis = "key-" + i;
            if (SlotRouter.slotOf(basis.getBytes(StandardCharsets.UTF_8), SLOTS) == slot) {
                return OutgoingRmqMetadata.builder().withSlotBasis(basis).build();
            }
        }
    }

    private CompletableFuture<Void> send(String payload, int slot) {
        return app.get(BadInputBeans.Sender.class).send(payload, toSlot(slot));
    }

    /** The other slot is not affected: a message sent to it is received. */
    private void slotOneStillFlows() throws Exception {
        send("to-slot-1", 1).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        await().atMost(WAIT).until(() -> receiver().texts().contains("to-slot-1"));
    }

    private void awaitLogged(String id, String... containing) {
        log.await(id, m -> m.startsWith(id) && java.util.Arrays.stream(containing).allMatch(m::contains), 1, WAIT);
    }

    private void allSettled() {
        await().atMost(WAIT).until(() -> redis.zcard("s_0") + redis.zcard("prepare{s_0}") + redis.zcard("s_1")
                + redis.zcard("prepare{s_1}") == 0);
    }

    @Test
    void aStoreQueueOfTheWrongTypeFailsOnlyItsSlotNamingTheKey(RedisTestServer server) throws Exception {
        redis.set("s_0", "written by hand");
        start(server);

        ExecutionException nack = catchNack(send("to-slot-0", 0));
        assertThat(nack.getCause()).hasMessageStartingWith("RMQ-0340 send.lua failed because key 's_0' (the store"
                + " queue of the slot) holds a string where a zset is expected; the key was written by something other"
                + " than this library").hasMessageContaining("Redis said: WRONGTYPE");
        awaitLogged("RMQ-0103", "Popping slot 0 of topic 's'", "key 's_0' (the store queue of the slot) holds a string");
        slotOneStillFlows();

        redis.del("s_0"); // repaired
        send("to-slot-0", 0).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        await().atMost(WAIT).until(() -> receiver().texts().contains("to-slot-0"));
    }

    @Test
    void aPrepareQueueOfTheWrongTypeHoldsItsSlotsMessagesUntilRepaired(RedisTestServer server) throws Exception {
        redis.set("prepare{s_0}", "written by hand");
        heldUntilRepaired(server, "prepare{s_0}", "key 'prepare{s_0}' (the prepare queue of the slot) holds a string"
                + " where a zset is expected");
    }

    @Test
    void anAttemptsHashOfTheWrongTypeHoldsItsSlotsMessagesUntilRepaired(RedisTestServer server) throws Exception {
        redis.sadd("attempts{s_0}", "written by hand");
        heldUntilRepaired(server, "attempts{s_0}", "key 'attempts{s_0}' (the attempts hash of the slot) holds a set"
                + " where a hash is expected");
    }

    /** A message waiting in slot 0, whose {@code badKey} is of the wrong type, stays there until the key is deleted. */
    private void heldUntilRepaired(RedisTestServer server, String badKey, String problem) throws Exception {
        redis.zadd("s_0", 0, "waiting");
        start(server);

        awaitLogged("RMQ-0103", "Popping slot 0", problem);
        slotOneStillFlows();
        assertThat(redis.zrange("s_0", 0, -1)).containsExactly("waiting"); // not lost, not moved
        assertThat(redis.type("prepare{s_0}")).isIn("none", "string"); // nothing moved before the call failed

        redis.del(badKey);
        await().atMost(WAIT).until(() -> receiver().texts().contains("waiting"));
        allSettled();
    }

    @Test
    void aCountersHashOfTheWrongTypeNacksSendsAndStoresNothing(RedisTestServer server) throws Exception {
        redis.set("counters{s_0}", "written by hand");
        start(server);

        ExecutionException nack = catchNack(send("to-slot-0", 0));
        assertThat(nack.getCause()).hasMessageStartingWith("RMQ-0340 send.lua failed because key 'counters{s_0}' (the"
                + " counters hash of the slot) holds a string where a hash is expected");
        assertThat(redis.zcard("s_0")).isZero(); // nacked means not stored
        slotOneStillFlows();
    }

    @Test
    void aDeadQueueOfTheWrongTypeKeepsTheFailedMessageInThePrepareQueue(RedisTestServer server) throws Exception {
        redis.set("dead{s_0}", "written by hand");
        app = app(server).config("mp.messaging.incoming.in.max-retries", 0).start();
        receiver().nackAll(true);
        send("poison", 0).get(WAIT.toSeconds(), TimeUnit.SECONDS);

        awaitLogged("RMQ-0104", "key 'dead{s_0}' (the dead queue of the slot) holds a string where a zset is expected");
        assertThat(redis.zrange("prepare{s_0}", 0, -1)).containsExactly("poison"); // kept, not lost

        redis.del("dead{s_0}"); // repaired: the sweeper rolls it back at its deadline, into the dead queue
        await().atMost(WAIT).until(() -> redis.zcard("dead{s_0}") == 1);
        assertThat(redis.zrange("dead{s_0}", 0, -1)).containsExactly("poison");
        assertThat(redis.zcard("prepare{s_0}")).isZero();
    }

    @Test
    void anOwnerHashOfTheWrongTypeFailsCommitsUntilRepairedThenTheMessageIsRedelivered(RedisTestServer server)
            throws Exception {
        redis.set("owner{s_0}", "written by hand");
        start(server);
        send("to-slot-0", 0).get(WAIT.toSeconds(), TimeUnit.SECONDS);

        awaitLogged("RMQ-0101", "Committing 1 message(s) of slot 0 of topic 's' failed", "key 'owner{s_0}' (the owner"
                + " hash of the slot) holds a string where a hash is expected");
        assertThat(redis.zrange("prepare{s_0}", 0, -1)).containsExactly("to-slot-0"); // at least once: kept

        redis.del("owner{s_0}");
        await().atMost(WAIT).until(() -> receiver().texts().size() == 2); // redelivered after its deadline
        assertThat(receiver().texts()).containsExactly("to-slot-0", "to-slot-0");
        allSettled();
    }

    @Test
    void aNonNumericAttemptCountCountsAsZeroAndIsReplaced(RedisTestServer server) throws Exception {
        app = app(server).start();
        receiver().nackFirstDelivery(true);
        redis.hset("attempts{s_0}", "hand-written", "many");
        redis.zadd("s_0", 0, "hand-written");

        await().atMost(WAIT).until(() -> receiver().metadata().size() == 2);
        assertThat(receiver().metadata()).extracting(IncomingRmqMetadata::getAttempt).containsExactly(1, 2);
        allSettled();
        assertThat(redis.hgetall("attempts{s_0}")).isEmpty(); // committed: its count is forgotten
    }

    @Test
    void aTopicRecordedWithAnotherSlotAmountFailsTheDeploymentNamingBothDefinitions(RedisTestServer server) {
        redis.hset("rmq:topics", "s", "FIXED_TIME:8"); // another application got there first
        assertThatThrownBy(app(server)::start)
                .hasStackTraceContaining("RMQ-2014 Channel '")
                .hasStackTraceContaining("RMQ-0304 Topic 's' is recorded in Redis as type FIXED_TIME with"
                        + " slot-amount 8 but is used here as type FIXED_TIME with slot-amount 2");
        assertThat(redis.keys("s_*")).isEmpty();
    }

    @Test
    void aTopicRegistryOfTheWrongTypeFailsTheDeploymentNamingTheKey(RedisTestServer server) {
        redis.set("rmq:topics", "written by hand");
        assertThatThrownBy(app(server)::start)
                .hasStackTraceContaining("RMQ-2102 Channel '")
                .hasStackTraceContaining("RMQ-0340 register_topic.lua failed because key 'rmq:topics' (the topic"
                        + " registry) holds a string where a hash is expected");
        assertThat(redis.get("rmq:topics")).isEqualTo("written by hand"); // left for the operator to look at
    }

    private static ExecutionException catchNack(CompletableFuture<Void> settled) throws Exception {
        try {
            settled.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e;
        }
        throw new AssertionError("the message was acked");
    }
}
