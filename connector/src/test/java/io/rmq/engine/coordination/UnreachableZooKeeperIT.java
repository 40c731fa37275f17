package io.rmq.engine.coordination;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rmq.engine.ConsumerOptions;
import io.rmq.testing.LogRecorder;
import io.rmq.testing.RedisTest;
import io.rmq.testing.RedisTestServer;
import io.rmq.testing.ZooKeeperTestServer;

/**
 * A consumer started while ZooKeeper is unreachable waits in a logged state (it owns no slot and
 * pops nothing, rather than consuming without coordination) and joins once ZooKeeper is up.
 */
@RedisTest
class UnreachableZooKeeperIT {

    private String redisUri;
    private LogRecorder log;
    private CoordinationFixture fx;
    private ZooKeeperTestServer lateZooKeeper;

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
        if (lateZooKeeper != null) {
            lateZooKeeper.close();
        }
    }

    @Test
    void aConsumerStartedWhileZooKeeperIsUnreachableLogsThatItWaitsPopsNothingAndJoinsOnceItIsUp() {
        int port = ZooKeeperTestServer.freePort();
        String connect = "127.0.0.1:" + port;
        fx = new CoordinationFixture(redisUri, connect);
        ConsumerOptions options = CoordinationFixture.options().coordination(CoordinationFixture.coordination(connect)
                .connectionTimeout(Duration.ofMillis(500)).build()).build();
        AppInstance waiting = fx.instance("app-waiting", 2, options);
        fx.send(10, 3);

        List<String> warnings = log.await("about the unreachable ZooKeeper", m -> m.startsWith("RMQ-0201"), 1,
                CoordinationFixture.WAIT);
        CoordinationFixture.sleep(300);

        assertThat(warnings.get(0)).contains(connect).contains("pop nothing until it is reached");
        assertThat(fx.detector.processed()).isZero();
        assertThat(waiting.consumers()).allSatisfy(c -> assertThat(c.assignedSlots()).isEmpty());

        lateZooKeeper = ZooKeeperTestServer.startOn(port);
        fx.awaitAllProcessed();
        assertThat(fx.detector.overlaps()).isEmpty();
        assertThat(log.messagesContaining("RMQ-0202 Connected to ZooKeeper at " + connect)).hasSize(1);
    }
}
