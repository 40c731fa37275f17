package io.rmq.badinput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.eclipse.microprofile.reactive.messaging.spi.ConnectorLiteral;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rmq.connector.ChannelSnapshot.State;
import io.rmq.connector.ChannelSnapshot;
import io.rmq.connector.RedisRmqConnector;
import io.rmq.testing.LogRecorder;
import io.rmq.testing.WeldApp;
import io.rmq.testing.faults.FaultProxy;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;
import io.rmq.testing.zookeeper.ZooKeeperTest;
import io.rmq.testing.zookeeper.ZooKeeperTestServer;

/**
 * The catalogue of servers that are down or slow (docs/bad-input.md), through SmallRye on Weld: Redis
 * unreachable at start or lost later, Redis paused at start or later, ZooKeeper unreachable at start
 * for a coordinated channel. Channels report the outage, each message is held, nacked or kept as
 * documented, and the flow resumes by itself once the server is back.
 */
@RedisTest
@ZooKeeperTest
class BadServersIT {

    private static final String RMQ = RedisRmqConnector.CONNECTOR_NAME;
    /** Generous upper bound of every wait, never an expected duration. */
    private static final Duration WAIT = Duration.ofSeconds(30);

    private WeldApp app;
    private FaultProxy proxy;
    private LogRecorder log;

    @BeforeEach
    void record() {
        log = LogRecorder.record("io.rmq");
    }

    @AfterEach
    void tearDown() {
        try {
            if (app != null) {
                app.close();
            }
        } finally {
            if (proxy != null) {
                proxy.close();
            }
            log.close();
        }
    }

    private static WeldApp.Builder app(String redisUri, Object... incomingAttributes) {
        WeldApp.Builder builder = WeldApp.builder()
                .beans(RedisRmqConnector.class, BadInputBeans.Sender.class, BadInputBeans.Receiver.class)
                .config("mp.messaging.connector." + RMQ + ".redis-uri", redisUri)
                .incoming("in", RMQ, "topic", "t", "topic-type", "FIXED_TIME", "slot-amount", 1, "poll-interval", 500,
                        "shutdown-timeout", 1000)
                .outgoing("out", RMQ, "topic", "t", "topic-type", "FIXED_TIME", "slot-amount", 1);
        for (int i = 0; i + 1 < incomingAttributes.length; i += 2) {
            builder.config("mp.messaging.incoming.in." + incomingAttributes[i], incomingAttributes[i + 1]);
        }
        return builder;
    }

    private CompletableFuture<Void> send(String payload) {
        return app.get(BadInputBeans.Sender.class).send(payload);
    }

    private void received(String payload) {
        await().atMost(WAIT).until(() -> app.get(BadInputBeans.Receiver.class).texts().contains(payload));
    }

    private void awaitStates(State in, State out) {
        await().atMost(WAIT).untilAsserted(() -> {
            Map<String, ChannelSnapshot> snapshots = app.container()
                    .select(RedisRmqConnector.class, ConnectorLiteral.of(RMQ)).get().channelSnapshots().stream()
                    .collect(Collectors.toMap(ChannelSnapshot::channel, Function.identity()));
            assertThat(snapshots.get("in").state()).isEqualTo(in);
            assertThat(snapshots.get("out").state()).isEqualTo(out);
        });
    }

    @Test
    void redisUnreachableAtStartHoldsSendsUntilItIsReached(RedisTestServer redis) throws Exception {
        proxy = FaultProxy.to(redis.port());
        proxy.cut();
        app = app("redis://127.0.0.1:" + proxy.port()).start(); // the deployment does not fail

        awaitStates(State.CONNECTING, State.CONNECTING);
        CompletableFuture<Void> early = send("sent-before-redis");
        log.await("RMQ-0003", m -> m.startsWith("RMQ-0003 Redis at redis://127.0.0.1:" + proxy.port()
                + " is unreachable (attempt "), 2, WAIT);
        assertThat(early).isNotDone(); // held (within max-inflight), neither written nor refused

        proxy.restore();
        early.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        received("sent-before-redis");
        awaitStates(State.UP, State.UP);
    }

    @Test
    void redisLostLaterNacksSendsAtOnceThenTheFlowResumes(RedisTestServer redis) throws Exception {
        app = app(redis.uri()).start();
        send("before").get(WAIT.toSeconds(), TimeUnit.SECONDS);
        received("before");

        redis.stop();
        awaitStates(State.REDIS_UNREACHABLE, State.REDIS_UNREACHABLE);
        log.await("RMQ-0002", m -> m.startsWith("RMQ-0002 Lost the connection to Redis at " + redis.uri()), 1, WAIT);
        CompletableFuture<Void> during = send("during");
        ExecutionException nack = null;
        try {
            during.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            nack = e;
        }
        assertThat(nack).as("a send while Redis is down is nacked, not left in doubt").isNotNull();
        assertThat(nack.getCause()).hasMessageStartingWith("RMQ-2103 Channel 'out' could not send a message to topic"
                + " 't' at Redis " + redis.uri() + " (channel attribute 'redis-uri'): ");
        assertThat(log.messagesContaining("RMQ-1012 Channel 'out' failed to send a message to topic 't'")).hasSize(1);

        redis.start(); // empty: this test server keeps no data
        awaitStates(State.UP, State.UP);
        send("after").get(WAIT.toSeconds(), TimeUnit.SECONDS);
        received("after");
    }

    @Test
    void redisPausedAtStartDelaysTheDeploymentOnly(RedisTestServer redis) throws Exception {
        redis.command("CLIENT", "PAUSE", "1500", "ALL");
        app = app(redis.uri()).start();

        send("while-paused").get(WAIT.toSeconds(), TimeUnit.SECONDS);
        received("while-paused");
        awaitStates(State.UP, State.UP);
    }

    @Test
    void redisPausedLaterHoldsSendsAndPopsUntilItAnswersNothingIsNacked(RedisTestServer redis) throws Exception {
        app = app(redis.uri()).start();
        send("before").get(WAIT.toSeconds(), TimeUnit.SECONDS);
        received("before");

        redis.command("CLIENT", "PAUSE", "2000", "WRITE"); // scripts wait, as behind a slow or busy server
        CompletableFuture<Void> during = send("during-pause");
        during.get(WAIT.toSeconds(), TimeUnit.SECONDS); // acked once Redis answers, within the command timeout
        received("during-pause");
        assertThat(log.messagesContaining("RMQ-1012")).isEmpty();
    }

    @Test
    void zooKeeperUnreachableAtStartKeepsACoordinatedChannelFromPoppingUntilItIsReached(RedisTestServer redis,
            ZooKeeperTestServer zooKeeper) throws Exception {
        zooKeeper.stop();
        app = app(redis.uri(), "zookeeper-connect", zooKeeper.connectString(), "zookeeper-root", "/rmq-badinput",
                "zookeeper-session-timeout", 2_000, "zookeeper-connection-timeout", 2_000).start();

        awaitStates(State.ZOOKEEPER_UNREACHABLE, State.UP);
        send("waiting-for-zookeeper").get(WAIT.toSeconds(), TimeUnit.SECONDS); // producers need no ZooKeeper
        log.await("RMQ-0201", m -> m.startsWith("RMQ-0201 ZooKeeper at " + zooKeeper.connectString()
                + " has not been reached"), 1, WAIT);
        assertThat(redis.command("ZCARD", "t_0")).isEqualTo("1"); // kept in Redis, not popped

        zooKeeper.restart();
        received("waiting-for-zookeeper");
        awaitStates(State.UP, State.UP);
    }
}
