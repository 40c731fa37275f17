package io.rmq.testing.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free ports on the loopback address, where every test server binds. Stateless and thread-safe. */
public final class Loopback {

    /** The address every server of the fixtures binds. */
    public static final String HOST = "127.0.0.1";

    /** A cluster node's bus port is its port plus this. */
    private static final int BUS_PORT_OFFSET = 10_000;

    private Loopback() {
    }

    /** A port that is free now (another process may take it before it is bound). */
    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port on " + HOST, e);
        }
    }

    /** A free port whose cluster bus port (the port + 10000) is free too. */
    public static int freeClusterPort() {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = freePort();
            if (port + BUS_PORT_OFFSET <= 65_535 && isFree(port + BUS_PORT_OFFSET)) {
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
}
