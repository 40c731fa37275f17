package io.rmq.connector.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.Optional;

import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.support.UriCredentials;

/**
 * Builds a channel's {@link RedisAccess} from {@code redis-uri}, {@code redis-username},
 * {@code redis-password} and {@code redis-tls-ca-file}: checks the URI, that credentials are given once,
 * and that the CA file holds certificates. Stateless.
 */
final class RedisAccessAttributes {

    private RedisAccessAttributes() {
    }

    /** {@code redis-uri}, its problem (if any) recorded. */
    private static String redisUri(ChannelAttributes a) {
        String uri = a.string(RmqAttribute.REDIS_URI);
        RedisUris.problem(uri).ifPresent(reason ->
                a.problem(RmqAttribute.REDIS_URI, uri, reason + "; " + RedisUris.REQUIREMENT));
        return uri;
    }

    /**
     * How to reach and log in to Redis: {@code redis-uri}, {@code redis-username}, {@code redis-password},
     * {@code redis-tls-ca-file}; {@code null} when one of them has a problem (recorded).
     */
    static RedisAccess redisAccess(ChannelAttributes a) {
        int before = a.problemCount();
        String uri = redisUri(a);
        Optional<String> username = a.raw(RmqAttribute.REDIS_USERNAME);
        Optional<String> password = a.secret(RmqAttribute.REDIS_PASSWORD);
        Optional<Path> caFile = a.raw(RmqAttribute.REDIS_TLS_CA_FILE).flatMap(file -> certificateFile(a, file));
        if (username.isPresent() && password.isEmpty()) {
            a.problem(RmqAttribute.REDIS_PASSWORD, null, "a password is required when redis-username is set");
        }
        if (password.isPresent() && UriCredentials.hasUserInfo(uri)) {
            a.problem(RmqAttribute.REDIS_PASSWORD, password.get(), "redis-uri carries credentials already; give them "
                    + "either in redis-uri or in redis-username and redis-password");
        }
        if (a.problemCount() > before) {
            return null;
        }
        try {
            return RedisAccess.builder(uri).username(username.orElse(null)).password(password.orElse(null))
                    .trustedCertificates(caFile.orElse(null)).build();
        } catch (IllegalArgumentException e) {
            a.problem(RmqAttribute.REDIS_URI, uri, e.getMessage());
            return null;
        }
    }

    /** The file of {@code redis-tls-ca-file} when it holds at least one PEM certificate, else empty (recorded). */
    private static Optional<Path> certificateFile(ChannelAttributes a, String value) {
        Path file = Path.of(value);
        String requirement = "a readable PEM file of X.509 certificates (the authorities that sign the server's"
                + " certificate) is required";
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            a.problem(RmqAttribute.REDIS_TLS_CA_FILE, value, "the file does not exist or cannot be read; " + requirement);
            return Optional.empty();
        }
        try (InputStream in = Files.newInputStream(file)) {
            if (CertificateFactory.getInstance("X.509").generateCertificates(in).isEmpty()) {
                a.problem(RmqAttribute.REDIS_TLS_CA_FILE, value, "the file holds no certificate; " + requirement);
                return Optional.empty();
            }
            return Optional.of(file);
        } catch (IOException | CertificateException e) {
            a.problem(RmqAttribute.REDIS_TLS_CA_FILE, value, "the file cannot be read as certificates (" + e.getMessage()
                    + "); " + requirement);
            return Optional.empty();
        }
    }
}
