package io.rmq.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.eclipse.microprofile.reactive.messaging.spi.ConnectorLiteral;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rmq.connector.ChannelSnapshot.State;
import io.rmq.connector.config.Direction;
import io.rmq.testing.WeldApp;
import io.rmq.testing.faults.FaultProxy;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;
import io.rmq.testing.zookeeper.ZooKeeperTest;
import io.rmq.testing.zookeeper.ZooKeeperTestServer;

/**
 * {@link RedisRmqConnector#channelSnapshots()} in SmallRye Reactive Messaging on Weld SE, against a
 * real Redis and ZooKeeper that the tests stop and start again: each channel's state follows the
 * outage, and a topic conflict found after the deployment fails the channels for good.
 */
@RedisTest
@ZooKeeperTest
class ChannelSnapshotsIT {

    private static final String RMQ = RedisRmqConnector.CONNECTOR_NAME;
    /** Generous upper bound of every wait, never an expected duration. */
    private static final Duration WAIT = Duration.ofSeconds(30);

    private WeldApp app;
    private FaultProxy proxy;

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
        }
    }

    private static WeldApp.Builder app(String redisUri, Class<?>... beans) {
        return WeldApp.builder().beans(RedisRmqConnector.class).beans(beans)
                .config("mp.messaging.connector." + RMQ + ".redis-uri", redisUri)
                .outgoing("out", RMQ, "topic", "tasks", "topic-type", "PRIORITY", "slot-amount", 1);
    }

    private static Object[] incomingTasks(Object... more) {
        Object[] base = { "topic", "tasks", "topic-type", "PRIORITY", "slot-amount", 1, "poll-interval", 500,
            "shutdown-timeout", 1_000 };
        Object[] all = new Object[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    private RedisRmqConnector connector() {
        return app.container().select(RedisRmqConnector.class, ConnectorLiteral.of(RMQ)).get();
    }

    private Map<String, ChannelSnapshot> snapshots() {
        return connector().channelSnapshots().stream()
                .collect(Collectors.toMap(ChannelSnapshot::channel, Function.identity()));
    }

    private void awaitStates(State in, State out) {
        await().atMost(WAIT).untilAsserted(() -> assertThat(snapshots())
                .hasEntrySatisfying("in", s -> assertThat(s.state()).isEqualTo(in))
                .hasEntrySatisfying("out", s -> assertThat(s.state()).isEqualTo(out)));
    }

    @Test
    void channelsAreUpWhileRedisAnswersAndUnreachableWhileItIsDown(RedisTestServer redis) {
        app = app(redis.uri(), ConnectorBeans.Sender.class, ConnectorBeans.Receiver.class)
                .incoming("in", RMQ, incomingTasks()).start();

        awaitStates(State.UP, State.UP);
        List<ChannelSnapshot> all = connector().channelSnapshots();
        assertThat(all).extracting(ChannelSnapshot::channel, ChannelSnapshot::direction, ChannelSnapshot::topic,
                ChannelSnapshot::redisUri, ChannelSnapshot::wasRedisReached, ChannelSnapshot::isCoordinated)
                .containsExactly(
                        tuple("in", Direction.INCOMING, "tasks", redis.uri(), true, false),
                        tuple("out", Direction.OUTGOING, "tasks", redis.uri(), true, false));
        assertThat(all).allSatisfy(s -> assertThat(s.isReady()).isTrue());

        redis.stop();
        awaitStates(State.REDIS_UNREACHABLE, State.REDIS_UNREACHABLE);
        assertThat(snapshots().values()).allSatisfy(s -> {
            assertThat(s.isReady()).isFalse();
            assertThat(s.isAlive()).isTrue();
            assertThat(s.hasStarted()).isTrue();
        });

        redis.start();
        awaitStates(State.UP, State.UP);

        connector().shutdown(); // as when the application stops
        assertThat(snapshots().values()).extracting(ChannelSnapshot::state).containsOnly(State.STOPPED);
    }

    @Test
    void channelsConnectingAtDeploymentHaveNotStartedUntilRedisIsReached(RedisTestServer redis) {
        proxy = FaultProxy.to(redis.port());
        proxy.cut();
        app = app("redis://127.0.0.1:" + proxy.port(), ConnectorBeans.Sender.class, ConnectorBeans.Receiver.class)
                .incoming("in", RMQ, incomingTasks()).start();

        awaitStates(State.CONNECTING, State.CONNECTING);
        assertThat(snapshots().values()).allSatisfy(s -> {
            assertThat(s.hasStarted()).isFalse();
            assertThat(s.isReady()).isFalse();
            assertThat(s.isAlive()).isTrue();
        });

        proxy.restore();
        awaitStates(State.UP, State.UP);
        assertThat(snapshots().values()).allSatisfy(s -> assertThat(s.hasStarted()).isTrue());
    }

    @Test
    void aTopicConflictFoundAfterTheDeploymentFailsBothChannelsForGood(RedisTestServer redis) {
        proxy = FaultProxy.to(redis.port());
        proxy.cut();
        app = app("redis://127.0.0.1:" + proxy.port(), ConnectorBeans.Sender.class, ConnectorBeans.Receiver.class)
                .incoming("in", RMQ, incomingTasks()).start();
        awaitStates(State.CONNECTING, State.CONNECTING);
        redis.command("HSET", "rmq:topics", "tasks", "FIXED_TIME:1"); // another application got there first

        proxy.restore();

        awaitStates(State.FAILED, State.FAILED);
        assertThat(snapshots().values()).allSatisfy(s -> {
            assertThat(s.isAlive()).isFalse();
            assertThat(s.isReady()).isFalse();
            assertThat(s.failure()).hasValueSatisfying(f -> assertThat(f)
                    .hasMessageContaining("type FIXED_TIME with slot-amount 1")
                    .hasMessageContaining("type PRIORITY with slot-amount 1"));
        });
    }

    @Test
    void aCoordinatedChannelIsReadyOnlyWhileItsZooKeeperConnectionIsUp(RedisTestServer redis, ZooKeeperTestServer zooKeeper) {
        zooKeeper.stop(); // not reachable at deployment
        app = app(redis.uri(), ConnectorBeans.Sender.class, ConnectorBeans.Receiver.class)
                .incoming("in", RMQ, incomingTasks("zookeeper-connect", zooKeeper.connectString(),
                        "zookeeper-root", "/rmq-health", "zookeeper-session-timeout", 2_000,
                        "zookeeper-connection-timeout", 2_000))
                .start();

        awaitStates(State.ZOOKEEPER_UNREACHABLE, State.UP);
        assertThat(snapshots().get("in").isCoordinated()).isTrue();
        assertThat(snapshots().get("in").isReady()).isFalse();

        zooKeeper.restart();
        awaitStates(State.UP, State.UP);
        assertThat(snapshots().get("in").isCoordinationConnected()).isTrue();

        zooKeeper.stop();
        awaitStates(State.ZOOKEEPER_UNREACHABLE, State.UP);

        zooKeeper.restart();
        awaitStates(State.UP, State.UP);
    }
}
