package io.rmq.connector;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.engine.RmqEngine;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.testing.RedisExtension;
import io.rmq.testing.RedisTestServer;

/** Channels share an engine only when they name the same Redis with the same credentials and trust. */
@ExtendWith(RedisExtension.class)
class RedisClientsIT {

    @Test
    void anEngineIsSharedPerUriAndCredentials(RedisTestServer redis) {
        try (RedisClients clients = new RedisClients()) {
            RedisAccess plain = RedisAccess.of(redis.uri());
            RmqEngine first = clients.acquire(plain);
            assertThat(clients.acquire(RedisAccess.of(redis.uri()))).isSameAs(first);

            RmqEngine asUser = clients.acquire(RedisAccess.builder(redis.uri()).username("default").password("one")
                    .build());
            RmqEngine otherPassword = clients.acquire(RedisAccess.builder(redis.uri()).username("default")
                    .password("two").build());
            assertThat(asUser).isNotSameAs(first).isNotSameAs(otherPassword);
            assertThat(clients.acquire(RedisAccess.builder(redis.uri()).username("default").password("one").build()))
                    .isSameAs(asUser);
            assertThat(clients.openClients()).isEqualTo(3);
            assertThat(asUser.displayUri()).isEqualTo(redis.uri());
        }
    }
}
