package io.rmq.testing;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

/**
 * A real, in-process ZooKeeper server for tests (Curator's {@link TestingServer}), on a free port or
 * a given one, with a short tick ({@value #TICK_MS} ms) so that tests may use session timeouts from
 * {@code 2 * tick} to {@code 20 * tick} ({@value #MAX_SESSION_TIMEOUT_MS} ms) and see sessions
 * expire quickly.
 *
 * <p>Tests simulate an outage with {@link #stop()} and {@link #restart()}: clients lose their
 * connections, the data (and the sessions, which the restarted server gives a fresh timeout) stay.
 * Close it after the test. Not thread-safe.
 */
public final class ZooKeeperTestServer implements AutoCloseable {

    /** The server's tick: sessions are checked for expiry once per tick. */
    public static final int TICK_MS = 200;
    /** The longest session timeout the server grants ({@code 20 * tick}). */
    public static final int MAX_SESSION_TIMEOUT_MS = 20 * TICK_MS;

    private final TestingServer server;

    private ZooKeeperTestServer(TestingServer server) {
        this.server = server;
    }

    /** Starts a server on a free port. */
    public static ZooKeeperTestServer start() {
        return startOn(-1);
    }

    /** Starts a server on the given port ({@code -1} for a free one). */
    public static ZooKeeperTestServer startOn(int port) {
        InstanceSpec spec = new InstanceSpec(null, port, -1, -1, true, -1, TICK_MS, -1);
        try {
            return new ZooKeeperTestServer(new TestingServer(spec, true));
        } catch (Exception e) {
            throw new IllegalStateException("cannot start a ZooKeeper test server on port " + port, e);
        }
    }

    /** A free loopback port, for a server that a test starts later (nothing listens there until then). */
    public static int freePort() {
        return InstanceSpec.getRandomPort();
    }

    /** {@code 127.0.0.1:<port>}. */
    public String connectString() {
        return server.getConnectString();
    }

    public int port() {
        return server.getPort();
    }

    /** Stops the server as in an outage; {@link #restart()} brings it back with its data. */
    public void stop() {
        try {
            server.stop();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts the server again after {@link #stop()}, on the same port, with the same data. */
    public void restart() {
        try {
            server.restart();
        } catch (Exception e) {
            throw new IllegalStateException("cannot restart the ZooKeeper test server", e);
        }
    }

    @Override
    public void close() {
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
