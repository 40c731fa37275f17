package io.rmq.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

import io.rmq.embedded.EmbeddedRedis;

/**
 * One {@code redis-server} child process of a test topology (a cluster node, a replica, a sentinel):
 * started with a configuration file in a directory of its own, on a loopback port that was free, and
 * killed with {@code SIGKILL} ({@link #kill()}), as a crashed server, or for good ({@link #close()}).
 * Commands go through {@code redis-cli}, so no client library is involved. Thread-safe.
 */
public final class RedisProcess implements AutoCloseable {

    /** The address every node binds. */
    public static final String HOST = "127.0.0.1";
    private static final Duration STARTUP = Duration.ofSeconds(20);

    private final Path dir;
    private final int port;
    private final List<String> config;
    private final boolean sentinel;
    private volatile Process process;

    private RedisProcess(Path dir, int port, List<String> config, boolean sentinel) {
        this.dir = dir;
        this.port = port;
        this.config = config;
        this.sentinel = sentinel;
    }

    /**
     * Starts {@code redis-server} with these configuration lines (port, bind, dir and no persistence are
     * added), and waits until it answers {@code PING}.
     */
    public static RedisProcess start(Path parent, List<String> configLines, boolean sentinel) {
        int port = freePort();
        Path dir = parent.resolve("node-" + port);
        List<String> lines = new ArrayList<>(List.of("port " + port, "bind " + HOST, "dir " + dir,
                "protected-mode no", "daemonize no", "logfile " + dir.resolve("redis.log")));
        if (!sentinel) {
            lines.addAll(List.of("save \"\"", "appendonly no"));
        }
        lines.addAll(configLines);
        RedisProcess p = new RedisProcess(dir, port, lines, sentinel);
        p.launch();
        return p;
    }

    private void launch() {
        try {
            Files.createDirectories(dir);
            Path conf = dir.resolve("redis.conf");
            Files.write(conf, config, StandardCharsets.UTF_8);
            List<String> command = new ArrayList<>(List.of(binary(), conf.toString()));
            if (sentinel) {
                command.add("--sentinel");
            }
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("stdout.log").toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start redis-server in " + dir, e);
        }
        long deadline = System.nanoTime() + STARTUP.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server on port " + port + " exited: " + log());
            }
            try {
                if ("PONG".equals(cli("PING"))) {
                    return;
                }
            } catch (IllegalStateException notYet) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("redis-server on port " + port + " did not answer PING: " + log());
            }
            pause(50);
        }
    }

    /** {@code redis://127.0.0.1:<port>}. */
    public String uri() {
        return "redis://" + address();
    }

    /** The node's port. */
    public int port() {
        return port;
    }

    /** {@code 127.0.0.1:<port>}. */
    public String address() {
        return HOST + ":" + port;
    }

    /** Whether the process runs. */
    public boolean isRunning() {
        Process p = process;
        return p != null && p.isAlive();
    }

    /** Kills the process with {@code SIGKILL}: no shutdown, no last write, as a crash. */
    public void kill() {
        Process p = process;
        if (p != null && p.isAlive()) {
            p.destroyForcibly();
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Starts the killed process again on its port with its configuration (a cluster node keeps its node file). */
    public void restart() {
        if (!isRunning()) {
            launch();
        }
    }

    /**
     * Runs one command through {@code redis-cli} and returns its raw output, trimmed.
     *
     * @throws IllegalStateException when redis-cli fails or replies with an error
     */
    public String cli(String... args) {
        return RedisProcess.cli(port, args);
    }

    /** {@link #cli} on any port of the loopback address. */
    public static String cli(int port, String... args) {
        List<String> command = new ArrayList<>(List.of("redis-cli", "-h", HOST, "-p", Integer.toString(port)));
        command.addAll(List.of(args));
        return run(command, Duration.ofSeconds(30));
    }

    /** Runs a command line, returning its output; fails when it exits with an error or prints {@code ERR}. */
    static String run(List<String> command, Duration timeout) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getOutputStream().close();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish within " + timeout);
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (p.exitValue() != 0 || out.startsWith("ERR") || out.startsWith("Could not connect")
                    || out.contains("[ERR]")) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Waits until {@code condition} holds, polling every 100 ms, or fails naming {@code what}. */
    static void waitUntil(String what, Duration timeout, java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not reached within " + timeout + ": " + what);
            }
            pause(100);
        }
    }

    /** Whether this server is a master, or a replica whose link to its master is up and not syncing. */
    public boolean replicaInSyncOrMaster() {
        return answers(info -> info.contains("role:master") || (info.contains("master_link_status:up")
                && info.contains("master_sync_in_progress:0")), "INFO", "replication");
    }

    /** Whether a command's output satisfies {@code test}, false when the command fails. */
    boolean answers(Predicate<String> test, String... args) {
        try {
            return test.test(cli(args));
        } catch (IllegalStateException e) {
            return false;
        }
    }

    private String log() {
        try {
            Path file = dir.resolve("redis.log");
            Path out = dir.resolve("stdout.log");
            return (Files.exists(file) ? Files.readString(file) : "") + (Files.exists(out) ? Files.readString(out) : "");
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        kill();
    }

    /** The embedded-redis server whose binary is used when there is no redis-server on the PATH; kept for the JVM. */
    private static EmbeddedRedis fallback;

    /** {@code redis-server} from the {@code PATH}, else the binary shipped in embedded-redis (as {@link RedisTestServer}). */
    private static synchronized String binary() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path p = Path.of(dir, "redis-server");
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        if (fallback == null) {
            fallback = EmbeddedRedis.start(); // stopped when the JVM exits
        }
        return fallback.binary().toString();
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteRecursively(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis); // polling a child process that has no event to wait on
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public String toString() {
        return (sentinel ? "sentinel " : "redis-server ") + address();
    }
}
