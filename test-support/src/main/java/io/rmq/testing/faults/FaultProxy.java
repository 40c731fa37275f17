package io.rmq.testing.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on a free loopback port that injects the network faults of the tests between a client and a server
 * (Redis, ZooKeeper):
 * <ul>
 *   <li>{@link #cut()}: every open connection is closed and new ones are refused, until {@link #restore()}
 *       (the server is unreachable);</li>
 *   <li>{@link #refuse(boolean)}: new connections are closed as soon as they are accepted; open ones go on;</li>
 *   <li>{@link #reset()}: every open connection is reset (an RST, as when a middlebox drops them); new ones
 *       work;</li>
 *   <li>{@link #silence()}: every open connection goes silent for good: the proxy stops forwarding in both
 *       directions but closes nothing, like a peer that vanished behind a firewall or a NAT that forgot the
 *       connection (a half-open connection); new ones work;</li>
 *   <li>{@link #latency(Duration)}: every chunk of data is forwarded that long after it arrived (throughput is not
 *       limited).</li>
 * </ul>
 * Close it after the test. Thread-safe.
 */
public final class FaultProxy implements AutoCloseable {

    /** How long the proxy waits to connect to its target for a new connection. */
    private static final int CONNECT_TIMEOUT_MILLIS = 2_000;

    private final InetSocketAddress target;
    private final ServerSocket server;
    private final Set<ProxyLink> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger accepted = new AtomicInteger();
    private volatile Duration latency = Duration.ZERO;
    private volatile boolean refusing;
    private volatile boolean closed;

    private FaultProxy(InetSocketAddress target) throws IOException {
        this.target = target;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "fault-proxy-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A proxy to {@code 127.0.0.1:<port>}, forwarding without faults. */
    public static FaultProxy to(int port) {
        try {
            return new FaultProxy(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a proxy port", e);
        }
    }

    /** The proxy's own port. */
    public int port() {
        return server.getLocalPort();
    }

    /** {@code 127.0.0.1:<proxy port>}, e.g. for a ZooKeeper connect string. */
    public String address() {
        return "127.0.0.1:" + port();
    }

    /** {@code redis://127.0.0.1:<proxy port>}. */
    public String redisUri() {
        return "redis://" + address();
    }

    /** Connections forwarded so far: a client that replaced its connection shows here. */
    public int accepted() {
        return accepted.get();
    }

    /** Delays every chunk of data by {@code delay} from now on ({@link Duration#ZERO}: none). */
    public void latency(Duration delay) {
        latency = delay;
    }

    /** Closes every open connection and refuses new ones until {@link #restore()}. */
    public void cut() {
        refusing = true;
        closeAll(false);
    }

    /** Resets every open connection with an RST; new connections are forwarded. */
    public void reset() {
        closeAll(true);
    }

    /** Closes new connections at once while {@code refusing}; open ones go on. */
    public void refuse(boolean refusing) {
        this.refusing = refusing;
    }

    /** Forwards new connections again after {@link #cut()} or {@link #refuse(boolean)}. */
    public void restore() {
        refusing = false;
    }

    /** Silences every open connection for good, without closing it; new connections are forwarded. */
    public void silence() {
        open.forEach(ProxyLink::silence);
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return;
            }
            if (refusing) {
                ProxyLink.closeQuietly(client);
                continue;
            }
            Socket upstream = new Socket();
            try {
                upstream.connect(target, CONNECT_TIMEOUT_MILLIS);
            } catch (IOException e) {
                ProxyLink.closeQuietly(client);
                ProxyLink.closeQuietly(upstream);
                continue;
            }
            accepted.incrementAndGet();
            ProxyLink link = new ProxyLink(client, upstream, () -> latency, open::remove);
            open.add(link);
            link.start();
        }
    }

    private void closeAll(boolean withReset) {
        for (ProxyLink link : open) {
            link.close(withReset);
        }
        open.clear();
    }

    @Override
    public void close() {
        closed = true;
        ProxyLink.closeQuietly(server);
        closeAll(false);
    }

    @Override
    public String toString() {
        return "fault proxy " + address() + " -> " + target.getPort();
    }
}
