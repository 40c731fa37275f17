package io.rmq.admin.rest;

import org.eclipse.microprofile.config.Config;

import io.rmq.connector.config.RmqAttribute;

/**
 * The admin endpoints' configuration, read from MicroProfile Config on every request, so that a
 * dynamic config source (Open Liberty's {@code server.xml} variables, for one) turns them off or
 * points them at another Redis without a restart. Immutable.
 *
 * <table>
 *   <caption>Properties</caption>
 *   <tr><th>property</th><th>default</th></tr>
 *   <tr><td>{@value #ENABLED}</td><td>{@code false}: every endpoint answers 404</td></tr>
 *   <tr><td>{@value #REDIS_URI}</td><td>the connector's {@code mp.messaging.connector.smallrye-redis-rmq.redis-uri},
 *       else {@code redis://localhost:6379}</td></tr>
 *   <tr><td>{@value #KEY_PREFIX}</td><td>the connector's {@code mp.messaging.connector.smallrye-redis-rmq.key-prefix},
 *       else empty</td></tr>
 * </table>
 *
 * @param enabled   whether the endpoints answer
 * @param redisUri  the Redis they administer (a Lettuce URI, credentials included)
 * @param keyPrefix the key prefix of the topics they see
 */
public record AdminSettings(boolean enabled, String redisUri, String keyPrefix) {

    /** Turns the endpoints on: {@value}. */
    public static final String ENABLED = "rmq.admin.enabled";
    /** The Redis the endpoints administer: {@value}. */
    public static final String REDIS_URI = "rmq.admin.redis-uri";
    /** The key prefix of the topics the endpoints see: {@value}. */
    public static final String KEY_PREFIX = "rmq.admin.key-prefix";

    /** Where an attribute of every channel of the connector is configured. */
    static final String CONNECTOR_PREFIX = "mp.messaging.connector.smallrye-redis-rmq.";

    /** The settings as {@code config} has them now. */
    public static AdminSettings from(Config config) {
        return new AdminSettings(enabled(config),
                config.getOptionalValue(REDIS_URI, String.class)
                        .or(() -> config.getOptionalValue(CONNECTOR_PREFIX + RmqAttribute.REDIS_URI.attributeName(), String.class))
                        .or(RmqAttribute.REDIS_URI::defaultValue)
                        .orElseThrow(),
                config.getOptionalValue(KEY_PREFIX, String.class)
                        .or(() -> config.getOptionalValue(CONNECTOR_PREFIX + RmqAttribute.KEY_PREFIX.attributeName(), String.class))
                        .orElse(""));
    }

    /** Whether {@code config} turns the endpoints on now. */
    public static boolean enabled(Config config) {
        return config.getOptionalValue(ENABLED, Boolean.class).orElse(false);
    }
}
