package io.rmq.engine;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rmq.testing.RedisSentinelTestServer;

/**
 * The master of a Sentinel setup killed with {@code SIGKILL} while a 10,000-message backlog is consumed and a
 * producer keeps sending: through its {@code redis-sentinel://} URI the engine reconnects to the promoted
 * replica without a restart and every acked message is delivered. Prints the duplicates and the time to
 * drain ({@code FAILOVER sentinel: ...}).
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
    void consumersAndProducersGoOnAfterTheMasterIsKilledAndNothingAckedIsLost() throws Exception {
        FailoverScenario.Outcome outcome = new FailoverScenario(sentinel.uri(), 10_000, Duration.ofSeconds(120))
                .run(sentinel::killMaster);

        System.out.println("FAILOVER sentinel: " + outcome);
    }
}
