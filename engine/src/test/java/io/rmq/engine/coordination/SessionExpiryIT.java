package io.rmq.engine.coordination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rmq.engine.consume.TopicConsumer;
import io.rmq.testing.LogRecorder;
import io.rmq.testing.faults.FaultProxy;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;
import io.rmq.testing.zookeeper.ZooKeeperTest;
import io.rmq.testing.zookeeper.ZooKeeperTestServer;

/**
 * An instance cut off from ZooKeeper, but not from Redis (a partition), while messages flow: it
 * stops popping at once, its session expires, its slots move to the other instances within about
 * the session timeout while it finishes and commits what it holds, and when the network heals it
 * rejoins and gets a share again. No overlap, nothing lost.
 */
@RedisTest
@ZooKeeperTest
class SessionExpiryIT {

    private FaultProxy proxy;
    private CoordinationFixture fx;
    private LogRecorder log;

    @BeforeEach
    void setUp(RedisTestServer redis, ZooKeeperTestServer zooKeeper) {
        proxy = FaultProxy.to(zooKeeper.port());
        fx = new CoordinationFixture(redis.uri(), zooKeeper.connectString());
        log = LogRecorder.record("io.rmq");
    }

    @AfterEach
    void tearDown() {
        log.close();
        fx.close();
        proxy.close();
    }

    @Test
    void aPartitionedInstanceLosesItsSlotsToTheOthersAndRejoinsWhenTheNetworkHeals() {
        AppInstance cutOff = fx.instance("app-cut", 2, CoordinationFixture.options()
                .coordination(CoordinationFixture.coordination(proxy.address()).build()).build());
        AppInstance b = fx.instance("app-b", 2);
        AppInstance c = fx.instance("app-c", 1);
        List<String> all = new ArrayList<>(cutOff.workerIdsWhenJoined());
        all.addAll(b.workerIdsWhenJoined());
        all.addAll(c.workerIdsWhenJoined());
        fx.awaitOwners(all);
        CoordinationFixture.Sending sending = fx.sendContinuously(20, 40);
        await().atMost(CoordinationFixture.WAIT).until(() -> cutOff.processed() > 30);

        long cutAt = System.nanoTime();
        proxy.cut();
        log.await("about the partitioned workers stopping", m -> m.startsWith("RMQ-0213 Worker app-cut")
                && m.contains("stops popping"), 2, CoordinationFixture.WAIT);
        List<String> survivors = new ArrayList<>(b.workerIds());
        survivors.addAll(c.workerIds());
        SlotAssignment without = fx.awaitOwners(survivors);
        Duration moved = Duration.ofNanos(System.nanoTime() - cutAt);
        CoordinationFixture.awaitConsumersFollow(without, List.of(b, c));
        log.await("about the expired session", m -> m.startsWith("RMQ-0204"), 1, CoordinationFixture.WAIT);
        await().atMost(CoordinationFixture.WAIT).until(() -> cutOff.consumers().stream()
                .allMatch(w -> w.assignedSlots().length == 0 && w.heldCount() == 0));

        proxy.restore();
        SlotAssignment rejoined = fx.awaitOwners(all);
        CoordinationFixture.awaitConsumersFollow(rejoined, List.of(cutOff, b, c));
        long before = cutOff.processed();
        await().atMost(CoordinationFixture.WAIT).until(() -> cutOff.processed() > before + 10);
        sending.stop();
        fx.awaitAllProcessed();

        System.out.println("Slots of the partitioned instance moved within " + moved.toMillis() + " ms (session timeout "
                + CoordinationFixture.SESSION_TIMEOUT_MS + " ms)");
        assertThat(fx.detector.overlaps()).isEmpty();
        assertThat(fx.detector.processed()).isEqualTo(fx.sent());
        assertThat(without.slotsByWorker()).as("while the partition lasted, its slots moved to the other workers")
                .doesNotContainKeys(cutOff.workerIdsWhenJoined().toArray(String[]::new)).hasSize(survivors.size());
        for (TopicConsumer w : cutOff.consumers()) {
            assertThat(rejoined.slotsOf(w.workerId().orElseThrow())).isNotEmpty();
        }
    }
}
