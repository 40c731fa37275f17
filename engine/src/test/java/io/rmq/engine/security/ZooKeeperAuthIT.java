package io.rmq.engine.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rmq.engine.RmqEngine;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.coordination.CoordinationOptions;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.LogRecorder;
import io.rmq.testing.RedisTestServer;
import io.rmq.testing.ZooKeeperTestServer;

/**
 * ZooKeeper digest authentication and ACLs on the connector's znodes, against a server that requires
 * authentication: a consumer with the credentials coordinates and consumes; a client without credentials is
 * turned away, and one authenticated as another user can neither read nor change the znodes.
 */
class ZooKeeperAuthIT {

    private static final String USER = "rmq-workers";
    private static final String PASSWORD = "zk-secret-51c2";
    private static final Duration WAIT = Duration.ofSeconds(15);

    private ZooKeeperTestServer zooKeeper;
    private RmqEngine engine;

    @BeforeEach
    void start() {
        zooKeeper = ZooKeeperTestServer.startRequiringAuthentication();
        engine = new RmqEngine(RedisTestServer.shared().uri()).start();
    }

    @AfterEach
    void stop() {
        engine.close();
        zooKeeper.close();
    }

    @Test
    void anAuthenticatedConsumerCoordinatesAndNoOtherClientReadsOrChangesItsZnodes() throws Exception {
        TopicDefinition topic = new TopicDefinition("zk-auth-" + System.nanoTime(), 4, TopicType.PRIORITY);
        TopicKeys keys = engine.registerTopic(topic).toCompletableFuture().get(10, TimeUnit.SECONDS);
        CoordinationOptions coordination = CoordinationOptions.builder(zooKeeper.connectString())
                .sessionTimeout(Duration.ofMillis(ZooKeeperTestServer.MAX_SESSION_TIMEOUT_MS))
                .rebalanceDelay(Duration.ZERO).digestCredentials(USER, PASSWORD).build();
        assertThat(coordination.toString()).doesNotContain(PASSWORD);
        BlockingQueue<Delivery> received = new LinkedBlockingQueue<>();
        try (TopicConsumer consumer = engine.consumer(keys,
                ConsumerOptions.builder().coordination(coordination).build(), "zk-auth")) {
            consumer.start(received::add);
            consumer.request(10);
            await().atMost(WAIT).until(() -> consumer.assignedSlots().length == 4);
            engine.producer(keys).sendWithPriority("coordinated".getBytes(StandardCharsets.UTF_8), 1, "k")
                    .toCompletableFuture().get(10, TimeUnit.SECONDS);
            Delivery d = received.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(d).isNotNull();
            d.commit().toCompletableFuture().get(10, TimeUnit.SECONDS);

            String topicNode = "/rmq/topics/" + topic.name();
            String assignment = topicNode + "/assignment";
            try (CuratorFramework owner = client(USER + ":" + PASSWORD)) {
                List<ACL> acl = owner.getACL().forPath(assignment);
                assertThat(acl).singleElement().satisfies(a -> {
                    assertThat(a.getId().getScheme()).isEqualTo("digest");
                    assertThat(a.getId().getId()).startsWith(USER + ":").doesNotContain(PASSWORD);
                    assertThat(a.getPerms()).isEqualTo(ZooDefs.Perms.ALL);
                });
                assertThat(owner.getACL().forPath("/rmq")).singleElement()
                        .satisfies(a -> assertThat(a.getId().getScheme()).isEqualTo("digest"));
            }
            try (CuratorFramework intruder = client("intruder:guess")) {
                assertThatThrownBy(() -> intruder.getData().forPath(assignment))
                        .isInstanceOf(KeeperException.NoAuthException.class);
                assertThatThrownBy(() -> intruder.getChildren().forPath(topicNode + "/workers"))
                        .isInstanceOf(KeeperException.NoAuthException.class);
                assertThatThrownBy(() -> intruder.setData().forPath(assignment, new byte[0]))
                        .isInstanceOf(KeeperException.NoAuthException.class);
                assertThatThrownBy(() -> intruder.delete().deletingChildrenIfNeeded().forPath(topicNode))
                        .isInstanceOf(KeeperException.NoAuthException.class);
                assertThatThrownBy(() -> intruder.create().forPath(topicNode + "/workers/fake"))
                        .isInstanceOf(KeeperException.NoAuthException.class);
            }
            try (CuratorFramework anonymous = client(null)) {
                assertThatThrownBy(() -> anonymous.getData().forPath(assignment)).isInstanceOf(KeeperException.class);
            }
            assertThat(consumer.assignedSlots()).hasSize(4);

            // a consumer with the wrong password is told so, and takes no slot from the legitimate one
            CoordinationOptions wrong = coordination.toBuilder().digestCredentials(USER, "not-" + PASSWORD).build();
            try (LogRecorder log = LogRecorder.record(EngineLogging.LOGGER_NAME);
                    TopicConsumer impostor = engine.consumer(keys,
                            ConsumerOptions.builder().coordination(wrong).build(), "zk-impostor")) {
                impostor.start(received::add);
                impostor.request(10);
                String line = log.await("refusing the impostor", m -> m.startsWith("RMQ-0240"), 1, WAIT).get(0);
                assertThat(line).contains("zk-impostor", topicNode + "/workers", "zookeeper-password")
                        .doesNotContain(PASSWORD);
                assertThat(impostor.assignedSlots()).isEmpty();
                assertThat(consumer.assignedSlots()).hasSize(4);
            }
        }
    }

    private CuratorFramework client(String digestAuth) throws InterruptedException {
        CuratorFrameworkFactory.Builder b = CuratorFrameworkFactory.builder().connectString(zooKeeper.connectString())
                .sessionTimeoutMs(ZooKeeperTestServer.MAX_SESSION_TIMEOUT_MS).connectionTimeoutMs(5_000)
                .retryPolicy(new RetryOneTime(100));
        if (digestAuth != null) {
            b.authorization("digest", digestAuth.getBytes(StandardCharsets.UTF_8));
        }
        CuratorFramework c = b.build();
        c.start();
        c.blockUntilConnected(10, TimeUnit.SECONDS);
        return c;
    }
}
