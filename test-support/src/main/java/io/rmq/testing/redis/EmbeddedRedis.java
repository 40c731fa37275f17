package io.rmq.testing.redis;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A standalone Redis server of its own, for tests and example programs that are given no Redis: one
 * {@link RedisProcess} of {@link RedisBinary#find()} (or a binary of one's choice) in a temporary directory, on a
 * free loopback port, without persistence. {@link #close()} stops it for good and deletes its directory.
 *
 * <p>{@link #stop()} stops it as in an outage; {@link #restart()} starts it again on the same port, empty. Until it
 * is closed, it is killed when the JVM exits, so that no {@code redis-server} outlives its program. Thread-safe.
 */
public final class EmbeddedRedis implements AutoCloseable {

    /** The address the server binds, and the host of {@link #uri()}. */
    public static final String HOST = Loopback.HOST;
    /**
     * The system property or environment variable that names a Redis of one's own for the example programs,
     * instead of an embedded one: {@value}. See {@link #externalUri()}.
     */
    public static final String EXTERNAL_URI = "RMQ_REDIS_URI";

    private final Path workDir;
    private final RedisProcess process;

    private EmbeddedRedis(Path workDir, RedisProcess process) {
        this.workDir = workDir;
        this.process = process;
    }

    /**
     * Starts {@link RedisBinary#find()} on a free loopback port and waits until it answers {@code PING}.
     *
     * @throws IllegalStateException when no binary can be found, or the server does not start (its output is in
     *                               the message)
     */
    public static EmbeddedRedis start() {
        return start(RedisBinary.find(), List.of());
    }

    /**
     * Starts {@code binary} with these extra configuration lines (e.g. {@code enable-debug-command local}).
     *
     * @throws IllegalStateException when the server does not start
     */
    public static EmbeddedRedis start(RedisBinary binary, List<String> configLines) {
        Path workDir = CommandLine.tempDirectory("rmq-redis-");
        // emptied by the process's own shutdown hook, which runs first, when the JVM exits before close()
        workDir.toFile().deleteOnExit();
        try {
            return new EmbeddedRedis(workDir, RedisProcess.start(binary, workDir, configLines, false));
        } catch (RuntimeException e) {
            CommandLine.deleteRecursively(workDir);
            throw e;
        }
    }

    /**
     * The URI that {@value #EXTERNAL_URI} names, as a system property or else as an environment variable, when it
     * is set and not blank: the Redis an example program should use instead of starting one.
     */
    public static Optional<String> externalUri() {
        String uri = System.getProperty(EXTERNAL_URI, System.getenv(EXTERNAL_URI));
        return uri == null || uri.isBlank() ? Optional.empty() : Optional.of(uri.strip());
    }

    /** {@code redis://127.0.0.1:<port>}. */
    public String uri() {
        return process.uri();
    }

    /** The server's port; it stays the same across {@link #stop()} and {@link #restart()}. */
    public int port() {
        return process.port();
    }

    /** The server's version as it reports it ({@code redis_version} of {@code INFO server}), e.g. {@code 7.0.15}. */
    public String version() {
        return process.version();
    }

    /** The binary that runs the server. */
    public Path binary() {
        return process.binary().path();
    }

    /** Where the binary comes from: the {@code PATH}, or embedded-redis. */
    public String binaryOrigin() {
        return process.binary().origin();
    }

    /** The server's process, e.g. to kill it with {@code SIGKILL} or read an {@code INFO} section. */
    public RedisProcess process() {
        return process;
    }

    /** The server's output (its log), across restarts. */
    public Path logFile() {
        return process.logFile();
    }

    /** Whether the server process is running. */
    public boolean isRunning() {
        return process.isRunning();
    }

    /**
     * Stops the server, as in an outage: clients lose their connections, and what it held is gone (it persists
     * nothing). Does nothing when it is stopped.
     */
    public void stop() {
        process.stop();
    }

    /**
     * Starts the server again on its port after {@link #stop()} (or after it died), empty, and waits until it
     * answers {@code PING}. Does nothing while it runs.
     *
     * @throws IllegalStateException when it does not come up (another process may have taken the port meanwhile),
     *                               or when it was closed
     */
    public void restart() {
        process.restart();
    }

    /**
     * Runs one command on a fresh plain socket, with no client library ({@link RespClient}).
     *
     * @return the reply as text: a simple string, an integer or a bulk string ({@code null} for a null bulk string)
     * @throws IllegalStateException when Redis replies with an error or does not answer
     */
    public String command(String... args) {
        return process.command(args);
    }

    /** Stops the server for good and deletes its directory. Idempotent. */
    @Override
    public void close() {
        process.close();
        CommandLine.deleteRecursively(workDir);
    }

    @Override
    public String toString() {
        return "Redis " + version() + " at " + uri() + " (" + binaryOrigin() + ")";
    }
}
