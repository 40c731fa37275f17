package io.rmq.engine.admin;

import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.engine.EngineFixture;
import io.rmq.testing.redis.RedisClusterExtension;
import io.rmq.testing.redis.RedisClusterTestServer;
import io.rmq.testing.redis.RedisTestServer;

/**
 * {@link RmqAdminIT} on a local Redis Cluster: topics, slot states, dead-letter pages, requeue, purge, pause
 * and resume, with each slot's script run on the master that serves it.
 */
@ExtendWith(RedisClusterExtension.class)
class RmqAdminClusterIT extends RmqAdminIT {

    @Override
    String uri(RedisTestServer unused) {
        return RedisClusterTestServer.shared().uri();
    }

    @Override
    EngineFixture fixture(String redisUri) {
        return EngineFixture.cluster(redisUri);
    }
}
