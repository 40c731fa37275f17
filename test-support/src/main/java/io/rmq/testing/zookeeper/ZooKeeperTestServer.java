package io.rmq.testing.zookeeper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

/**
 * A real, in-process ZooKeeper server for tests (Curator's {@link TestingServer}) on a free port,
 * with a short tick ({@value #TICK_MS} ms) so that tests may use session timeouts from
 * {@code 2 * tick} to {@code 20 * tick} ({@value #MAX_SESSION_TIMEOUT_MS} ms) and see sessions
 * expire quickly. Tests usually get one from {@link ZooKeeperExtension} ({@link ZooKeeperTest}).
 *
 * <p>Tests simulate an outage with {@link #stop()} and {@link #restart()}: clients lose their
 * connections, the data (and the sessions, which the restarted server gives a fresh timeout) stay.
 * A stopped server is also how a test meets a ZooKeeper that is not reachable yet. Close it after the
 * test. Not thread-safe.
 */
public final class ZooKeeperTestServer implements AutoCloseable {

    /** The server's tick: sessions are checked for expiry once per tick. */
    public static final int TICK_MS = 200;
    /** The longest session timeout the server grants ({@code 20 * tick}). */
    public static final int MAX_SESSION_TIMEOUT_MS = 20 * TICK_MS;

    private final TestingServer server;
    private boolean running = true;

    private ZooKeeperTestServer(TestingServer server) {
        this.server = server;
    }

    /** Starts a server on a free port. */
    public static ZooKeeperTestServer start() {
        InstanceSpec spec = new InstanceSpec(null, -1, -1, -1, true, -1, TICK_MS, -1);
        try {
            return new ZooKeeperTestServer(new TestingServer(spec, true));
        } catch (Exception e) {
            throw new IllegalStateException("cannot start a ZooKeeper test server", e);
        }
    }

    /**
     * Starts a server on a free port that requires every client to authenticate with the {@code digest}
     * scheme before any other request ({@code enforce.auth.enabled}); an unauthenticated client is
     * disconnected at its first request.
     */
    public static ZooKeeperTestServer startRequiringAuthentication() {
        Map<String, Object> enforce = Map.of("enforce.auth.enabled", "true", "enforce.auth.schemes", "digest");
        InstanceSpec spec = new InstanceSpec(null, -1, -1, -1, true, -1, TICK_MS, -1, enforce);
        try {
            return new ZooKeeperTestServer(new TestingServer(spec, true));
        } catch (Exception e) {
            throw new IllegalStateException("cannot start a ZooKeeper test server", e);
        } finally {
            // ZooKeeper turns unknown settings into JVM-wide system properties: keep them from other servers
            System.clearProperty("zookeeper.enforce.auth.enabled");
            System.clearProperty("zookeeper.enforce.auth.schemes");
        }
    }

    /** {@code 127.0.0.1:<port>}; the same across {@link #stop()} and {@link #restart()}. */
    public String connectString() {
        return server.getConnectString();
    }

    public int port() {
        return server.getPort();
    }

    /** Whether the server runs: started, and not stopped since (or restarted). */
    public boolean isRunning() {
        return running;
    }

    /** Stops the server as in an outage; {@link #restart()} brings it back with its data. */
    public void stop() {
        try {
            server.stop();
            running = false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts the server again after {@link #stop()}, on the same port, with the same data. */
    public void restart() {
        try {
            server.restart();
            running = true;
        } catch (Exception e) {
            throw new IllegalStateException("cannot restart the ZooKeeper test server", e);
        }
    }

    @Override
    public void close() {
        running = false;
        try {
            server.close();
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }

    @Override
    public String toString() {
        return "ZooKeeper test server at " + connectString();
    }
}
