package io.rmq.examples.dashboard;

import java.util.Map;
import java.util.Set;
import java.util.logging.Logger;

import org.eclipse.microprofile.config.spi.ConfigSource;

import io.rmq.embedded.EmbeddedRedis;

/**
 * Supplies the connector's Redis URI, {@value #REDIS_URI}, when no other configuration does: the
 * environment variable or system property {@value EmbeddedRedis#EXTERNAL_URI} when it is set, and
 * otherwise the URI of an {@link EmbeddedRedis} that it starts on first use. The embedded Redis is
 * stopped when the application stops ({@link EmbeddedRedisLifecycle}) or, at the latest, when the
 * server's JVM exits; there is one per application (class loader).
 *
 * <p>Its ordinal, {@value #ORDINAL}, is below every standard source (system properties 400,
 * environment 300, {@code microprofile-config.properties} 100), so setting the property anywhere
 * else wins and no Redis is started. Registered in
 * {@code META-INF/services/org.eclipse.microprofile.config.spi.ConfigSource}. Thread-safe.
 */
public class RedisConfigSource implements ConfigSource {

    /** The connector-level attribute every channel of the connector inherits. */
    public static final String REDIS_URI = "mp.messaging.connector.smallrye-redis-rmq.redis-uri";
    static final int ORDINAL = 50;

    private static final Logger LOG = Logger.getLogger(RedisConfigSource.class.getName());

    /** Started on first use; guarded by the class. */
    private static EmbeddedRedis embedded;

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
        return EmbeddedRedis.externalUri().orElseGet(RedisConfigSource::embeddedUri);
    }

    @Override
    public int getOrdinal() {
        return ORDINAL;
    }

    @Override
    public String getName() {
        return "rmq-dashboard-example-redis";
    }

    private static synchronized String embeddedUri() {
        if (embedded == null) {
            embedded = EmbeddedRedis.start();
            LOG.info("RMQ dashboard example: started an embedded Redis at " + embedded.uri() + " (" + embedded.binaryOrigin()
                    + "; set " + EmbeddedRedis.EXTERNAL_URI + " to use a Redis of your own)");
        }
        return embedded.uri();
    }

    /** Stops the embedded Redis if this application started one. */
    static synchronized void stopEmbedded() {
        if (embedded != null) {
            embedded.close();
            LOG.info("RMQ dashboard example: stopped the embedded Redis at " + embedded.uri());
            embedded = null;
        }
    }
}
