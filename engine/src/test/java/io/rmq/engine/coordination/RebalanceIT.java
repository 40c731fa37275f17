package io.rmq.engine.coordination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;
import io.rmq.testing.zookeeper.ZooKeeperTest;
import io.rmq.testing.zookeeper.ZooKeeperTestServer;

/**
 * Workers leave cleanly and join while messages flow: the slots are reassigned evenly, handovers
 * never let two workers process one slot basis at once, and nothing is lost.
 */
@RedisTest
@ZooKeeperTest
class RebalanceIT {

    private CoordinationFixture fx;

    @BeforeEach
    void setUp(RedisTestServer redis, ZooKeeperTestServer zooKeeper) {
        fx = new CoordinationFixture(redis.uri(), zooKeeper.connectString());
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    @Test
    void aWorkerThatStopsCleanlyHandsItsSlotsToTheOthersWithoutOverlapOrLoss() {
        AppInstance a = fx.instance("app-a", 2);
        AppInstance b = fx.instance("app-b", 2);
        AppInstance c = fx.instance("app-c", 2);
        List<String> all = new ArrayList<>();
        for (AppInstance i : List.of(a, b, c)) {
            all.addAll(i.workerIdsWhenJoined());
        }
        fx.awaitOwners(all);
        CoordinationFixture.Sending sending = fx.sendContinuously(20, 40);
        await().atMost(CoordinationFixture.WAIT).until(() -> b.processed() > 50);

        long stoppedAt = System.nanoTime();
        b.close();
        List<String> survivors = new ArrayList<>(a.workerIds());
        survivors.addAll(c.workerIds());
        SlotAssignment after = fx.awaitOwners(survivors);
        Duration moved = Duration.ofNanos(System.nanoTime() - stoppedAt);
        CoordinationFixture.awaitConsumersFollow(after, List.of(a, c));
        sending.stop();
        fx.awaitAllProcessed();

        System.out.println("Slots of the stopped instance moved within " + moved.toMillis() + " ms");
        assertThat(fx.detector.overlaps()).isEmpty();
        assertThat(fx.detector.processed()).isEqualTo(fx.sent());
        assertThat(after.slotsByWorker()).hasSize(4);
    }

    @Test
    void aWorkerThatJoinsGetsItsShareAndTheHandoverKeepsKeysSerial() {
        AppInstance a = fx.instance("app-a", 2);
        AppInstance b = fx.instance("app-b", 1);
        List<String> before = new ArrayList<>(a.workerIdsWhenJoined());
        before.addAll(b.workerIdsWhenJoined());
        fx.awaitOwners(before);
        CoordinationFixture.Sending sending = fx.sendContinuously(20, 40);
        await().atMost(CoordinationFixture.WAIT).until(() -> fx.detector.processed() > 200);

        AppInstance c = fx.instance("app-c", 2);
        List<String> all = new ArrayList<>(before);
        all.addAll(c.workerIdsWhenJoined());
        SlotAssignment after = fx.awaitOwners(all);
        CoordinationFixture.awaitConsumersFollow(after, List.of(a, b, c));
        long processedByNewcomerBefore = c.processed();
        await().atMost(CoordinationFixture.WAIT).until(() -> c.processed() > processedByNewcomerBefore + 20);
        sending.stop();
        fx.awaitAllProcessed();

        assertThat(fx.detector.overlaps()).isEmpty();
        assertThat(fx.detector.processed()).isEqualTo(fx.sent());
        assertThat(after.slotsByWorker()).hasSize(5);
        for (String worker : c.workerIds()) {
            assertThat(after.slotsOf(worker)).as("the newcomer's share").hasSizeBetween(3, 4);
        }
    }
}
