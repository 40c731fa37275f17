package io.rmq.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.RedisExtension;
import io.rmq.testing.RedisTestServer;
import io.rmq.testing.WeldApp;

/**
 * Channels of a topic that grows online: a running application's channels follow the growth (the incoming one
 * consumes the new slots, the outgoing one routes by the new amount) without restart; an application still
 * configured with the old {@code slot-amount} starts and works; one configured with more slots than Redis
 * records fails to deploy.
 */
@ExtendWith(RedisExtension.class)
class TopicGrowthChannelsIT {

    private static final String RMQ = RedisRmqConnector.CONNECTOR_NAME;
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final List<WeldApp> apps = new ArrayList<>();

    @AfterEach
    void tearDown() {
        apps.forEach(WeldApp::close);
    }

    private WeldApp start(RedisTestServer redis, int slotAmount) {
        WeldApp app = WeldApp.builder().beans(RedisRmqConnector.class)
                .beans(ConnectorBeans.Sender.class, ConnectorBeans.Receiver.class)
                .config("mp.messaging.connector." + RMQ + ".redis-uri", redis.uri())
                .outgoing("out", RMQ, "topic", "jobs", "topic-type", "PRIORITY", "slot-amount", slotAmount)
                .incoming("in", RMQ, "topic", "jobs", "topic-type", "PRIORITY", "slot-amount", slotAmount,
                        "poll-interval", 200, "retry-backoff", 0, "shutdown-timeout", 2000)
                .start();
        apps.add(app);
        return app;
    }

    private static List<CompletableFuture<Void>> send(WeldApp app, String prefix, int count) {
        List<CompletableFuture<Void>> sent = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            sent.add(app.get(ConnectorBeans.Sender.class).send(prefix + i,
                    OutgoingRmqMetadata.builder().withPriority(1).withSlotBasis("key-" + i).build()).toCompletableFuture());
        }
        return sent;
    }

    @Test
    void runningChannelsFollowTheGrowthAndTheOldConfigurationKeepsWorking(RedisTestServer redis) {
        WeldApp app = start(redis, 2);
        CompletableFuture.allOf(send(app, "before-", 20).toArray(CompletableFuture[]::new)).join();
        ConnectorBeans.Receiver receiver = app.get(ConnectorBeans.Receiver.class);
        await().atMost(WAIT).until(() -> receiver.payloads().size() == 20);

        try (RmqAdmin admin = RmqAdmin.connect(redis.uri())) {
            admin.growTopic(new TopicDefinition("jobs", 2, TopicType.PRIORITY), 8);
        }
        CompletableFuture.allOf(send(app, "after-", 40).toArray(CompletableFuture[]::new)).join();
        await().atMost(WAIT).until(() -> receiver.payloads().size() == 60);
        assertThat(receiver.metadata()).as("slots of the deliveries").anyMatch(m -> m.getSlot() >= 2);

        apps.remove(app);
        app.close();
        WeldApp restarted = start(redis, 2);
        CompletableFuture.allOf(send(restarted, "restarted-", 20).toArray(CompletableFuture[]::new)).join();
        ConnectorBeans.Receiver again = restarted.get(ConnectorBeans.Receiver.class);
        await().atMost(WAIT).until(() -> again.payloads().size() == 20);
        assertThat(again.metadata()).as("slots of the deliveries").anyMatch(m -> m.getSlot() >= 2);
    }

    @Test
    void moreSlotsThanRedisRecordsFailTheDeployment(RedisTestServer redis) {
        try (io.rmq.engine.RmqEngine engine = new io.rmq.engine.RmqEngine(redis.uri()).start()) {
            engine.registerTopic(new TopicDefinition("jobs", 4, TopicType.PRIORITY)).toCompletableFuture().join();
        }

        assertThatThrownBy(() -> start(redis, 8))
                .hasStackTraceContaining("RMQ-2014: Channel '")
                .hasStackTraceContaining("RMQ-0410 Topic 'jobs' has 4 slots in Redis but is used here with slot-amount 8");
    }
}
