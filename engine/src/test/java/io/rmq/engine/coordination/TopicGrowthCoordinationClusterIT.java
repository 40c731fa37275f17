package io.rmq.engine.coordination;

import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.testing.redis.RedisClusterExtension;
import io.rmq.testing.redis.RedisTestServer;
import io.rmq.testing.zookeeper.ZooKeeperTestServer;

/**
 * {@link TopicGrowthCoordinationIT} with the queue on a local Redis Cluster, where an old slot and its new half
 * live on different masters. The overlap detector keeps its counts on the shared test server.
 */
@ExtendWith(RedisClusterExtension.class)
class TopicGrowthCoordinationClusterIT extends TopicGrowthCoordinationIT {

    @Override
    CoordinationFixture fixture(RedisTestServer redis, ZooKeeperTestServer zooKeeper) {
        return CoordinationFixture.onCluster(redis, zooKeeper);
    }
}
