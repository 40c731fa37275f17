package io.rmq.testing.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

/**
 * A plain string connection for a test to set up and check state, as {@code redis-cli} (or {@code redis-cli -c}
 * on a cluster) would: the same commands whether the Redis is one server or a cluster. Close it when done.
 */
public final class PlainRedis implements AutoCloseable {

    private final AbstractRedisClient client;
    private final StatefulConnection<String, String> connection;
    private final RedisClusterCommands<String, String> commands;

    private PlainRedis(AbstractRedisClient client, StatefulConnection<String, String> connection,
            RedisClusterCommands<String, String> commands) {
        this.client = client;
        this.connection = connection;
        this.commands = commands;
    }

    /** Connects to the Redis of {@code uri}: a cluster client when {@code cluster}, else a standalone one. */
    public static PlainRedis connect(String uri, boolean cluster) {
        if (cluster) {
            RedisClusterClient c = RedisClusterClient.create(RedisURI.create(uri));
            StatefulRedisClusterConnection<String, String> connection = c.connect();
            return new PlainRedis(c, connection, connection.sync());
        }
        RedisClient c = RedisClient.create(uri);
        StatefulRedisConnection<String, String> connection = c.connect();
        return new PlainRedis(c, connection, connection.sync());
    }

    /** Synchronous commands; on a cluster each goes to the node of its key. */
    public RedisClusterCommands<String, String> commands() {
        return commands;
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
