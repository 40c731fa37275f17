package io.rmq.engine.coordination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;
import io.rmq.testing.zookeeper.ZooKeeperTest;
import io.rmq.testing.zookeeper.ZooKeeperTestServer;

/**
 * Workers in two JVMs share a topic's slots. A second process that crashes (killed, no cleanup)
 * loses its slots after its session expires, and its in-flight messages are redelivered after their
 * deadline; a second process frozen beyond its session timeout (as in a long GC pause) finds its
 * slots claimed by others when it wakes up: it pops nothing from them any more (fenced) and
 * finishes what it held while the new owners wait for it. No overlap, nothing lost.
 */
@RedisTest
@ZooKeeperTest
class CrossProcessIT {

    private CoordinationFixture fx;
    private WorkerProcess other;

    @BeforeEach
    void setUp(RedisTestServer redis, ZooKeeperTestServer zooKeeper) {
        fx = new CoordinationFixture(redis.uri(), zooKeeper.connectString());
    }

    @AfterEach
    void tearDown() throws Exception {
        if (other != null) {
            other.close();
        }
        fx.close();
    }

    @Test
    void aSecondProcessSharesTheSlotsAndItsCrashMovesThemWithoutOverlapOrLoss() throws Exception {
        other = WorkerProcess.start(fx.redisUri, fx.zooKeeper, "app-remote", 2, CoordinationFixture.PREPARE_TIMEOUT_MS);
        AppInstance local = fx.instance("app-local", 2);
        List<String> all = new ArrayList<>(other.awaitJoined());
        all.addAll(local.workerIdsWhenJoined());
        fx.awaitOwners(all);
        CoordinationFixture.Sending sending = fx.sendContinuously(20, 40);
        await().atMost(CoordinationFixture.WAIT).until(() -> fx.detector.processed() - local.processed() > 50);

        long killedAt = System.nanoTime();
        other.kill();
        fx.detector.processDied("app-remote");
        SlotAssignment after = fx.awaitOwners(local.workerIds());
        Duration moved = Duration.ofNanos(System.nanoTime() - killedAt);
        CoordinationFixture.awaitConsumersFollow(after, List.of(local));
        sending.stop();
        fx.awaitAllProcessed();

        System.out.println("Slots of the killed process moved within " + moved.toMillis() + " ms (session timeout "
                + CoordinationFixture.SESSION_TIMEOUT_MS + " ms)");
        assertThat(fx.detector.overlaps()).isEmpty();
        assertThat(fx.detector.processed()).isEqualTo(fx.sent());
    }

    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC})
    void aProcessFrozenBeyondItsSessionIsFencedWhenItWakesAndFinishesWhatItHeld(RedisConnections connections)
            throws Exception {
        // Deadlines well beyond the freeze: what the frozen process holds stays its own, and the new
        // owners wait for it (a freeze longer than the prepare timeout is the documented limit).
        long prepareTimeout = 20_000;
        other = WorkerProcess.start(fx.redisUri, fx.zooKeeper, "app-frozen", 2, prepareTimeout);
        AppInstance local = fx.instance("app-local", 2, CoordinationFixture.options()
                .prepareTimeout(Duration.ofMillis(prepareTimeout))
                .coordination(CoordinationFixture.coordination(fx.zooKeeper).build()).build());
        List<String> remote = other.awaitJoined();
        List<String> all = new ArrayList<>(remote);
        all.addAll(local.workerIdsWhenJoined());
        fx.awaitOwners(all);
        CoordinationFixture.Sending sending = fx.sendContinuously(20, 40);
        await().atMost(CoordinationFixture.WAIT).until(() -> fx.detector.processed() - local.processed() > 50);

        other.freeze();
        SlotAssignment takenOver = fx.awaitOwners(local.workerIds());
        // the new owners claim the slots, which fences the frozen process, and wait for its messages
        fx.awaitClaimed(takenOver, connections.sync());
        other.thaw();
        SlotAssignment rejoined = fx.awaitOwners(all);
        CoordinationFixture.awaitConsumersFollow(rejoined, List.of(local));
        sending.stop();
        fx.awaitAllProcessed();

        assertThat(fx.detector.overlaps()).isEmpty();
        assertThat(fx.detector.processed()).isEqualTo(fx.sent());
        assertThat(other.linesContaining("RMQ-0204")).as("the frozen process saw its session expire").isNotEmpty();
    }
}
