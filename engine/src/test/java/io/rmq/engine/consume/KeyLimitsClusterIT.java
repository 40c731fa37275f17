package io.rmq.engine.consume;

import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.engine.EngineFixture;
import io.rmq.testing.redis.RedisClusterExtension;
import io.rmq.testing.redis.RedisClusterTestServer;
import io.rmq.testing.redis.RedisTestServer;

/**
 * {@link KeyLimitsIT} on a local Redis Cluster (Redis 7): the parked sets, whose names the scripts build under the
 * slot's hash tag, live on the slot's node like every declared key.
 */
@ExtendWith(RedisClusterExtension.class)
class KeyLimitsClusterIT extends KeyLimitsIT {

    @Override
    EngineFixture fixture(RedisTestServer unused) {
        return EngineFixture.cluster(RedisClusterTestServer.shared().uri());
    }
}
