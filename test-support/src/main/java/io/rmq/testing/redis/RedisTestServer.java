package io.rmq.testing.redis;

/**
 * One real Redis server for the tests of a JVM, started on first use and stopped when the JVM exits:
 * an {@link EmbeddedRedis} ({@code redis-server} from the {@code PATH}, else the binary of
 * embedded-redis; a free loopback port; no persistence).
 *
 * <p>Tests may simulate an outage with {@link #stop()} and {@link #start()}: the server comes back
 * on the same port, empty. {@link RedisExtension} starts it again before each test, so a test that
 * leaves it stopped does not break the next one. Thread-safe.
 */
public final class RedisTestServer {

    private static final System.Logger LOG = System.getLogger(RedisTestServer.class.getName());

    private static RedisTestServer shared;
    /** Why the server could not be started; kept so that later tests fail at once instead of retrying. */
    private static IllegalStateException startupFailure;

    private final EmbeddedRedis redis;

    private RedisTestServer(EmbeddedRedis redis) {
        this.redis = redis;
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
            try {
                // EmbeddedRedis stops the server when the JVM exits
                shared = new RedisTestServer(EmbeddedRedis.start());
            } catch (IllegalStateException e) {
                startupFailure = e;
                throw e;
            }
            LOG.log(System.Logger.Level.INFO, "{0} for tests, binary {1}", shared.redis, shared.redis.binary());
        }
        return shared;
    }

    /** The server's address: {@code redis://127.0.0.1:<port>}. */
    public String uri() {
        return redis.uri();
    }

    /** The server's port; it stays the same across {@link #stop()} and {@link #start()}. */
    public int port() {
        return redis.port();
    }

    /** The server's version as it reports it ({@code redis_version} of {@code INFO server}), e.g. {@code 7.0.15}. */
    public String version() {
        return redis.version();
    }

    /** Whether the server process is running. */
    public boolean isRunning() {
        return redis.isRunning();
    }

    /**
     * Starts the server again on its port after {@link #stop()}, and waits until it answers
     * {@code PING}. Does nothing when it runs. The restarted server is empty.
     *
     * @throws IllegalStateException when it does not come up (for example, another process took the port)
     */
    public void start() {
        redis.restart();
    }

    /** Stops the server, as in an outage: clients lose their connections. Does nothing when it is stopped. */
    public void stop() {
        redis.stop();
    }

    /** Empties the server: {@code FLUSHALL} and {@code SCRIPT FLUSH}. */
    public void reset() {
        redis.command("FLUSHALL");
        redis.command("SCRIPT", "FLUSH");
    }

    /**
     * Runs one command on a fresh plain socket, with no client library: no Lettuce thread starts and
     * the only connection it opens is closed again (useful to check what an application left behind).
     *
     * @return the reply as text (simple string, integer or bulk string; {@code null} for a null bulk string)
     * @throws IllegalStateException when Redis replies with an error or does not answer
     */
    public String command(String... args) {
        return redis.command(args);
    }

    @Override
    public String toString() {
        return redis.toString();
    }
}
