package io.rmq.engine.consume;

import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.engine.EngineFixture;
import io.rmq.testing.redis.RedisClusterExtension;
import io.rmq.testing.redis.RedisClusterTestServer;
import io.rmq.testing.redis.RedisTestServer;

/**
 * {@link MessageExpiryIT} on a local Redis Cluster of three masters and three replicas, every script run with a
 * {@code #!lua} shebang so that Redis 7 refuses any access outside the slot's hash tag.
 */
@ExtendWith(RedisClusterExtension.class)
class MessageExpiryClusterIT extends MessageExpiryIT {

    @Override
    EngineFixture fixture(RedisTestServer unused) {
        return EngineFixture.cluster(RedisClusterTestServer.shared().uri());
    }
}
