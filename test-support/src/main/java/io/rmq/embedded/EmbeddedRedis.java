package io.rmq.embedded;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import redis.embedded.core.ExecutableProvider;

/**
 * A real Redis server in a child process, for tests and example programs that are given no Redis.
 *
 * <p><b>Binary.</b> {@code redis-server} from the {@code PATH} when there is one (CI installs it with
 * apt), otherwise the Linux/macOS binary shipped inside {@code com.github.codemonstur:embedded-redis}
 * (Redis 6.2), extracted to a temporary file.
 *
 * <p><b>Server.</b> Bound to {@value #HOST} on a port that was free when it started, without
 * persistence ({@code --save "" --appendonly no}), its working directory a temporary directory of its
 * own that also holds its output ({@link #logFile()}). {@link #start()} returns once the server answers
 * {@code PING}.
 *
 * <p><b>Lifecycle.</b> {@link #start()} starts a server; {@link #stop()} stops it, as in an outage;
 * {@link #restart()} starts it again on the same port, empty; {@link #close()} stops it for good and
 * deletes its directory. Until it is closed, a shutdown hook stops the server when the JVM exits, so that
 * no {@code redis-server} outlives its program (unless the JVM is killed).
 *
 * <p><b>Commands.</b> {@link #command(String...)} sends one command on a plain socket of its own, so
 * this class needs no Redis client library.
 *
 * <p>Thread-safe.
 */
public final class EmbeddedRedis implements AutoCloseable {

    /** The address the server binds, and the host of {@link #uri()}. */
    public static final String HOST = "127.0.0.1";
    /**
     * The system property or environment variable that names a Redis of one's own for the example
     * programs, instead of an embedded one: {@value}. See {@link #externalUri()}.
     */
    public static final String EXTERNAL_URI = "RMQ_REDIS_URI";
    /** How long {@link #start()} and {@link #restart()} wait for the server to answer {@code PING}. */
    public static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(20);

    /** A free port can be taken by another process before the server binds it: so many ports are tried. */
    private static final int START_TRIES = 3;

    private enum State { RUNNING, STOPPED, CLOSED }

    private final Path binary;
    private final String origin;
    private final Path workDir;
    private final int port;
    private final Thread shutdownHook;
    private State state = State.STOPPED;
    private Process process;
    private volatile String version;

    private EmbeddedRedis(Path binary, String origin, Path workDir, int port) {
        this.binary = binary;
        this.origin = origin;
        this.workDir = workDir;
        this.port = port;
        this.shutdownHook = new Thread(this::closeOnExit, "rmq-embedded-redis-stop-" + port);
    }

    /**
     * Starts a server on a free loopback port and waits until it answers {@code PING}.
     *
     * @throws IllegalStateException when no binary can be found, or the server does not start (its output
     *                               is in the message)
     */
    public static EmbeddedRedis start() {
        Binary binary = findBinary();
        Path workDir;
        try {
            workDir = Files.createTempDirectory("rmq-redis-");
        } catch (IOException e) {
            throw new IllegalStateException("cannot create a working directory for redis-server", e);
        }
        IllegalStateException failure = null;
        for (int i = 0; i < START_TRIES; i++) {
            EmbeddedRedis redis = new EmbeddedRedis(binary.path(), binary.origin(), workDir, freePort());
            try {
                redis.startOnce();
                return redis;
            } catch (IllegalStateException e) {
                failure = e;
            }
        }
        deleteRecursively(workDir);
        throw failure;
    }

    /**
     * The URI that {@value #EXTERNAL_URI} names, as a system property or else as an environment
     * variable, when it is set and not blank: the Redis an example program should use instead of starting
     * one.
     */
    public static Optional<String> externalUri() {
        String uri = System.getProperty(EXTERNAL_URI, System.getenv(EXTERNAL_URI));
        return uri == null || uri.isBlank() ? Optional.empty() : Optional.of(uri.strip());
    }

    /** {@code redis://127.0.0.1:<port>}. */
    public String uri() {
        return "redis://" + HOST + ":" + port;
    }

    /** The server's port; it stays the same across {@link #stop()} and {@link #restart()}. */
    public int port() {
        return port;
    }

    /** The server's version as it reports it ({@code redis_version} of {@code INFO server}), e.g. {@code 7.0.15}. */
    public String version() {
        return version;
    }

    /** The binary that runs the server. */
    public Path binary() {
        return binary;
    }

    /** Where the binary comes from: the {@code PATH}, or embedded-redis. */
    public String binaryOrigin() {
        return origin;
    }

    /** The server's output (its log), across restarts. */
    public Path logFile() {
        return workDir.resolve("redis.log");
    }

    /** Whether the server process is running. */
    public synchronized boolean isRunning() {
        return state == State.RUNNING && process != null && process.isAlive();
    }

