package io.rmq.engine.admin;

import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.engine.EngineFixture;
import io.rmq.testing.redis.RedisClusterExtension;
import io.rmq.testing.redis.RedisClusterTestServer;
import io.rmq.testing.redis.RedisTestServer;

/** {@link TopicFlowIT} on a local Redis Cluster: the flow hash lives on the node of the topic's own tag. */
@ExtendWith(RedisClusterExtension.class)
class TopicFlowClusterIT extends TopicFlowIT {

    @Override
    String uri(RedisTestServer unused) {
        return RedisClusterTestServer.shared().uri();
    }

    @Override
    EngineFixture fixture(String redisUri) {
        return EngineFixture.cluster(redisUri);
    }
}
