package io.rmq.testing.redis;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

import io.rmq.testing.Prerequisites;

/**
 * A local Redis Cluster, by default of three masters and three replicas ({@link #start(int, int)} for others):
 * {@code redis-server --cluster-enabled yes}
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
    private final int masterCount;
    private final List<RedisProcess> nodes;

    private RedisClusterTestServer(Path dir, int masterCount, List<RedisProcess> nodes) {
        this.dir = dir;
        this.masterCount = masterCount;
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
        return start(3, 1);
    }

    /**
     * Starts a cluster of its own of {@code masters} masters (at least 3) with {@code replicasPerMaster} replicas
     * each, the slots spread evenly (close it when done). Skips the calling test as {@link #start()} does.
     */
    public static RedisClusterTestServer start(int masters, int replicasPerMaster) {
        if (masters < 3 || replicasPerMaster < 0) {
            throw new IllegalArgumentException("a cluster needs 3 masters or more and no negative replica count: "
                    + masters + ", " + replicasPerMaster);
        }
        Prerequisites.redis7AndCli("a Redis Cluster (created with redis-cli --cluster create)");
        Path dir = CommandLine.tempDirectory("rmq-cluster-");
        List<RedisProcess> nodes = new ArrayList<>();
        RedisClusterTestServer cluster = new RedisClusterTestServer(dir, masters, nodes);
        try {
            for (int i = 0; i < masters * (1 + replicasPerMaster); i++) {
                nodes.add(RedisProcess.start(dir, List.of("cluster-enabled yes", "cluster-config-file nodes.conf",
                        "cluster-node-timeout " + NODE_TIMEOUT.toMillis(), "cluster-replica-validity-factor 0",
                        "cluster-require-full-coverage no", "repl-diskless-sync-delay 0"), false));
            }
            List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
            nodes.forEach(n -> create.add(n.address()));
            create.addAll(List.of("--cluster-replicas", Integer.toString(replicasPerMaster), "--cluster-yes"));
            CommandLine.run(create, READY);
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
        CommandLine.waitUntil("cluster_state:ok on every node of " + this, READY, () -> running().stream()
                .allMatch(n -> n.answers(info -> info.contains("cluster_state:ok"), "CLUSTER", "INFO"))
                && masters().size() == masterCount);
        CommandLine.waitUntil("every replica of " + this + " in sync", READY, () -> running().stream()
                .allMatch(RedisProcess::replicaInSyncOrMaster));
    }

    /**
     * Restarts every killed node (it rejoins as a replica of the master that replaced it) and waits until
     * the cluster is healthy with six nodes.
     */
    public void heal() {
        nodes.forEach(RedisProcess::restart);
        awaitHealthy();
        CommandLine.waitUntil("every restarted node known as connected", READY, () -> nodes.stream()
                .allMatch(n -> n.answers(out -> out.lines().filter(l -> l.contains(" connected")).count() == nodes.size(),
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
    public Map<String, Long> keysPerMaster() {
        Map<String, Long> counts = new TreeMap<>();
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
        CommandLine.deleteRecursively(dir);
    }

    @Override
    public String toString() {
        return "Redis Cluster " + nodes.stream().map(RedisProcess::address).collect(Collectors.joining(","));
    }
}
