package io.rmq.testing.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import io.rmq.testing.Prerequisites;

/**
 * One {@code redis-server} child process: the only way the fixtures run Redis (a standalone server, a cluster
 * node, a replica, a sentinel). Started from a {@link RedisBinary} with a configuration file in a directory of its
 * own, bound to {@value #HOST} on a port that was free, without persistence (unless a sentinel), its log in that
 * directory; {@link #start} returns once it answers {@code PING}.
 *
 * <p><b>Lifecycle.</b> {@link #stop()} shuts it down as in an outage ({@code SIGTERM}); {@link #kill()} kills it with
 * {@code SIGKILL}, as a crash; {@link #restart()} starts it again on the same port with the same configuration (a
 * cluster node keeps its node file; the data is gone); {@link #close()} kills it for good and deletes its directory.
 * Until it is closed, a shutdown hook does so when the JVM exits, so that no {@code redis-server} outlives its tests
 * or program.
 *
 * <p><b>Commands.</b> {@link #cli} and {@link #command} speak RESP over a plain socket ({@link RespClient}), so no
 * client library and no {@code redis-cli} is involved. Thread-safe.
 */
public final class RedisProcess implements AutoCloseable {

    /** The address every server binds. */
    public static final String HOST = Loopback.HOST;
    /** How long {@link #start} and {@link #restart()} wait for the server to answer {@code PING}. */
    public static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(20);
    /** A free port can be taken by another process before the server binds it: so many ports are tried. */
    private static final int START_TRIES = 3;

    private final RedisBinary binary;
    private final Path dir;
    private final int port;
    private final List<String> config;
    private final boolean sentinel;
    private final Thread shutdownHook;
    private volatile Process process;
    private volatile String version;
    private volatile boolean closed;

    private RedisProcess(RedisBinary binary, Path dir, int port, List<String> config, boolean sentinel) {
        this.binary = binary;
        this.dir = dir;
        this.port = port;
        this.config = config;
        this.sentinel = sentinel;
        this.shutdownHook = new Thread(this::killAndDelete, "rmq-redis-stop-" + port);
    }

    /**
     * Starts {@link RedisBinary#find()} with these configuration lines (port, bind, dir, log and no persistence are
     * added) in a directory under {@code parent}, and waits until it answers {@code PING}. A cluster node
     * ({@code cluster-enabled yes}) needs Redis 7 ({@link Prerequisites}).
     */
    public static RedisProcess start(Path parent, List<String> configLines, boolean sentinel) {
        return start(RedisBinary.find(), parent, configLines, sentinel);
    }

    /** {@link #start(Path, List, boolean)} with the given binary. */
    public static RedisProcess start(RedisBinary binary, Path parent, List<String> configLines, boolean sentinel) {
        boolean clusterNode = configLines.contains("cluster-enabled yes");
        if (clusterNode) {
            Prerequisites.redis7("a Redis Cluster node (sharded Pub/Sub, CLUSTER ADDSLOTSRANGE)");
        }
        IllegalStateException failure = null;
        for (int i = 0; i < START_TRIES; i++) {
            int port = clusterNode ? Loopback.freeClusterPort() : Loopback.freePort();
            Path dir = parent.resolve("node-" + port);
            List<String> lines = new ArrayList<>(List.of("port " + port, "bind " + HOST, "dir " + dir,
                    "protected-mode no", "daemonize no", "logfile " + dir.resolve("redis.log")));
            if (!sentinel) {
                lines.addAll(List.of("save \"\"", "appendonly no"));
            }
            lines.addAll(configLines);
            RedisProcess p = new RedisProcess(binary, dir, port, lines, sentinel);
            try {
                p.launch();
                Runtime.getRuntime().addShutdownHook(p.shutdownHook);
                return p;
            } catch (IllegalStateException e) {
                p.kill();
                failure = e;
            }
        }
        throw failure;
    }

    private synchronized void launch() {
        launch(List.of());
    }

