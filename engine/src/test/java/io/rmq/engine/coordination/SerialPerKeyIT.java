package io.rmq.engine.coordination;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;
import io.rmq.testing.zookeeper.ZooKeeperTest;
import io.rmq.testing.zookeeper.ZooKeeperTestServer;

/**
 * Serial consumption per slot basis: several application instances, each with several workers and
 * processing threads, consume many keys; no two messages of one slot basis are ever processed at
 * the same time. Without coordination the same setup overlaps, which shows the detector works.
 */
@RedisTest
@ZooKeeperTest
class SerialPerKeyIT {

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
    void withCoordinationNoTwoMessagesOfOneKeyAreProcessedAtOnce() {
        List<AppInstance> instances = new ArrayList<>();
        for (String name : List.of("app-a", "app-b", "app-c")) {
            instances.add(fx.instance(name, 2));
        }
        List<String> workers = instances.stream().flatMap(i -> i.workerIdsWhenJoined().stream()).toList();
        SlotAssignment assignment = fx.awaitOwners(workers);
        CoordinationFixture.awaitConsumersFollow(assignment, instances);

        fx.send(40, 25);
        fx.awaitAllProcessed();

        assertThat(fx.detector.overlaps()).isEmpty();
        assertThat(fx.detector.processed()).isEqualTo(fx.sent());
        assertThat(workers).hasSize(6);
        assertThat(assignment.slotsByWorker().values()).allSatisfy(slots -> assertThat(slots).hasSizeBetween(2, 3));
    }

    @Test
    void aFreshAssignmentStartsAboveTheEpochsRedisHasSeen(RedisTestServer redis, ZooKeeperTestServer zooKeeper,
            RedisConnections connections) {
        // as after the coordination data in ZooKeeper was lost: Redis still knows an owner under epoch 100,
        // and an assignment starting again from 1 would be fenced on that slot forever
        connections.sync().hset("owner{serial_3}", "epoch", "100");
        fx.close();
        fx = new CoordinationFixture(redis.uri(), zooKeeper.connectString(), "/recreated");
        AppInstance a = fx.instance("app-a", 2);

        SlotAssignment assignment = fx.awaitOwners(a.workerIdsWhenJoined());
        fx.send(20, 5);
        fx.awaitAllProcessed();

        assertThat(assignment.generation()).isEqualTo(101);
        assertThat(connections.sync().hget("owner{serial_3}", "epoch")).isEqualTo("101");
        assertThat(fx.detector.overlaps()).isEmpty();
    }

    @Test
    void withoutCoordinationTheSameWorkloadOverlapsWhichShowsTheDetectorWorks() {
        for (String name : List.of("app-a", "app-b", "app-c")) {
            fx.instance(name, 2, CoordinationFixture.options().build());
        }

        fx.send(40, 25);
        fx.awaitAllProcessed();

        assertThat(fx.detector.overlaps()).isNotEmpty();
        assertThat(fx.detector.processed()).isEqualTo(fx.sent());
    }
}
