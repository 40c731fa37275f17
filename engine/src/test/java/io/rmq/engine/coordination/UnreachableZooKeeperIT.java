package io.rmq.engine.coordination;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.testing.Invariant;
import io.rmq.testing.LogRecorder;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;
import io.rmq.testing.zookeeper.ZooKeeperTest;
import io.rmq.testing.zookeeper.ZooKeeperTestServer;

/**
 * A consumer started while ZooKeeper is unreachable waits in a logged state (it owns no slot and
 * pops nothing, rather than consuming without coordination) and joins once ZooKeeper is up.
 */
@RedisTest
@ZooKeeperTest
class UnreachableZooKeeperIT {

    private LogRecorder log;
    private CoordinationFixture fx;

    @BeforeEach
    void setUp() {
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
    void aConsumerStartedWhileZooKeeperIsUnreachableLogsThatItWaitsPopsNothingAndJoinsOnceItIsUp(RedisTestServer redis,
            ZooKeeperTestServer zooKeeper, RedisConnections connections) {
        zooKeeper.stop(); // nothing answers on its port until it is restarted
        String connect = zooKeeper.connectString();
        fx = new CoordinationFixture(redis.uri(), connect);
        ConsumerOptions options = CoordinationFixture.options().coordination(CoordinationFixture.coordination(connect)
                .connectionTimeout(Duration.ofMillis(500)).build()).build();
        AppInstance waiting = fx.instance("app-waiting", 2, options);
        fx.send(10, 3);

        List<String> warnings = log.await("about the unreachable ZooKeeper", m -> m.startsWith("RMQ-0201"), 1,
                CoordinationFixture.WAIT);
        assertThat(warnings.get(0)).contains(connect).contains("pop nothing until it is reached");
        // "Pops nothing" takes time to show: a worker that consumed without coordination would pop the
        // 30 due messages as soon as it is connected to Redis (before the warning), and again every
        // poll interval (500 ms).
        Invariant.holdsFor(Duration.ofMillis(600), "the 30 messages left in the store queues, no slot owned",
                () -> fx.stored(connections.sync()) == 30 && fx.popped(connections.sync()) == 0
                        && waiting.consumers().stream().allMatch(c -> c.assignedSlots().length == 0));
        assertThat(fx.detector.processed()).isZero();

        zooKeeper.restart();
        fx.awaitAllProcessed();
        assertThat(fx.detector.overlaps()).isEmpty();
        assertThat(log.messagesContaining("RMQ-0202 Connected to ZooKeeper at " + connect)).hasSize(1);
    }
}
