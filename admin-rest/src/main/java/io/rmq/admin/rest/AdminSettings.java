package io.rmq.admin.rest;

import java.nio.file.Path;
import java.util.Optional;

import org.eclipse.microprofile.config.Config;

import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.support.UriCredentials;

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
 *       else {@value RedisAccess#DEFAULT_URI}</td></tr>
 *   <tr><td>{@value #KEY_PREFIX}</td><td>the connector's {@code mp.messaging.connector.smallrye-redis-rmq.key-prefix},
 *       else empty</td></tr>
 *   <tr><td>{@value #REDIS_USERNAME}, {@value #REDIS_PASSWORD}, {@value #REDIS_TLS_CA_FILE}</td><td>when
 *       {@value #REDIS_URI} is set, none; else the connector's {@code redis-username}, {@code redis-password},
 *       {@code redis-tls-ca-file}</td></tr>
 * </table>
 *
 * @param enabled        whether the endpoints answer
 * @param redisUri       the Redis they administer (a Lettuce URI, credentials included)
 * @param keyPrefix      the key prefix of the topics they see
 * @param redisUsername  the Redis ACL user, or {@code null}
 * @param redisPassword  the Redis password given apart from the URI, or {@code null}; never shown by {@link #toString()}
 * @param redisTlsCaFile the PEM file of the trusted certificate authorities, or {@code null}
 */
public record AdminSettings(boolean enabled, String redisUri, String keyPrefix, String redisUsername,
        String redisPassword, String redisTlsCaFile) {

    /** Turns the endpoints on: {@value}. */
    public static final String ENABLED = "rmq.admin.enabled";
    /** The Redis the endpoints administer: {@value}. */
    public static final String REDIS_URI = "rmq.admin.redis-uri";
    /** The key prefix of the topics the endpoints see: {@value}. */
    public static final String KEY_PREFIX = "rmq.admin.key-prefix";
    /** The Redis ACL user of the endpoints: {@value}. */
    public static final String REDIS_USERNAME = "rmq.admin.redis-username";
    /** The Redis password of the endpoints, e.g. from a secret: {@value}. */
    public static final String REDIS_PASSWORD = "rmq.admin.redis-password";
    /** The PEM file of the certificate authorities trusted for {@code rediss://}: {@value}. */
    public static final String REDIS_TLS_CA_FILE = "rmq.admin.redis-tls-ca-file";

    /**
     * Where an attribute of every channel of the {@code smallrye-redis-rmq} connector is configured; the endpoints
     * read the connector's Redis attributes there (documented in {@code docs/configuration.md}) without depending
     * on the connector.
     */
    static final String CONNECTOR_PREFIX = "mp.messaging.connector.smallrye-redis-rmq.";
    /** The name, under {@value #CONNECTOR_PREFIX} (and {@code rmq.admin.}), of the Redis URI: {@value}. */
    static final String REDIS_URI_ATTRIBUTE = "redis-uri";
    /** The name of the key prefix under {@value #CONNECTOR_PREFIX}: {@value}. */
    static final String KEY_PREFIX_ATTRIBUTE = "key-prefix";
    /** The name of the Redis ACL user under {@value #CONNECTOR_PREFIX} and {@code rmq.admin.}: {@value}. */
    static final String REDIS_USERNAME_ATTRIBUTE = "redis-username";
    /** The name of the Redis password under {@value #CONNECTOR_PREFIX} and {@code rmq.admin.}: {@value}. */
    static final String REDIS_PASSWORD_ATTRIBUTE = "redis-password";
    /** The name of the trusted CA file under {@value #CONNECTOR_PREFIX} and {@code rmq.admin.}: {@value}. */
    static final String REDIS_TLS_CA_FILE_ATTRIBUTE = "redis-tls-ca-file";

    /** Settings without credentials or CA file given apart from the URI. */
    public AdminSettings(boolean enabled, String redisUri, String keyPrefix) {
        this(enabled, redisUri, keyPrefix, null, null, null);
    }

    /** The settings as {@code config} has them now. */
    public static AdminSettings from(Config config) {
        Optional<String> ownUri = config.getOptionalValue(REDIS_URI, String.class);
        // the credentials and CA file go with the URI they were given for
        String source = ownUri.isPresent() ? "rmq.admin." : CONNECTOR_PREFIX;
        return new AdminSettings(enabled(config),
                ownUri.or(() -> config.getOptionalValue(CONNECTOR_PREFIX + REDIS_URI_ATTRIBUTE, String.class))
                        .orElse(RedisAccess.DEFAULT_URI),
                config.getOptionalValue(KEY_PREFIX, String.class)
                        .or(() -> config.getOptionalValue(CONNECTOR_PREFIX + KEY_PREFIX_ATTRIBUTE, String.class))
                        .orElse(""),
                config.getOptionalValue(source + REDIS_USERNAME_ATTRIBUTE, String.class).orElse(null),
                config.getOptionalValue(source + REDIS_PASSWORD_ATTRIBUTE, String.class).orElse(null),
                config.getOptionalValue(source + REDIS_TLS_CA_FILE_ATTRIBUTE, String.class).orElse(null));
    }

    /** Whether {@code config} turns the endpoints on now. */
    public static boolean enabled(Config config) {
        return config.getOptionalValue(ENABLED, Boolean.class).orElse(false);
    }

    /**
     * How to reach and log in to the Redis.
     *
     * @throws IllegalArgumentException when the URI is malformed or the credentials are given twice (the message
     *                                  never shows them)
     */
    public RedisAccess redisAccess() {
        return RedisAccess.builder(redisUri).username(redisUsername).password(redisPassword)
                .trustedCertificates(redisTlsCaFile == null ? null : Path.of(redisTlsCaFile)).build();
    }

    /** The settings with the URI's credentials and the password masked. */
    @Override
    public String toString() {
        return "AdminSettings[enabled=" + enabled + ", redisUri=" + UriCredentials.mask(redisUri) + ", keyPrefix="
                + keyPrefix + ", redisUsername=" + redisUsername + ", redisPassword="
                + (redisPassword == null ? "none" : "***") + ", redisTlsCaFile=" + redisTlsCaFile + "]";
    }
}
