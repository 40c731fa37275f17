package io.rmq.examples.liberty;

import java.util.Map;
import java.util.Set;

import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Supplies the connector's Redis URI, {@value #REDIS_URI}, when no other configuration does: the
 * environment variable or system property {@code RMQ_REDIS_URI} when it is set, and otherwise the
 * URI of an embedded Redis that it starts on first use ({@link ExampleRedis}).
 *
 * <p>Its ordinal, {@value #ORDINAL}, is below every standard source (system properties 400,
 * environment 300, {@code microprofile-config.properties} 100), so setting the property anywhere
 * else wins and no Redis is started. Registered in
 * {@code META-INF/services/org.eclipse.microprofile.config.spi.ConfigSource}.
 */
public class RedisConfigSource implements ConfigSource {

    /** The connector-level attribute every channel of the connector inherits. */
    public static final String REDIS_URI = "mp.messaging.connector.smallrye-redis-rmq.redis-uri";
    /** The environment variable (or system property) naming an external Redis. */
    public static final String EXTERNAL_REDIS = "RMQ_REDIS_URI";
    static final int ORDINAL = 50;

    @Override
    public Set<String> getPropertyNames() {
        return Set.of(REDIS_URI);
    }

    @Override
    public Map<String, String> getProperties() {
        return Map.of(REDIS_URI, getValue(REDIS_URI));
    }

    @Override
    public String getValue(String propertyName) {
        if (!REDIS_URI.equals(propertyName)) {
            return null;
        }
        String external = System.getProperty(EXTERNAL_REDIS, System.getenv(EXTERNAL_REDIS));
        if (external != null && !external.isBlank()) {
            return external.strip();
        }
        return ExampleRedis.embedded().uri();
    }

    @Override
    public int getOrdinal() {
        return ORDINAL;
    }

    @Override
    public String getName() {
        return "rmq-example-redis";
    }
}
