package io.rmq.engine;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.testing.redis.RedisClusterExtension;
import io.rmq.testing.redis.RedisClusterTestServer;

/**
 * A cluster master killed with {@code SIGKILL} while a 10,000-message backlog is consumed and two producers keep
 * sending, one without durability and one with {@code replicas:1}: the engine follows the failover without a
 * restart, no confirmed durable send is lost, and the only sends without durability lost are some acked within
 * the replication lag before the kill ({@link FailoverScenario#LAG_WINDOW}; Redis replicates asynchronously).
 * Prints what was lost, the duplicates and the time to drain ({@code FAILOVER cluster: ...}).
 */
@ExtendWith(RedisClusterExtension.class)
class ClusterFailoverIT {

    @Test
    void consumersAndProducersGoOnAfterAMasterIsKilledAndOnlyUnreplicatedSendsAreLost(RedisClusterTestServer cluster)
            throws Exception {
        FailoverScenario.Outcome outcome = new FailoverScenario(cluster.uri(), 10_000, Duration.ofSeconds(120))
                .run(() -> cluster.killMasterOf("failover_0"));

        System.out.println("FAILOVER cluster: " + outcome);
    }
}
