package io.rmq.engine.pending;

import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.engine.EngineFixture;
import io.rmq.testing.redis.RedisClusterExtension;
import io.rmq.testing.redis.RedisClusterTestServer;
import io.rmq.testing.redis.RedisTestServer;

/**
 * {@link PendingMessagesIT} on a local Redis Cluster of three masters (Redis 7, every script run with a
 * {@code #!lua} shebang so that a cross-slot access is refused).
 */
@ExtendWith(RedisClusterExtension.class)
class PendingMessagesClusterIT extends PendingMessagesIT {

    @Override
    EngineFixture fixture(RedisTestServer unused) {
        return EngineFixture.cluster(RedisClusterTestServer.shared().uri());
    }
}
