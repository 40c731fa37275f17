package io.rmq.engine.coordination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rmq.engine.admin.RmqAdmin;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;
import io.rmq.testing.zookeeper.ZooKeeperTest;
import io.rmq.testing.zookeeper.ZooKeeperTestServer;

/**
 * Growing a topic whose consumers coordinate through ZooKeeper: while keyed messages are sent and processed
 * the topic grows from 16 to 64 slots; the leader assigns the new slots, every worker follows, every message
 * is processed, and no two messages of one slot basis are ever processed at once, across the old slot and its
 * new half.
 */
@RedisTest
@ZooKeeperTest
class TopicGrowthCoordinationIT {

    CoordinationFixture fx;

    @BeforeEach
    void setUp(RedisTestServer redis, ZooKeeperTestServer zooKeeper) {
        fx = fixture(redis, zooKeeper);
    }

    /** The queue on the shared server; a subclass puts it on a cluster. */
    CoordinationFixture fixture(RedisTestServer redis, ZooKeeperTestServer zooKeeper) {
        return new CoordinationFixture(redis.uri(), zooKeeper.connectString());
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    @Test
    void aGrowthUnderLoadAssignsTheNewSlotsAndProcessesNoKeyTwiceAtOnce() {
        List<AppInstance> instances = new ArrayList<>();
        for (String name : List.of("app-a", "app-b")) {
            instances.add(fx.instance(name, 2));
        }
        List<String> workers = instances.stream().flatMap(i -> i.workerIdsWhenJoined().stream()).toList();
        fx.awaitOwners(workers);
        CoordinationFixture.Sending sending = fx.sendContinuously(24, 10);
        await().atMost(CoordinationFixture.WAIT).until(() -> fx.detector.processed() > 200);

        try (RmqAdmin admin = RmqAdmin.connect(fx.redisUri)) {
            assertThat(admin.growTopic(fx.topic, 64).slotAmount()).isEqualTo(64);
        }
        SlotAssignment grown = fx.awaitAssignment("64 slots over " + workers, a -> a.slotAmount() == 64
                && a.slotsByWorker().keySet().containsAll(workers)
                && a.slotsByWorker().values().stream().allMatch(slots -> slots.size() == 16));
        CoordinationFixture.awaitConsumersFollow(grown, instances);
        int sentAfterGrowth = fx.sent();
        await().atMost(CoordinationFixture.WAIT).until(() -> fx.sent() > sentAfterGrowth + 200);
        sending.stop();
        fx.awaitAllProcessed();

        assertThat(fx.detector.overlaps()).isEmpty();
        assertThat(fx.detector.processed()).isEqualTo(fx.sent());
    }
}
