package io.rmq.examples.redis;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Destroyed;
import jakarta.enterprise.event.Observes;

/**
 * Stops the embedded Redis, if the application started one, once the application has stopped: after
 * the connector's channels, which stop before the application's beans are destroyed.
 */
@ApplicationScoped
public class EmbeddedRedisLifecycle {

    static void stop(@Observes @Destroyed(ApplicationScoped.class) Object event) {
        RedisConfigSource.stopEmbedded();
    }
}
