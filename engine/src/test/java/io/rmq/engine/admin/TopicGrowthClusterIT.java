package io.rmq.engine.admin;

import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.engine.EngineFixture;
import io.rmq.testing.redis.RedisClusterExtension;
import io.rmq.testing.redis.RedisClusterTestServer;
import io.rmq.testing.redis.RedisTestServer;

/**
 * {@link TopicGrowthIT} on a local Redis Cluster of three masters and three replicas: an old slot and its new
 * half live on different nodes, and every script runs with a {@code #!lua} shebang, so that Redis 7 refuses any
 * cross-slot access of the growth's scripts.
 */
@ExtendWith(RedisClusterExtension.class)
class TopicGrowthClusterIT extends TopicGrowthIT {

    @Override
    EngineFixture fixture(RedisTestServer unused) {
        return EngineFixture.cluster(RedisClusterTestServer.shared().uri());
    }
}
