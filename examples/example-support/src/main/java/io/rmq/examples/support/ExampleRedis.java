package io.rmq.examples.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.engine.redis.ConnectionFailure;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.support.UriCredentials;
import io.rmq.testing.redis.EmbeddedRedis;

/**
 * The Redis server an example program talks to: an external one given by URI, or, when none is
 * given, an {@link EmbeddedRedis} started on a free loopback port without persistence and stopped by
 * {@link #close()}.
 *
 * <p>It also keeps one small Lettuce connection for the programs' own look-ups (server version,
 * queue sizes, counters, clean-up). Not thread-safe: use it from the main thread.
 */
public final class ExampleRedis implements AutoCloseable {

    private final String uri;
    private final EmbeddedRedis embedded;
    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;

    private ExampleRedis(String uri, EmbeddedRedis embedded) {
        this.uri = uri;
        this.embedded = embedded;
        RedisAccess access = RedisAccess.of(uri);
        this.client = RedisClient.create(access.redisUri());
        try {
            this.connection = client.connect();
        } catch (RuntimeException e) {
            // Lettuce's threads would outlive the program, and its own message holds no hint of what to fix
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            throw ConnectionFailure.of(e).exception(access.displayUri(), String.valueOf(root.getMessage()));
        }
    }

    /**
     * Connects to {@code externalUri} when it is given (not null or blank), and otherwise starts an
     * embedded Redis.
     *
     * @throws IllegalArgumentException when the URI is malformed (the message never shows its credentials)
     * @throws IllegalStateException    when Redis cannot be reached, refuses the credentials or fails the TLS
     *                                  handshake (RMQ-0313, RMQ-0330, RMQ-0331); nothing is left running
     */
    public static ExampleRedis startOrConnect(String externalUri) {
        if (externalUri != null && !externalUri.isBlank()) {
            return new ExampleRedis(externalUri.strip(), null);
        }
        EmbeddedRedis embedded = EmbeddedRedis.start();
        try {
            return new ExampleRedis(embedded.uri(), embedded);
        } catch (RuntimeException e) {
            embedded.close();
            throw e;
        }
    }

    /** The URI the connector's channels should use, credentials included: never print it (see {@link #displayUri()}). */
    public String uri() {
        return uri;
    }

    /** The URI with any credentials replaced by {@code ***}, for the programs' output. */
    public String displayUri() {
        return UriCredentials.mask(uri);
    }

    /** Whether this program started the server itself. */
    public boolean isEmbedded() {
        return embedded != null;
    }

    /** The server's {@code redis_version}. */
    public String version() {
        return info("server").getOrDefault("redis_version", "unknown");
    }

    /** The fields of one {@code INFO} section, e.g. {@code stats} or {@code commandstats}. */
    public Map<String, String> info(String section) {
        Map<String, String> fields = new TreeMap<>();
        for (String line : commands().info(section).split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                fields.put(line.substring(0, colon), line.substring(colon + 1).strip());
            }
        }
        return fields;
    }

    /** Synchronous commands on the programs' own connection. */
    public RedisCommands<String, String> commands() {
        return connection.sync();
    }

    /**
     * Deletes every key whose name contains {@code fragment} (a program's key prefix: the prepare,
     * dead and side keys put it inside a hash tag, so it is not always at the start). Returns how
     * many were deleted.
     */
    public long deleteKeysContaining(String fragment) {
        RedisCommands<String, String> redis = commands();
        ScanArgs match = ScanArgs.Builder.matches("*" + fragment + "*").limit(1000);
        long deleted = 0;
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<String> page = redis.scan(cursor, match);
            List<String> keys = new ArrayList<>(page.getKeys());
            if (!keys.isEmpty()) {
                deleted += redis.unlink(keys.toArray(String[]::new));
            }
            cursor = page;
        } while (!cursor.isFinished());
        return deleted;
    }

    /** Closes the connection and stops the embedded server, if any. */
    @Override
    public void close() {
        connection.close();
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        if (embedded != null) {
            embedded.close();
        }
    }
}
