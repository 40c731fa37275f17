package io.rmq.benchmarks;

import java.util.List;

import io.rmq.testing.redis.EmbeddedRedis;
import io.rmq.testing.redis.RedisBinary;
import io.rmq.testing.redis.RedisClusterTestServer;
import io.rmq.testing.redis.RedisProcess;

/**
 * The Redis the scaling benchmark measures, started from rmq-test-support: one server ({@link EmbeddedRedis}, with
 * {@code DEBUG} allowed from loopback on Redis 7 so that loading a snapshot can be timed), or a Redis Cluster of
 * three masters with replicas ({@link RedisClusterTestServer}). Not thread-safe: start, query and close it from the
 * main thread.
 *
 * @param uri     what the engine connects with: the first node (a cluster is found from any node)
 * @param cluster whether it is a cluster
 * @param nodes   every process, masters and replicas
 * @param server  what {@link #close()} stops
 */
record ScalingTarget(String uri, boolean cluster, List<RedisProcess> nodes, AutoCloseable server)
        implements AutoCloseable {

    /** One server, like a single Redis in production. */
    static ScalingTarget single() {
        RedisBinary binary = RedisBinary.find();
        // DEBUG RELOAD (from loopback only) measures how long loading a snapshot takes; Redis 6.2 allows it anyway
        EmbeddedRedis redis = EmbeddedRedis.start(binary,
                binary.majorVersion() >= 7 ? List.of("enable-debug-command local") : List.of());
        return new ScalingTarget(redis.uri(), false, List.of(redis.process()), redis);
    }

    /** A cluster of three masters with {@code replicasPerMaster} replicas each, slots spread evenly. */
    static ScalingTarget cluster(int replicasPerMaster) {
        RedisClusterTestServer cluster = RedisClusterTestServer.start(3, replicasPerMaster);
        return new ScalingTarget(cluster.uri(), true, cluster.running(), cluster);
    }

    /** The ports of every process, for the progress lines. */
    List<Integer> ports() {
        return nodes.stream().map(RedisProcess::port).toList();
    }

    @Override
    public void close() throws Exception {
        server.close();
    }
}
