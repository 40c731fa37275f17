package io.rmq.examples.redis;

import java.util.Map;
import java.util.Set;
import java.util.logging.Logger;

import org.eclipse.microprofile.config.spi.ConfigSource;

import io.rmq.testing.redis.EmbeddedRedis;

/**
 * Supplies the connector's Redis URI, {@value #REDIS_URI}, when no other configuration does: the
 * environment variable or system property {@value EmbeddedRedis#EXTERNAL_URI} when it is set, and
 * otherwise the URI of an {@link EmbeddedRedis} that it starts on first use. The embedded Redis is
 * stopped when the application stops ({@link EmbeddedRedisLifecycle}) or, at the latest, when the JVM
 * exits; there is one per application (class loader).
 *
 * <p>Its ordinal, {@value #ORDINAL}, is below every standard source (system properties 400,
 * environment 300, Quarkus's {@code application.properties} 250, {@code microprofile-config.properties} 100), so setting the property anywhere else wins
 * and no Redis is started. Registered in
 * {@code META-INF/services/org.eclipse.microprofile.config.spi.ConfigSource}. The channels are created
 * when the application starts, so the URI must be known then: a config source is the one place that
 * is read early enough.
 *
 * <p><b>It lists no property names.</b> It answers a lookup of {@value #REDIS_URI}, which is how the
 * connector reads it, but {@link #getPropertyNames()} is empty: Quarkus also loads the application's
 * config sources while it builds the application ({@code quarkus:build}) and reads the value of every
 * property they list, which would start a Redis in the build. Thread-safe.
 */
public class RedisConfigSource implements ConfigSource {

    /** The connector-level attribute every channel of the connector inherits. */
    public static final String REDIS_URI = "mp.messaging.connector.smallrye-redis-rmq.redis-uri";
    static final int ORDINAL = 50;

    private static final Logger LOG = Logger.getLogger(RedisConfigSource.class.getName());

    /** Started on first use; guarded by the class. */
    private static EmbeddedRedis embedded;

    /** None: see the class comment. */
    @Override
    public Set<String> getPropertyNames() {
        return Set.of();
    }

    /** None: see the class comment. */
    @Override
    public Map<String, String> getProperties() {
        return Map.of();
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
        return "rmq-example-redis";
    }

    private static synchronized String embeddedUri() {
        if (embedded == null) {
            embedded = EmbeddedRedis.start();
            LOG.info("RMQ example: started an embedded Redis at " + embedded.uri() + " (" + embedded.binaryOrigin()
                    + "; set " + EmbeddedRedis.EXTERNAL_URI + " to use a Redis of your own)");
        }
        return embedded.uri();
    }

    /** Stops the embedded Redis if this application started one. */
    static synchronized void stopEmbedded() {
        if (embedded != null) {
            embedded.close();
            LOG.info("RMQ example: stopped the embedded Redis at " + embedded.uri());
            embedded = null;
        }
    }
}
