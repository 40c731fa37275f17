package io.rmq.engine.admin;

import io.rmq.engine.EngineFixture;
import io.rmq.testing.RedisClusterExtension;
import io.rmq.testing.RedisClusterTestServer;
import io.rmq.testing.RedisTestServer;
import org.junit.jupiter.api.extension.ExtendWith;

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