    /**
     * Stops the server, as in an outage: clients lose their connections, and what it held is gone (it
     * persists nothing). Does nothing when it is stopped.
     */
    public synchronized void stop() {
        if (process != null) {
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
            process = null;
        }
        if (state == State.RUNNING) {
            state = State.STOPPED;
        }
    }

    /**
     * Starts the server again on its port after {@link #stop()} (or after it died), empty, and waits
     * until it answers {@code PING}. Does nothing while it runs.
     *
     * @throws IllegalStateException when it does not come up (another process may have taken the port
     *                               meanwhile), or when it was closed
     */
    public synchronized void restart() {
        if (state == State.CLOSED) {
            throw new IllegalStateException("the Redis server at " + uri() + " is closed");
        }
        if (!isRunning()) {
            stop();
            launch();
        }
    }

    /**
     * Runs one command on a fresh plain socket, with no client library: no client thread starts, and
     * the one connection it opens is closed again.
     *
     * @return the reply as text: a simple string, an integer or a bulk string ({@code null} for a null bulk string)
     * @throws IllegalStateException when Redis replies with an error or does not answer
     */
    public String command(String... args) {
        try {
            return call(args);
        } catch (IOException e) {
            throw new IllegalStateException("Redis at " + uri() + " did not answer " + String.join(" ", args) + ": "
                    + e.getMessage(), e);
        }
    }

    /** Stops the server for good and deletes its directory. Idempotent. */
    @Override
    public void close() {
        if (!stopForGood()) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is exiting: the hook runs anyway, and finds the server closed
        }
        deleteRecursively(workDir);
    }

    @Override
    public String toString() {
        return "Redis " + version + " at " + uri() + " (" + origin + ")";
    }

    /** The first start: registers the shutdown hook once the server is up. */
    private synchronized void startOnce() {
        launch();
        try {
            version = info("redis_version");
        } catch (IllegalStateException e) {
            stop();
            throw e;
        }
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    private void closeOnExit() {
        if (stopForGood()) {
            deleteRecursively(workDir);
        }
    }

    /** Stops the server and marks it closed; false when it was closed already. */
    private synchronized boolean stopForGood() {
        if (state == State.CLOSED) {
            return false;
        }
        stop();
        state = State.CLOSED;
        return true;
    }

    /** Starts the process and waits until it answers PING. Holds the lock. */
    private void launch() {
        List<String> command = List.of(binary.toString(),
                "--port", Integer.toString(port),
                "--bind", HOST,
                "--save", "",
                "--appendonly", "no",
                "--daemonize", "no",
                "--dir", workDir.toString());
        try {
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile().toFile()))
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + binary, e);
        }
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (!process.isAlive()) {
                process = null;
                throw new IllegalStateException("redis-server on port " + port + " exited at startup:\n" + logTail());
            }
            try {
                if ("PONG".equals(call("PING"))) {
                    state = State.RUNNING;
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            pause();
        }
        stop();
        throw new IllegalStateException("redis-server on port " + port + " did not answer PING within "
                + STARTUP_TIMEOUT.toMillis() + " ms:\n" + logTail());
    }

    private String info(String field) {
        for (String line : command("INFO", "server").split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1);
            }
        }
        return "unknown";
    }

    private record Binary(Path path, String origin) {
    }

    private static Binary findBinary() {
        Path onPath = findOnPath("redis-server");
        if (onPath != null) {
            return new Binary(onPath, "redis-server from the PATH");
        }
        try {
            return new Binary(ExecutableProvider.newJarResourceProvider().get().toPath(),
                    "the binary of com.github.codemonstur:embedded-redis");
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("no redis-server on the PATH, and the embedded-redis binary cannot be extracted", e);
        }
    }

    private static Path findOnPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port on " + HOST, e);
        }
    }

    /** A minimal RESP call on a fresh connection. */
    private String call(String... args) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(HOST, port), 1_000);
            socket.setSoTimeout(10_000);
            StringBuilder request = new StringBuilder("*").append(args.length).append("\r\n");
            for (String arg : args) {
                request.append('$').append(arg.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(arg).append("\r\n");
            }
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            String line = readLine(in);
            switch (line.charAt(0)) {
                case '-':
                    throw new IOException("Redis replied " + line.substring(1));
                case '$':
                    int length = Integer.parseInt(line.substring(1));
                    return length < 0 ? null : new String(in.readNBytes(length), StandardCharsets.UTF_8);
                default:
                    return line.substring(1);
            }
        }
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int previous = -1;
        for (int b = in.read(); b != -1; b = in.read()) {
            if (previous == '\r' && b == '\n') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
            }
            line.write(b);
            previous = b;
        }
        throw new IOException("connection closed before a complete reply");
    }

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(logFile());
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** Between two PINGs while the server starts. */
    private static void pause() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for redis-server", e);
        }
    }

    private static void deleteRecursively(Path dir) {
        try (var files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }
}
