package io.rmq.engine.redis;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.rmq.engine.i18n.EngineArguments;
import io.rmq.engine.support.UriCredentials;

/**
 * How to reach and log in to one Redis: its URI, credentials given apart from the URI (so that they
 * can come from a secret or an environment variable), and the certificate authorities trusted for a
 * {@code rediss://} connection. Immutable; build with {@link #builder(String)}.
 *
 * <p>Two accesses are {@linkplain #equals equal} when they name the same URI, user, password and
 * trusted certificates, so the connector shares one engine per distinct access; {@link #toString()}
 * and {@link #displayUri()} never show the password.
 *
 * <p>Credentials may be in the URI ({@code redis://user:password@host:6379}) or given with
 * {@link Builder#username} and {@link Builder#password}, not both.
 *
 * <p>The URI may list several seed nodes of a Redis Cluster, separated by commas:
 * {@code redis://host1:7000,host2:7001} (the scheme and credentials of the first apply to those that name
 * none) or {@code redis://host1:7000,redis://host2:7001}. Credentials and TLS trust apply to each seed.
 */
public final class RedisAccess {

    /** The Redis of a tool or channel that names none: {@value}. */
    public static final String DEFAULT_URI = "redis://localhost:6379";

    /** Lettuce command timeout: a command without a reply by then fails, and is retried or reported. */
    public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(10);

    private final String uri;
    private final String username;
    private final char[] password;
    private final Path trustedCertificates;
    private final String displayUri;

    private RedisAccess(Builder b) {
        this.uri = b.uri;
        this.username = b.username;
        this.password = b.password;
        this.trustedCertificates = b.trustedCertificates;
        this.displayUri = UriCredentials.mask(uri);
    }

    /**
     * A builder for the Redis at {@code uri}.
     *
     * @param uri a Lettuce URI: {@code redis://}, {@code rediss://} (TLS) or {@code redis-sentinel://}; or a
     *            comma-separated list of Redis Cluster seed nodes
     * @throws IllegalArgumentException when Lettuce cannot parse the URI (the reason never shows its credentials)
     */
    public static Builder builder(String uri) {
        return new Builder(uri);
    }

    /** The access given by {@code uri} alone (credentials, if any, in the URI; the JVM's trusted certificates). */
    public static RedisAccess of(String uri) {
        return builder(uri).build();
    }

    /** The URI as given, credentials included: never log it (see {@link #displayUri()}). */
    public String uri() {
        return uri;
    }

    /** The URI with any credentials replaced by {@code ***}, for logs and errors. */
    public String displayUri() {
        return displayUri;
    }

    /** Whether a password is given, in the URI or apart from it. */
    public boolean hasPassword() {
        return password != null || UriCredentials.hasUserInfo(uri);
    }

    /** The PEM file of the certificate authorities trusted for TLS, when one is given. */
    public Optional<Path> trustedCertificates() {
        return Optional.ofNullable(trustedCertificates);
    }

    /** A new Lettuce URI of the first seed with the credentials applied. */
    public RedisURI redisUri() {
        return redisUris().get(0);
    }

    /** New Lettuce URIs of every seed, with the credentials applied to each; one for a single URI. */
    public List<RedisURI> redisUris() {
        return seeds(uri).stream().map(this::withCredentials).toList();
    }

    /** Whether the URI lists more than one seed node. */
    public boolean hasSeeds() {
        return seeds(uri).size() > 1;
    }

    /**
     * The seeds of a URI: the URI itself, or for a comma-separated list each element as a full URI. A
     * {@code redis-sentinel://} URI is one seed (Lettuce reads its comma-separated sentinels itself).
     */
    public static List<String> seeds(String uri) {
        if (uri.startsWith("redis-sentinel") || !uri.contains(",")) {
            return List.of(uri);
        }
        String[] parts = uri.split(",");
        int schemeEnd = parts[0].indexOf("://");
        String head = schemeEnd < 0 ? "redis://" : parts[0].substring(0, schemeEnd + 3);
        int at = parts[0].indexOf('@', schemeEnd + 3);
        if (at > 0) {
            head = parts[0].substring(0, at + 1);
        }
        List<String> seeds = new ArrayList<>(parts.length);
        seeds.add(parts[0]);
        for (int i = 1; i < parts.length; i++) {
            String part = parts[i].strip();
            if (!part.isEmpty()) {
                seeds.add(part.contains("://") ? part : head + part);
            }
        }
        return seeds;
    }

