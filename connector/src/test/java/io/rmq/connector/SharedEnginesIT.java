package io.rmq.connector;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.engine.RmqEngine;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.testing.redis.RedisExtension;
import io.rmq.testing.redis.RedisTestServer;

/** Channels share an engine only when they name the same Redis with the same credentials and trust. */
@ExtendWith(RedisExtension.class)
class SharedEnginesIT {

    @Test
    void anEngineIsSharedPerUriAndCredentials(RedisTestServer redis) {
        try (SharedEngines engines = new SharedEngines(RedisRmqConnector.CONNECTOR_NAME)) {
            RedisAccess plain = RedisAccess.of(redis.uri());
            RmqEngine first = engines.acquire(plain);
            assertThat(engines.acquire(RedisAccess.of(redis.uri()))).isSameAs(first);

            RmqEngine asUser = engines.acquire(RedisAccess.builder(redis.uri()).username("default").password("one")
                    .build());
            RmqEngine otherPassword = engines.acquire(RedisAccess.builder(redis.uri()).username("default")
                    .password("two").build());
            assertThat(asUser).isNotSameAs(first).isNotSameAs(otherPassword);
            assertThat(engines.acquire(RedisAccess.builder(redis.uri()).username("default").password("one").build()))
                    .isSameAs(asUser);
            assertThat(engines.openEngines()).isEqualTo(3);
            assertThat(asUser.displayUri()).isEqualTo(redis.uri());
        }
    }
}
