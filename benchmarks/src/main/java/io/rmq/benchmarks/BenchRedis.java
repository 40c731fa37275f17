package io.rmq.benchmarks;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.rmq.engine.topic.TopicKeys;

/**
 * The scaling benchmark's own Lettuce connection (binary keys and values), to one Redis or to a
 * cluster (each command goes to its key's master): queue sizes, and the bare sorted set the engine's
 * memory is compared with. Thread-safe (Lettuce's connections are).
 */
final class BenchRedis implements AutoCloseable {

    private final AbstractRedisClient client;
    private final StatefulConnection<byte[], byte[]> connection;
    private final RedisClusterCommands<byte[], byte[]> sync;
    private final RedisClusterAsyncCommands<byte[], byte[]> async;

    BenchRedis(String uri, boolean cluster) {
        if (cluster) {
            RedisClusterClient c = RedisClusterClient.create(uri);
            var conn = c.connect(ByteArrayCodec.INSTANCE);
            this.client = c;
            this.connection = conn;
            this.sync = conn.sync();
            this.async = conn.async();
        } else {
            RedisClient c = RedisClient.create(uri);
            var conn = c.connect(ByteArrayCodec.INSTANCE);
            this.client = c;
            this.connection = conn;
            this.sync = conn.sync();
            this.async = conn.async();
        }
    }

    /** Messages of the topic in its prepare queues: popped and not yet committed. */
    long prepared(TopicKeys keys) {
        long n = 0;
        for (int slot = 0; slot < keys.topic().slotAmount(); slot++) {
            n += sync.zcard(keys.slot(slot).prepare().getBytes(StandardCharsets.UTF_8));
        }
        return n;
    }

    /** {@code ZADD key score member [score member ...]}, one command, not waited for. */
    @SuppressWarnings("unchecked")
    CompletionStage<Long> zaddAll(String key, double score, List<byte[]> members) {
        ScoredValue<byte[]>[] values = members.stream().map(m -> ScoredValue.just(score, m)).toArray(ScoredValue[]::new);
        return async.zadd(key.getBytes(StandardCharsets.UTF_8), values);
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
}
