package io.rmq.connector;

import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.testing.redis.RedisClusterExtension;
import io.rmq.testing.redis.RedisClusterTestServer;
import io.rmq.testing.redis.RedisTestServer;

/**
 * {@link RedisRmqConnectorIT} with {@code redis-uri} naming one node of a local Redis Cluster: the connector
 * in SmallRye Reactive Messaging on Weld SE, with no other setting.
 */
@ExtendWith(RedisClusterExtension.class)
class RedisRmqConnectorClusterIT extends RedisRmqConnectorIT {

    @Override
    String uri(RedisTestServer unused) {
        return RedisClusterTestServer.shared().uri();
    }

    @Override
    boolean cluster() {
        return true;
    }
}
