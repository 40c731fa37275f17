package io.rmq.engine.coordination;

import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.testing.redis.RedisClusterExtension;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTestServer;
import io.rmq.testing.zookeeper.ZooKeeperTestServer;

/**
 * {@link SerialPerKeyIT} with the queue on a local Redis Cluster: ZooKeeper's slot assignment and the owner
 * epochs that fence the pop script (kept under each slot's hash tag, so on the slot's own master) work unchanged.
 * The overlap detector keeps its counts on the shared test server.
 */
@ExtendWith(RedisClusterExtension.class)
class SerialPerKeyClusterIT extends SerialPerKeyIT {

    @Override
    CoordinationFixture fixture(RedisTestServer redis, ZooKeeperTestServer zooKeeper) {
        return CoordinationFixture.onCluster(redis, zooKeeper);
    }

    /** Not repeated here: it writes an owner epoch through the standalone server's connection. */
    @Override
    void aFreshAssignmentStartsAboveTheEpochsRedisHasSeen(RedisTestServer redis, ZooKeeperTestServer zooKeeper,
            RedisConnections connections) {
    }
}
