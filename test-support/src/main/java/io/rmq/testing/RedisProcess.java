package io.rmq.testing;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
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
 * Commands are spoken in RESP over a plain socket, so no client library and no {@code redis-cli} is
 * involved. Thread-safe.
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
        boolean clusterNode = configLines.contains("cluster-enabled yes");
        if (clusterNode) {
            Prerequisites.redis7("a Redis Cluster node (sharded Pub/Sub, CLUSTER ADDSLOTSRANGE)");
        }
        int port = clusterNode ? freeClusterPort() : freePort();
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
     * Runs one command and returns its reply as {@code redis-cli} prints it: a status, a number or a
     * string as such, an array one element per line (nested arrays flattened), trimmed. Spoken in RESP over
     * a socket, so that no {@code redis-cli} is needed (the binary of embedded-redis comes without one).
     *
     * @throws IllegalStateException when the server cannot be reached or replies with an error
     */
    public String cli(String... args) {
        return RedisProcess.cli(port, args);
    }

    /** {@link #cli} on any port of the loopback address. */
    public static String cli(int port, String... args) {
        try (Socket socket = new Socket(HOST, port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = new BufferedOutputStream(socket.getOutputStream());
            out.write(("*" + args.length + "\r\n").getBytes(StandardCharsets.UTF_8));
            for (String arg : args) {
                byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
                out.write(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.UTF_8));
                out.write(bytes);
                out.write("\r\n".getBytes(StandardCharsets.UTF_8));
            }
            out.flush();
            StringBuilder reply = new StringBuilder();
            readReply(new BufferedInputStream(socket.getInputStream()), reply, String.join(" ", args));
            return reply.toString().trim();
        } catch (IOException e) {
            throw new IllegalStateException(String.join(" ", args) + " on port " + port + " failed: " + e, e);
        }
    }

    private static void readReply(InputStream in, StringBuilder reply, String command) throws IOException {
        String line = readLine(in);
        char type = line.charAt(0);
        String rest = line.substring(1);
        switch (type) {
            case '+', ':' -> reply.append(rest).append('\n');
            case '-' -> throw new IllegalStateException(command + " failed: " + rest);
            case '$' -> {
                int length = Integer.parseInt(rest);
                if (length >= 0) {
                    byte[] data = in.readNBytes(length + 2);
                    reply.append(new String(data, 0, length, StandardCharsets.UTF_8)).append('\n');
                }
            }
            case '*' -> {
                for (int i = Integer.parseInt(rest); i > 0; i--) {
                    readReply(in, reply, command);
                }
            }
            default -> throw new IllegalStateException(command + ": unexpected reply " + line);
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("connection closed before the reply ended");
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
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

    /** Whether an executable of this name is on the {@code PATH}. */
    public static boolean onPath(String executable) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, executable)));
    }

    private static int serverMajorVersion;

    /** The major version of the {@code redis-server} the tests start ({@code redis-server --version}). */
    public static synchronized int serverMajorVersion() {
        if (serverMajorVersion == 0) {
            serverMajorVersion = readServerMajorVersion();
        }
        return serverMajorVersion;
    }

    private static int readServerMajorVersion() {
        String version = run(List.of(binary(), "--version"), Duration.ofSeconds(30));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("v=(\\d+)\\.").matcher(version);
        if (!m.find()) {
            throw new IllegalStateException("cannot read the version of " + binary() + ": " + version);
        }
        return Integer.parseInt(m.group(1));
    }

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

    /** A free port whose cluster bus port (the port + 10000) is free too. */
    static int freeClusterPort() {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = freePort();
            if (port + 10_000 <= 65_535 && isFree(port + 10_000)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port with a free cluster bus port (+10000) on " + HOST);
    }

    private static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getByName(HOST))) {
            return true;
        } catch (IOException e) {
            return false;
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
