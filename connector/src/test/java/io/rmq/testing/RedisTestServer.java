package io.rmq.testing;

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
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

import redis.embedded.core.ExecutableProvider;

/**
 * One real Redis server for the tests of a JVM, started on first use on a free loopback port and
 * stopped by a shutdown hook.
 *
 * <p>The binary is {@code redis-server} from the {@code PATH} when there is one (CI installs it
 * with apt), otherwise the Linux/macOS binary shipped inside {@code com.github.codemonstur:embedded-redis}.
 * The server runs without persistence ({@code --save "" --appendonly no}), bound to
 * {@code 127.0.0.1}, with its working directory and log file in a temporary directory.
 *
 * <p>Tests may simulate an outage with {@link #stop()} and {@link #start()}: the server comes back
 * on the same port, empty. {@link RedisExtension} starts it again before each test, so a test that
 * leaves it stopped does not break the next one. Thread-safe.
 */
public final class RedisTestServer {

    private static final System.Logger LOG = System.getLogger(RedisTestServer.class.getName());
    private static final String HOST = "127.0.0.1";
    private static final long STARTUP_TIMEOUT_MS = 20_000;
    private static final int START_TRIES = 3;

    private static RedisTestServer shared;
    /** Why the server could not be started; kept so that later tests fail at once instead of retrying. */
    private static IllegalStateException startupFailure;

    private final Path binary;
    private final String origin;
    private final Path workDir;
    private volatile int port;
    private volatile String version;
    private Process process;

    private RedisTestServer(Path binary, String origin) throws IOException {
        this.binary = binary;
        this.origin = origin;
        this.workDir = Files.createTempDirectory("rmq-redis-");
    }

    /**
     * The server of this JVM, started on the first call.
     *
     * @throws IllegalStateException when no binary can be found or the server does not start
     */
    public static synchronized RedisTestServer shared() {
        if (startupFailure != null) {
            throw new IllegalStateException("the Redis test server failed to start earlier", startupFailure);
        }
        if (shared == null) {
            RedisTestServer server;
            try {
                server = create();
                server.startOnFreePort();
            } catch (IllegalStateException e) {
                startupFailure = e;
                throw e;
            }
            Runtime.getRuntime().addShutdownHook(new Thread(server::shutdown, "rmq-redis-test-server-stop"));
            LOG.log(System.Logger.Level.INFO, "Redis {0} for tests at {1} ({2}: {3})",
                    server.version(), server.uri(), server.origin, server.binary);
            shared = server;
        }
        return shared;
    }

    /** The server's address: {@code redis://127.0.0.1:<port>}. */
    public String uri() {
        return "redis://" + HOST + ":" + port();
    }

    /** The server's port; it stays the same across {@link #stop()} and {@link #start()}. */
    public int port() {
        return port;
    }

    /** The server's version as it reports it ({@code redis_version} of {@code INFO server}), e.g. {@code 7.0.15}. */
    public String version() {
        return version;
    }

    /** Whether the server process is running. */
    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /**
     * Starts the server again on its port after {@link #stop()}, and waits until it answers
     * {@code PING}. Does nothing when it runs. The restarted server is empty.
     *
     * @throws IllegalStateException when it does not come up (for example, another process took the port)
     */
    public synchronized void start() {
        if (!isRunning()) {
            launch();
        }
    }

    /** Stops the server, as in an outage: clients lose their connections. Does nothing when it is stopped. */
    public synchronized void stop() {
        if (process == null) {
            return;
        }
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

    private void shutdown() {
        stop();
        try (var files = Files.walk(workDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }

    /** Empties the server: {@code FLUSHALL} and {@code SCRIPT FLUSH}. */
    public void reset() {
        try {
            call("FLUSHALL");
            call("SCRIPT", "FLUSH");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reset the Redis server at " + uri(), e);
        }
    }

    private static RedisTestServer create() {
        Path binary = findOnPath("redis-server");
        String origin = "redis-server from PATH";
        if (binary == null) {
            try {
                binary = ExecutableProvider.newJarResourceProvider().get().toPath();
                origin = "binary of com.github.codemonstur:embedded-redis";
            } catch (IOException | RuntimeException e) {
                throw new IllegalStateException("no redis-server on the PATH, and the embedded-redis binary cannot be extracted", e);
            }
        }
        try {
            return new RedisTestServer(binary, origin);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create a temporary directory for redis-server", e);
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

    /** First start: a free port can be taken by someone else before the server binds it, so try a few. */
    private synchronized void startOnFreePort() {
        IllegalStateException failure = null;
        for (int i = 0; i < START_TRIES; i++) {
            port = freePort();
            try {
                launch();
                version = info("redis_version");
                return;
            } catch (IllegalStateException e) {
                failure = e;
            }
        }
        throw failure;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port on " + HOST, e);
        }
    }

    private void launch() {
        Path log = workDir.resolve("redis-" + port + ".log");
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
                    .redirectOutput(log.toFile())
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + binary, e);
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STARTUP_TIMEOUT_MS);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                process = null;
                throw new IllegalStateException("redis-server on port " + port + " exited at startup:\n" + tail(log));
            }
            try {
                if ("PONG".equals(call("PING"))) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            sleep(20);
        }
        stop();
        throw new IllegalStateException("redis-server on port " + port + " did not answer PING within "
                + STARTUP_TIMEOUT_MS + " ms:\n" + tail(log));
    }

    private String info(String field) {
        try {
            for (String line : call("INFO", "server").split("\r\n")) {
                if (line.startsWith(field + ":")) {
                    return line.substring(field.length() + 1);
                }
            }
            return "unknown";
        } catch (IOException e) {
            throw new IllegalStateException("INFO failed on " + uri(), e);
        }
    }

    /**
     * Runs one command on a fresh plain socket, with no client library: no Lettuce thread starts and
     * the only connection it opens is closed again (useful to check what an application left behind).
     *
     * @return the reply as text (simple string, integer or bulk string; {@code null} for a null bulk string)
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

    /** A minimal RESP call on a fresh connection, so that starting and resetting need no client library. */
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

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for redis-server", e);
        }
    }

    @Override
    public String toString() {
        return "Redis " + version + " at " + uri();
    }
}
