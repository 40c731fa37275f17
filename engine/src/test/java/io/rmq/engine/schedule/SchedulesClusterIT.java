package io.rmq.engine.schedule;

import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.engine.EngineFixture;
import io.rmq.testing.redis.RedisClusterExtension;
import io.rmq.testing.redis.RedisClusterTestServer;
import io.rmq.testing.redis.RedisTestServer;

/**
 * {@link SchedulesIT} on a local Redis Cluster: each schedule's state, its message and its counters lie in the
 * hash slot of the slot its payload routes to, the registry on whichever node serves it.
 */
@ExtendWith(RedisClusterExtension.class)
class SchedulesClusterIT extends SchedulesIT {

    @Override
    String uri(RedisTestServer unused) {
        return RedisClusterTestServer.shared().uri();
    }

    @Override
    EngineFixture fixture(String redisUri) {
        return EngineFixture.cluster(redisUri);
    }
}
