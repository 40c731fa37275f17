package io.rmq.engine.consume;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import io.rmq.engine.EngineFixture;
import io.rmq.testing.redis.RedisSentinelTestServer;
import io.rmq.testing.redis.RedisTestServer;

/**
 * {@link TopicConsumerIT} through a {@code redis-sentinel://} URI: a master with a replica and three sentinels;
 * the engine finds the master through the sentinels.
 */
class TopicConsumerSentinelIT extends TopicConsumerIT {

    private static RedisSentinelTestServer sentinel;

    @BeforeAll
    static void startSentinel() {
        sentinel = RedisSentinelTestServer.start();
    }

    @AfterAll
    static void stopSentinel() {
        sentinel.close();
    }

    @Override
    EngineFixture fixture(RedisTestServer unused) {
        sentinel.master().cli("FLUSHALL");
        sentinel.master().cli("SCRIPT", "FLUSH");
        return new EngineFixture(sentinel.uri());
    }
}