    private RedisURI withCredentials(String seed) {
        RedisURI parsed = RedisURI.create(seed);
        if (password == null) {
            return parsed;
        }
        RedisURI.Builder builder = RedisURI.builder(parsed);
        if (username == null) {
            builder.withPassword(password.clone());
        } else {
            builder.withAuthentication(username, password.clone());
        }
        return builder.build();
    }

    /** The TLS options of the Lettuce client: the trusted certificates, when given. */
    public Optional<SslOptions> sslOptions() {
        return trustedCertificates().map(file -> SslOptions.builder().jdkSslProvider()
                .trustManager(file.toFile()).build());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RedisAccess other && uri.equals(other.uri) && Objects.equals(username, other.username)
                && Arrays.equals(password, other.password)
                && Objects.equals(trustedCertificates, other.trustedCertificates);
    }

    @Override
    public int hashCode() {
        return Objects.hash(uri, username, Arrays.hashCode(password), trustedCertificates);
    }

    /** The access without its secrets: the masked URI, the user name, whether a password is set, the CA file. */
    @Override
    public String toString() {
        return "RedisAccess[" + displayUri + (username == null ? "" : ", username=" + username)
                + (password == null ? "" : ", password=***")
                + (trustedCertificates == null ? "" : ", trustedCertificates=" + trustedCertificates) + "]";
    }

    /** Builds a {@link RedisAccess}; every setter validates its argument. Not thread-safe. */
    public static final class Builder {
        private final String uri;
        private String username;
        private char[] password;
        private Path trustedCertificates;

        private Builder(String uri) {
            Objects.requireNonNull(uri, "uri");
            try {
                seeds(uri).forEach(RedisURI::create);
            } catch (RuntimeException e) {
                String masked = UriCredentials.mask(uri);
                // not chained: Lettuce's message may quote the URI or a seed, password included
                String reason = String.valueOf(e.getMessage()).replace(uri, masked);
                for (String seed : seeds(uri)) {
                    reason = reason.replace(seed, UriCredentials.mask(seed));
                }
                throw EngineArguments.arg.malformedRedisUri(masked, reason);
            }
            this.uri = uri;
        }

        /**
         * The ACL user to log in as (Redis 6 and later); without one, a {@link #password} is the
         * {@code default} user's ({@code requirepass}). Default: none, or the user of the URI.
         */
        public Builder username(String username) {
            this.username = username == null || username.isEmpty() ? null : username;
            return this;
        }

        /** The password, kept apart from the URI. Default: none, or the password of the URI. */
        public Builder password(CharSequence password) {
            this.password = password == null || password.length() == 0 ? null : password.toString().toCharArray();
            return this;
        }

        /**
         * The PEM file of the certificate authorities that signed the server's certificate, for
         * {@code rediss://}. Default: none, the JVM's trust store ({@code javax.net.ssl.trustStore}) applies.
         */
        public Builder trustedCertificates(Path pemFile) {
            this.trustedCertificates = pemFile;
            return this;
        }

        /**
         * @throws IllegalArgumentException when credentials are given both in the URI and apart from it,
         *                                  or a user name without a password
         */
        public RedisAccess build() {
            if (password != null && UriCredentials.hasUserInfo(uri)) {
                throw EngineArguments.arg.credentialsGivenTwice();
            }
            if (username != null && password == null) {
                throw EngineArguments.arg.userWithoutPassword();
            }
            return new RedisAccess(this);
        }
    }
}