    private synchronized void launch(List<String> extraLines) {
        if (closed) {
            throw new IllegalStateException(this + " is closed");
        }
        try {
            Files.createDirectories(dir);
            Path conf = dir.resolve("redis.conf");
            List<String> lines = new ArrayList<>(config);
            lines.addAll(extraLines);
            Files.write(conf, lines, StandardCharsets.UTF_8);
            List<String> command = new ArrayList<>(List.of(binary.path().toString(), conf.toString()));
            if (sentinel) {
                command.add("--sentinel");
            }
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("stdout.log").toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + binary + " in " + dir, e);
        }
        Process started = process;
        CommandLine.waitUntil(this + " answering PING", STARTUP_TIMEOUT, Duration.ofMillis(20), () -> {
            if (!started.isAlive()) {
                throw new IllegalStateException("redis-server on port " + port + " exited at startup:\n" + log());
            }
            return answers("PONG"::equals, "PING");
        });
    }

    /** {@code redis://127.0.0.1:<port>}. */
    public String uri() {
        return "redis://" + address();
    }

    /** The server's port; it stays the same across {@link #stop()}, {@link #kill()} and {@link #restart()}. */
    public int port() {
        return port;
    }

    /** {@code 127.0.0.1:<port>}. */
    public String address() {
        return HOST + ":" + port;
    }

    /** The binary that runs the server. */
    public RedisBinary binary() {
        return binary;
    }

    /** The server's working directory (where {@code BGSAVE} writes {@code dump.rdb}). */
    public Path directory() {
        return dir;
    }

    /** The server's log, across restarts. */
    public Path logFile() {
        return dir.resolve("redis.log");
    }

    /** The version the server reports ({@code redis_version} of {@code INFO server}), e.g. {@code 7.0.15}. */
    public String version() {
        if (version == null) {
            version = info("server").getOrDefault("redis_version", "unknown");
        }
        return version;
    }

    /** Whether the process runs. */
    public boolean isRunning() {
        Process p = process;
        return p != null && p.isAlive();
    }

    /** Stops the server with {@code SIGTERM}, as in an outage (it persists nothing). Does nothing when stopped. */
    public void stop() {
        end(false);
    }

    /** Kills the process with {@code SIGKILL}: no shutdown, no last write, as a crash. */
    public void kill() {
        end(true);
    }

    private synchronized void end(boolean forcibly) {
        Process p = process;
        if (p == null || !p.isAlive()) {
            return;
        }
        try {
            if (forcibly) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            } else {
                p.destroy();
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Starts the stopped or killed process again on its port with its configuration, and waits until it answers
     * {@code PING}. Does nothing while it runs.
     *
     * @throws IllegalStateException when it does not come up (another process may have taken the port), or it is
     *                               closed
     */
    public synchronized void restart() {
        if (!isRunning()) {
            launch();
        }
    }

    /**
     * Starts a stopped server again as a replica of {@code master}, as an operator brings back a failed master that
     * keeps no data: restarted as it was, it would be an empty master until the sentinels convert it, and a client or
     * sentinel that took it for the master meanwhile would lose the data (Redis's replication documentation, "Safety
     * of replication when master has persistence turned off").
     */
    public synchronized void restartAsReplicaOf(RedisProcess master) {
        if (!isRunning()) {
            launch(List.of("replicaof " + HOST + " " + master.port()));
        }
    }

    /**
     * Runs one command and returns its reply as {@code redis-cli} prints it: a status, a number or a string as such,
     * an array one element per line (nested arrays flattened), trimmed; a null reply as an empty string.
     *
     * @throws IllegalStateException when the server cannot be reached or replies with an error
     */
    public String cli(String... args) {
        return cli(port, args);
    }

    /** {@link #cli} on any port of the loopback address. */
    public static String cli(int port, String... args) {
        return Objects.toString(RespClient.command(port, args), "").trim();
    }

    /**
     * Runs one command and returns its reply untrimmed: a simple string, an integer or a bulk string ({@code null}
     * for a null bulk string), an array one element per line.
     *
     * @throws IllegalStateException when the server cannot be reached or replies with an error
     */
    public String command(String... args) {
        return RespClient.command(port, args);
    }

    /** The fields of one {@code INFO} section, by name. */
    public Map<String, String> info(String section) {
        Map<String, String> fields = new TreeMap<>();
        for (String line : command("INFO", section).split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                fields.put(line.substring(0, colon), line.substring(colon + 1).strip());
            }
        }
        return fields;
    }

    /** Whether this server is a master, or a replica whose link to its master is up and not syncing. */
    public boolean replicaInSyncOrMaster() {
        return answers(info -> info.contains("role:master") || (info.contains("master_link_status:up")
                && info.contains("master_sync_in_progress:0")), "INFO", "replication");
    }

    /** Whether a command's output ({@link #cli}) satisfies {@code test}; false when the command fails. */
    public boolean answers(Predicate<String> test, String... args) {
        try {
            return test.test(cli(args));
        } catch (IllegalStateException e) {
            return false;
        }
    }

    private String log() {
        try {
            Path out = dir.resolve("stdout.log");
            return (Files.exists(logFile()) ? Files.readString(logFile()) : "")
                    + (Files.exists(out) ? Files.readString(out) : "");
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** Kills the process for good and deletes its directory; it cannot be restarted. Idempotent. */
    @Override
    public void close() {
        closed = true;
        killAndDelete();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException | IllegalArgumentException notRegisteredOrExiting) {
            // the JVM is exiting (the hook runs anyway), or the hook was never registered
        }
    }

    private void killAndDelete() {
        kill();
        CommandLine.deleteRecursively(dir);
    }

    @Override
    public String toString() {
        return (sentinel ? "sentinel " : "redis-server ") + address();
    }
}
