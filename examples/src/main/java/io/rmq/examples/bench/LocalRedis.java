package io.rmq.examples.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Redis servers the scaling benchmark starts for itself from the {@code redis-server} and
 * {@code redis-cli} on the {@code PATH}: one server, or a Redis Cluster of {@code masters} masters
 * with {@code replicasPerMaster} replicas each, every process on a free loopback port with no
 * persistence ({@code --save "" --appendonly no}) and its own temporary directory.
 * {@link #close()} kills the processes and deletes the directories.
 *
 * <p>Not thread-safe: start, query and close it from the main thread.
 */
final class LocalRedis implements AutoCloseable {

    private final List<Integer> ports = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();
    private final Path directory;
    private final boolean cluster;

    private LocalRedis(boolean cluster) throws IOException {
        this.cluster = cluster;
        this.directory = Files.createTempDirectory("rmq-scaling-");
    }

    /** One server, like a single Redis in production. */
    static LocalRedis single() throws IOException, InterruptedException {
        LocalRedis redis = new LocalRedis(false);
        try {
            // DEBUG RELOAD (from loopback only) measures how long loading a snapshot takes
            redis.startNode(freePort(false), List.of("--enable-debug-command", "local"));
            return redis;
        } catch (IOException | RuntimeException | InterruptedException e) {
            redis.close();
            throw e;
        }
    }

    /** A cluster: {@code masters} masters (at least 3) with {@code replicasPerMaster} replicas each, slots spread evenly. */
    static LocalRedis cluster(int masters, int replicasPerMaster) throws IOException, InterruptedException {
        LocalRedis redis = new LocalRedis(true);
        try {
            int nodes = masters * (1 + replicasPerMaster);
            List<String> create = new ArrayList<>(List.of("--cluster", "create"));
            for (int i = 0; i < nodes; i++) {
                int port = freePort(true);
                redis.startNode(port, List.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes-" + port + ".conf",
                        "--cluster-node-timeout", "5000"));
                create.add("127.0.0.1:" + port);
            }
            create.addAll(List.of("--cluster-replicas", Integer.toString(replicasPerMaster), "--cluster-yes"));
            String out = cli(redis.ports.get(0), create.toArray(String[]::new));
            if (!out.contains("All 16384 slots covered")) {
                throw new IllegalStateException("redis-cli --cluster create failed:\n" + out);
            }
            redis.awaitClusterReady(replicasPerMaster > 0);
            return redis;
        } catch (IOException | RuntimeException | InterruptedException e) {
            redis.close();
            throw e;
        }
    }

    /** The URI the engine connects with: the first node (a cluster is discovered from any node). */
    String uri() {
        return "redis://127.0.0.1:" + ports.get(0);
    }

    boolean isCluster() {
        return cluster;
    }

    /** The ports of every process, masters and replicas. */
    List<Integer> ports() {
        return List.copyOf(ports);
    }

    /** The working directory of the process on {@code port}, where {@code BGSAVE} writes {@code dump.rdb}. */
    Path directoryOf(int port) {
        return directory.resolve(Integer.toString(port));
    }

    /** The fields of one {@code INFO} section of the node on {@code port}. */
    static Map<String, String> info(int port, String section) throws IOException, InterruptedException {
        Map<String, String> fields = new TreeMap<>();
        for (String line : cli(port, "INFO", section).split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                fields.put(line.substring(0, colon), line.substring(colon + 1).strip());
            }
        }
        return fields;
    }

    /** What {@code redis-server --version} says. */
    static String serverVersion() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("redis-server", "--version").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        p.waitFor(10, TimeUnit.SECONDS);
        return out;
    }

    /** Runs {@code redis-cli -p port args...} and returns its output (standard output and error). */
    static String cli(int port, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(port)));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(600, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("redis-cli " + String.join(" ", args) + " did not finish within 600 s");
        }
        return out;
    }

    private void startNode(int port, List<String> extra) throws IOException, InterruptedException {
        Path dir = Files.createDirectories(directory.resolve(Integer.toString(port)));
        List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port),
                "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString(),
                "--logfile", dir.resolve("redis.log").toString()));
        command.addAll(extra);
        processes.add(new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("stdout.log").toFile()).start());
        ports.add(port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!cli(port, "PING").strip().equals("PONG")) {
            if (System.nanoTime() > deadline || !processes.get(processes.size() - 1).isAlive()) {
                throw new IllegalStateException("redis-server on port " + port + " did not start; see " + dir);
            }
            Thread.sleep(20);
        }
    }

    /** Waits until every node reports {@code cluster_state:ok} and, with replicas, every replica is in sync. */
    private void awaitClusterReady(boolean replicas) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        for (int port : ports) {
            while (!cli(port, "CLUSTER", "INFO").contains("cluster_state:ok")
                    || replicas && info(port, "replication").getOrDefault("master_link_status", "up").equals("down")) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the cluster on ports " + ports + " is not ready after 60 s");
                }
                Thread.sleep(50);
            }
        }
    }

    /** A free loopback port; for a cluster node, its bus port ({@code port + 10000}) must be free too. */
    private static int freePort(boolean withBus) throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = withBus ? ThreadLocalRandom.current().nextInt(20_000, 30_000) : 0;
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                if (!withBus) {
                    return s.getLocalPort();
                }
                try (ServerSocket bus = new ServerSocket(port + 10_000, 1, InetAddress.getLoopbackAddress())) {
                    return port;
                }
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IOException("no free loopback port found");
    }

    @Override
    public void close() {
        for (Process p : processes) {
            p.destroyForcibly();
        }
        for (Process p : processes) {
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
