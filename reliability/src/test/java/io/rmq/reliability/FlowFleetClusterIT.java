package io.rmq.reliability;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rmq.testing.redis.RedisClusterTestServer;

/**
 * {@link FlowFleetIT} on a Redis Cluster of 3 masters: the topic's slots spread over the masters, its limiter on the
 * master of the topic's own hash tag. Needs Redis 7 and {@code redis-cli} (skipped without them).
 */
class FlowFleetClusterIT extends FlowFleetIT {

    @Test
    @Override
    void fourJvmsOfFourConsumersKeepTheRateAndFollowALiveChangeWithinASecond(@TempDir Path dir) throws Exception {
        try (RedisClusterTestServer cluster = RedisClusterTestServer.start(3, 0)) {
            run(Scenario.onCluster("flow fleet", cluster.uri()), cluster.uri(), dir, "Redis Cluster, 3 masters");
        }
    }
}
