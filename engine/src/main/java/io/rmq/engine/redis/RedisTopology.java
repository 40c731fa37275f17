package io.rmq.engine.redis;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.codec.StringCodec;

/**
 * What a Redis URI names, found when connecting: one server or a Sentinel-managed master (used through
 * Lettuce's {@link RedisClient}), or a node of a Redis Cluster ({@code INFO cluster} says
 * {@code cluster_enabled:1}; used through {@link RedisClusterClient}), and whether the server is Redis 7
 * or later (sharded Pub/Sub, {@code #!lua} scripts). A user whose ACL refuses {@code INFO} is taken to be on one
 * server. Stateless; {@link #detect} does I/O.
 */
public final class RedisTopology {

    /** How often a cluster client reads the topology again, besides the adaptive refresh on MOVED, ASK and reconnects. */
    public static final Duration DEFAULT_TOPOLOGY_REFRESH = Duration.ofSeconds(30);

    /** The oldest Redis the scripts run on: they use {@code ZMSCORE}, new in 6.2. */
    public static final String MINIMUM_VERSION = "6.2";

    private final boolean cluster;
    private final String version;
    private final int majorVersion;

    private RedisTopology(boolean cluster, String version) {
        this.cluster = cluster;
        this.version = version;
        this.majorVersion = versionPart(version, 0);
    }

    /**
     * Asks the first reachable seed, on a connection of {@code client} closed again before returning. A
     * {@code redis-sentinel://} URI is never a cluster (Lettuce finds the master through the sentinels).
     *
     * @throws RuntimeException Lettuce's failure when no seed can be reached (that of the last seed)
     */
    public static RedisTopology detect(RedisClient client, List<RedisURI> seeds) {
        RuntimeException failure = null;
        for (RedisURI seed : seeds) {
            try (StatefulRedisConnection<String, String> c = client.connect(StringCodec.UTF8, seed)) {
                RedisCommands<String, String> sync = c.sync();
                try {
                    String server = sync.info("server");
                    boolean cluster = seed.getSentinels().isEmpty() && sync.info("cluster").contains("cluster_enabled:1");
                    return new RedisTopology(cluster, version(server));
                } catch (RedisCommandExecutionException e) {
                    if (String.valueOf(e.getMessage()).startsWith("NOPERM")) {
                        // an ACL user without +info (the minimal ACL of one server): taken as one server
                        return new RedisTopology(false, "");
                    }
                    throw e;
                }
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        throw failure;
    }

    /** The server's version as {@code INFO server} gives it ({@code redis_version}), empty when it could not be read. */
    public String version() {
        return version;
    }

    /**
     * Whether the server is known to be older than {@link #MINIMUM_VERSION}, on which the scripts fail (an
     * unknown version is taken to be recent enough).
     */
    public boolean olderThanRequired() {
        return isOlderThanRequired(version);
    }

    static boolean isOlderThanRequired(String version) {
        int major = versionPart(version, 0);
        return major > 0 && (major < 6 || major == 6 && versionPart(version, 1) < 2);
    }

    /** Whether the URI names a Redis Cluster. */
    public boolean cluster() {
        return cluster;
    }

    /** Whether the scripts run with a {@code #!lua} shebang: on a Redis 7 (or later) cluster, where it is checked. */
    public boolean shebangScripts() {
        return cluster && majorVersion >= 7;
    }

    /** Whether wake notices use sharded Pub/Sub: on a cluster (Redis 7 and later), where it keeps them on the slot's node. */
    public boolean shardedPubSub() {
        return cluster && majorVersion >= 7;
    }

    /**
     * A cluster client for these seeds with topology refresh on MOVED, ASK, reconnects and every
     * {@link #DEFAULT_TOPOLOGY_REFRESH}, the given TLS options and command timeout; commands are rejected
     * at once while disconnected.
     */
    public static RedisClusterClient clusterClient(List<RedisURI> seeds, Optional<SslOptions> ssl, Duration commandTimeout) {
        RedisClusterClient client = RedisClusterClient.create(seeds);
        ClusterClientOptions.Builder options = ClusterClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(commandTimeout))
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                        .enableAllAdaptiveRefreshTriggers()
                        .adaptiveRefreshTriggersTimeout(Duration.ofSeconds(1))
                        .enablePeriodicRefresh(DEFAULT_TOPOLOGY_REFRESH)
                        .build());
        ssl.ifPresent(options::sslOptions);
        client.setOptions(options.build());
        return client;
    }

    private static String version(String infoServer) {
        for (String line : infoServer.split("\r?\n")) {
            if (line.startsWith("redis_version:")) {
                return line.substring("redis_version:".length()).trim();
            }
        }
        return "";
    }

    /** The {@code index}th number of a dotted version, 0 when there is none. */
    private static int versionPart(String version, int index) {
        String[] parts = version.split("\\.");
        try {
            return index < parts.length ? Integer.parseInt(parts[index]) : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    @Override
    public String toString() {
        return (cluster ? "Redis Cluster" : "Redis") + " " + majorVersion;
    }
}
