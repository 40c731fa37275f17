package io.rmq.engine;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rmq.testing.redis.RedisSentinelTestServer;

/**
 * The master of a Sentinel setup killed with {@code SIGKILL} while a 10,000-message backlog is consumed and two
 * producers keep sending, one without durability and one with {@code replicas:1}: through its
 * {@code redis-sentinel://} URI the engine reconnects to the promoted replica without a restart, no confirmed
 * durable send is lost, and the only sends without durability lost are some acked within the replication lag
 * before the kill ({@link FailoverScenario#LAG_WINDOW}; Redis replicates asynchronously). Prints what was lost,
 * the duplicates and the time to drain ({@code FAILOVER sentinel: ...}).
 */
class SentinelFailoverIT {

    private RedisSentinelTestServer sentinel;

    @BeforeEach
    void setUp() {
        sentinel = RedisSentinelTestServer.start();
    }

    @AfterEach
    void tearDown() {
        sentinel.close();
    }

    @Test
    void consumersAndProducersGoOnAfterTheMasterIsKilledAndOnlyUnreplicatedSendsAreLost() throws Exception {
        FailoverScenario.Outcome outcome = new FailoverScenario(sentinel.uri(), 10_000, Duration.ofSeconds(120))
                .run(sentinel::killMaster);

        System.out.println("FAILOVER sentinel: " + outcome);
    }
}
