package io.rmq.engine.consume;

import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.engine.EngineFixture;
import io.rmq.testing.redis.RedisClusterExtension;
import io.rmq.testing.redis.RedisClusterTestServer;
import io.rmq.testing.redis.RedisTestServer;

/**
 * {@link FlowRateIT} on a local Redis Cluster of three masters and three replicas (Redis 7), every script run with a
 * {@code #!lua} shebang so that Redis 7 refuses any access outside the declared keys: the topic's limiter
 * ({@code flow{<prefix><topic>}}) lives on one node, the slots' keys on others, and the live settings are read there.
 */
@ExtendWith(RedisClusterExtension.class)
class FlowRateClusterIT extends FlowRateIT {

    @Override
    EngineFixture fixture(RedisTestServer unused) {
        return EngineFixture.cluster(RedisClusterTestServer.shared().uri());
    }
}
