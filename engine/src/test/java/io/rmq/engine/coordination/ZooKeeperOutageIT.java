package io.rmq.engine.coordination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.curator.test.InstanceSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rmq.testing.Invariant;
import io.rmq.testing.LogRecorder;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;
import io.rmq.testing.zookeeper.ZooKeeperTest;
import io.rmq.testing.zookeeper.ZooKeeperTestEnsemble;
import io.rmq.testing.zookeeper.ZooKeeperTestServer;

/**
 * ZooKeeper itself fails: a single server is down for longer than the session timeout, and a
 * three-server ensemble loses its leader. Consumption pauses safely (nothing is popped without a
 * confirmed ownership) and resumes; nothing is lost and no key is processed twice at once.
 */
@RedisTest
@ZooKeeperTest
class ZooKeeperOutageIT {

    private String redisUri;
    private LogRecorder log;
    private CoordinationFixture fx;

    @BeforeEach
    void setUp(RedisTestServer redis) {
        redisUri = redis.uri();
        log = LogRecorder.record("io.rmq");
    }

    @AfterEach
    void tearDown() {
        log.close();
        if (fx != null) {
            fx.close();
        }
    }

    @Test
    void whileZooKeeperIsDownNothingIsPoppedAndAfterItsReturnEverythingIsConsumed(ZooKeeperTestServer zooKeeper,
            RedisConnections connections) {
        fx = new CoordinationFixture(redisUri, zooKeeper.connectString());
        AppInstance a = fx.instance("app-a", 2);
        AppInstance b = fx.instance("app-b", 2);
        List<String> all = new ArrayList<>(a.workerIdsWhenJoined());
        all.addAll(b.workerIdsWhenJoined());
        fx.awaitOwners(all);
        fx.send(20, 5);
        fx.awaitAllProcessed();

        zooKeeper.stop();
        log.await("about each worker stopping", m -> m.startsWith("RMQ-0213") && m.contains("stops popping"), 4,
                CoordinationFixture.WAIT);
        long processedBefore = fx.detector.processed();
        fx.send(20, 5);
        log.await("about each worker giving its slots up", m -> m.startsWith("RMQ-0213") && m.contains("gave up"), 4,
                CoordinationFixture.WAIT);
        // "Nothing is popped" takes time to show: a worker that went on popping would take the 100 due
        // messages within a poll interval (500 ms).
        Invariant.holdsFor(Duration.ofMillis(600), "the 100 messages sent during the outage left in the store queues",
                () -> fx.stored(connections.sync()) == 100 && fx.detector.processed() == processedBefore);
        assertThat(a.consumers()).allSatisfy(c -> assertThat(c.assignedSlots()).isEmpty());
        assertThat(b.consumers()).allSatisfy(c -> assertThat(c.assignedSlots()).isEmpty());

        zooKeeper.restart();
        fx.awaitAllProcessed();
        fx.awaitOwners(all);

        assertThat(fx.detector.overlaps()).isEmpty();
        assertThat(fx.detector.processed()).isEqualTo(fx.sent());
    }

    @Test
    void whenTheEnsembleLosesItsLeaderConsumptionPausesAndResumes(ZooKeeperTestEnsemble ensemble) {
        fx = new CoordinationFixture(redisUri, ensemble.connectString());
        AppInstance a = fx.instance("app-a", 2);
        AppInstance b = fx.instance("app-b", 2);
        List<String> all = new ArrayList<>(a.workerIdsWhenJoined());
        all.addAll(b.workerIdsWhenJoined());
        fx.awaitOwners(all);
        CoordinationFixture.Sending sending = fx.sendContinuously(20, 40);
        await().atMost(CoordinationFixture.WAIT).until(() -> fx.detector.processed() > 100);

        InstanceSpec leader = ensemble.leader().orElseThrow();
        ensemble.kill(leader);
        // the remaining servers drop their clients while they elect a new leader: every worker pauses
        log.await("about each worker stopping", m -> m.startsWith("RMQ-0213") && m.contains("stops popping"), 4,
                CoordinationFixture.WAIT);
        InstanceSpec next = ensemble.awaitLeader(CoordinationFixture.WAIT.toMillis());
        long processedAfterElection = fx.detector.processed();
        await().atMost(CoordinationFixture.WAIT).until(() -> fx.detector.processed() > processedAfterElection + 100);
        sending.stop();
        fx.awaitAllProcessed();
        SlotAssignment after = fx.awaitOwners(all);

        assertThat(next).isNotEqualTo(leader);
        assertThat(fx.detector.overlaps()).isEmpty();
        assertThat(fx.detector.processed()).isEqualTo(fx.sent());
        assertThat(after.slotsByWorker()).hasSize(4);
    }
}
