package io.rmq.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A local Redis Cluster of three masters and three replicas: six {@code redis-server --cluster-enabled yes}
 * processes on free loopback ports, joined by {@code redis-cli --cluster create --cluster-replicas 1}, ready
 * once every node reports {@code cluster_state:ok}. A node that stops answering is failed over after
 * {@link #NODE_TIMEOUT}.
 *
 * <p>{@link #shared()} starts one cluster per JVM, on first use, and stops it (processes killed, directories
 * removed) when the JVM exits; {@link RedisClusterExtension} empties it before each test. {@link #killMaster}
 * kills a master with {@code SIGKILL} and {@link #heal()} brings it back as a replica, so that the next
 * test again has three masters with a replica each. Thread-safe.
 */
public final class RedisClusterTestServer implements AutoCloseable {

    /** {@code cluster-node-timeout}: how long a master may be unreachable before its replica takes over. */
    public static final Duration NODE_TIMEOUT = Duration.ofMillis(2000);
    private static final Duration READY = Duration.ofSeconds(60);

    private static RedisClusterTestServer shared;
    private static IllegalStateException startupFailure;

    private final Path dir;
    private final List<RedisProcess> nodes;

    private RedisClusterTestServer(Path dir, List<RedisProcess> nodes) {
        this.dir = dir;
        this.nodes = nodes;
    }

    /** The cluster of this JVM, started on the first call. */
    public static synchronized RedisClusterTestServer shared() {
        if (startupFailure != null) {
            throw new IllegalStateException("the Redis Cluster for tests failed to start earlier", startupFailure);
        }
        if (shared == null) {
            try {
                shared = start();
            } catch (IllegalStateException e) {
                startupFailure = e;
                throw e;
            }
            RedisClusterTestServer cluster = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(cluster::close, "redis-cluster-stop"));
        }
        return shared;
    }

    /**
     * Starts a cluster of its own (close it when done). Skips the calling test ({@link Prerequisites}) when the
     * machine lacks what a cluster needs here: {@code redis-cli} to create it and {@code redis-server} 7 (sharded
     * Pub/Sub, {@code #!lua} scripts); the embedded-redis binary alone is Redis 6.2 without {@code redis-cli}.
     */
    public static RedisClusterTestServer start() {
        Prerequisites.redis7AndCli("a Redis Cluster (created with redis-cli --cluster create)");
        Path dir;
        try {
            dir = Files.createTempDirectory("rmq-cluster-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<RedisProcess> nodes = new ArrayList<>();
        RedisClusterTestServer cluster = new RedisClusterTestServer(dir, nodes);
        try {
            for (int i = 0; i < 6; i++) {
                nodes.add(RedisProcess.start(dir, List.of("cluster-enabled yes", "cluster-config-file nodes.conf",
                        "cluster-node-timeout " + NODE_TIMEOUT.toMillis(), "cluster-replica-validity-factor 0",
                        "cluster-require-full-coverage no", "repl-diskless-sync-delay 0"), false));
            }
            List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
            nodes.forEach(n -> create.add(n.address()));
            create.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
            RedisProcess.run(create, READY);
            cluster.awaitHealthy();
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e instanceof IllegalStateException ise ? ise : new IllegalStateException(e);
        }
    }

    /** {@code redis://127.0.0.1:<port>} of the first node that runs: a cluster is found from any node. */
    public String uri() {
        return "redis://" + running().get(0).address();
    }

    /** Every running node as a comma-separated seed list: {@code redis://127.0.0.1:<p1>,127.0.0.1:<p2>,...}. */
    public String seedUri() {
        return "redis://" + running().stream().map(RedisProcess::address).collect(Collectors.joining(","));
    }

    /** The nodes that run now. */
    public List<RedisProcess> running() {
        return nodes.stream().filter(RedisProcess::isRunning).toList();
    }

    /** The running masters, by their own {@code ROLE}. */
    public List<RedisProcess> masters() {
        return running().stream().filter(n -> n.answers(r -> r.startsWith("master"), "ROLE")).toList();
    }

    /** The hash slot of {@code key} ({@code CLUSTER KEYSLOT}). */
    public String slotOf(String key) {
        return running().get(0).cli("CLUSTER", "KEYSLOT", key);
    }

    /** The running master that serves {@code key}. */
    public RedisProcess masterOf(String key) {
        long slot = Long.parseLong(slotOf(key));
        for (RedisProcess m : masters()) {
            for (String line : m.cli("CLUSTER", "NODES").split("\n")) {
                String[] f = line.split(" ");
                if (f.length > 8 && f[2].contains("myself")) {
                    for (int i = 8; i < f.length; i++) {
                        String[] range = f[i].split("-");
                        if (range[0].startsWith("[")) {
                            continue;
                        }
                        long from = Long.parseLong(range[0]);
                        long to = range.length > 1 ? Long.parseLong(range[1]) : from;
                        if (slot >= from && slot <= to) {
                            return m;
                        }
                    }
                }
            }
        }
        throw new IllegalStateException("no running master serves key " + key + " (hash slot " + slot + ")");
    }

    /**
     * Kills the master of {@code key} with {@code SIGKILL} and returns it; its replica takes over after
     * {@link #NODE_TIMEOUT}. See {@link #awaitHealthy()} and {@link #heal()}.
     */
    public RedisProcess killMasterOf(String key) {
        RedisProcess master = masterOf(key);
        master.kill();
        return master;
    }

    /**
     * Waits until every running node reports {@code cluster_state:ok}, three masters serve all slots, and every
     * running replica has finished its sync with its master (before that, a failover would lose the data).
     */
    public void awaitHealthy() {
        RedisProcess.waitUntil("cluster_state:ok on every node of " + this, READY, () -> running().stream()
                .allMatch(n -> n.answers(info -> info.contains("cluster_state:ok"), "CLUSTER", "INFO"))
                && masters().size() == 3);
        RedisProcess.waitUntil("every replica of " + this + " in sync", READY, () -> running().stream()
                .allMatch(RedisProcess::replicaInSyncOrMaster));
    }

    /**
     * Restarts every killed node (it rejoins as a replica of the master that replaced it) and waits until
     * the cluster is healthy with six nodes.
     */
    public void heal() {
        nodes.forEach(RedisProcess::restart);
        awaitHealthy();
        RedisProcess.waitUntil("every restarted node known as connected", READY, () -> nodes.stream()
                .allMatch(n -> n.answers(out -> out.lines().filter(l -> l.contains(" connected")).count() == 6,
                        "CLUSTER", "NODES")));
    }

    /** Empties every master ({@code FLUSHALL}, {@code SCRIPT FLUSH}); replicas follow. */
    public void reset() {
        for (RedisProcess node : running()) {
            if (node.answers(r -> r.startsWith("master"), "ROLE")) {
                node.cli("FLUSHALL");
            }
            node.cli("SCRIPT", "FLUSH");
        }
    }

    /** How many keys each running master holds, by address. */
    public java.util.Map<String, Long> keysPerMaster() {
        java.util.Map<String, Long> counts = new java.util.TreeMap<>();
        for (RedisProcess m : masters()) {
            counts.put(m.address(), Long.parseLong(m.cli("DBSIZE")));
        }
        return counts;
    }

    /** The version the nodes report, e.g. {@code 7.0.15}. */
    public Optional<String> version() {
        return running().get(0).cli("INFO", "server").lines().filter(l -> l.startsWith("redis_version:"))
                .map(l -> l.substring("redis_version:".length()).trim()).findFirst();
    }

    @Override
    public void close() {
        nodes.forEach(RedisProcess::close);
        RedisProcess.deleteRecursively(dir);
    }

    @Override
    public String toString() {
        return "Redis Cluster " + nodes.stream().map(RedisProcess::address).collect(Collectors.joining(","));
    }
}
