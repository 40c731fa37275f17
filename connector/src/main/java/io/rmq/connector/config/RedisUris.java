package io.rmq.connector.config;

import java.util.Optional;
import java.util.Set;

import io.lettuce.core.RedisURI;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.support.UriCredentials;

/** Checks {@code redis-uri} values and masks the credentials they carry. Stateless. */
final class RedisUris {

    /**
     * The schemes a channel accepts, in lower case as Lettuce requires (Unix sockets and the {@code redis+ssl}
     * aliases are left out on purpose).
     */
    static final Set<String> SCHEMES = Set.of("redis", "rediss", "redis-sentinel", "rediss-sentinel");

    static final String REQUIREMENT = "a redis://, rediss://, redis-sentinel:// or rediss-sentinel:// URI is required";

    private RedisUris() {
    }

    /** The URI with any user info (user name and password) replaced by {@code ***}. */
    static String maskCredentials(String uri) {
        return UriCredentials.mask(uri);
    }

    /** Why Lettuce cannot use {@code uri}, or empty when it can; the reason never shows the credentials. */
    static Optional<String> problem(String uri) {
        int schemeEnd = uri.indexOf("://");
        String scheme = schemeEnd < 0 ? "" : uri.substring(0, schemeEnd);
        if (!SCHEMES.contains(scheme)) {
            return Optional.of(schemeEnd < 0 ? "it has no scheme" : "scheme '" + scheme + "' is not supported");
        }
        try {
            RedisAccess.seeds(uri).forEach(RedisURI::create);
            return Optional.empty();
        } catch (RuntimeException e) {
            String reason = String.valueOf(e.getMessage());
            if (e instanceof NumberFormatException) {
                reason = "a number was expected (" + reason + ")";
            }
            return Optional.of("Lettuce refuses it: " + reason.replace(uri, maskCredentials(uri)));
        }
    }
}
