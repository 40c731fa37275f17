package io.rmq.engine.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.rmq.engine.RmqEngine;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.testing.LogRecorder;
import io.rmq.testing.redis.SecuredRedis;

/**
 * At start the engine reads {@code maxmemory-policy} and warns (RMQ-0142) when Redis may evict its keys:
 * the {@code allkeys-*} policies. {@code noeviction} and {@code volatile-*} (the connector's keys have no
 * TTL) are accepted silently. A user without {@code CONFIG GET} is covered by {@link RedisAclIT}.
 */
class EvictionPolicyIT {

    @ParameterizedTest
    @CsvSource({"allkeys-lru, true", "allkeys-random, true", "allkeys-lfu, true", "noeviction, false",
        "volatile-lru, false", "volatile-ttl, false"})
    void warnsWhenRedisMayEvictTheConnectorsKeys(String policy, boolean warned) throws Exception {
        java.util.logging.Logger engineLogger = java.util.logging.Logger.getLogger(EngineLogging.LOGGER_NAME);
        java.util.logging.Level level = engineLogger.getLevel();
        engineLogger.setLevel(java.util.logging.Level.FINE);
        try (SecuredRedis redis = SecuredRedis.start(); LogRecorder log = LogRecorder.record(EngineLogging.LOGGER_NAME)) {
            redis.command("CONFIG", "SET", "maxmemory-policy", policy);
            try (RmqEngine engine = new RmqEngine(redis.uri()).start()) {
                engine.ready().toCompletableFuture().get(10, TimeUnit.SECONDS);
                if (warned) {
                    String line = log.await("warning about eviction", m -> m.startsWith("RMQ-0142"), 1,
                            Duration.ofSeconds(10)).get(0);
                    assertThat(line).contains("maxmemory-policy " + policy).contains("noeviction")
                            .contains(redis.uri());
                } else {
                    log.await("accepting the policy", m -> m.startsWith("RMQ-0144"), 1, Duration.ofSeconds(10));
                    assertThat(log.messagesContaining("RMQ-0142")).isEmpty();
                }
            }
            assertThat(log.messagesContaining("RMQ-0143")).isEmpty();
        } finally {
            engineLogger.setLevel(level);
        }
    }
}
