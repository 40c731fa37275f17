package io.rmq.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy on a free loopback port, forwarding to one address, that a test can {@link #cut()}
 * to simulate a network partition between one client and a server (the client's other connections,
 * to Redis for example, keep working) and {@link #restore()} again. While cut, open connections are
 * closed and new ones are closed as soon as they are accepted. A test can also {@link #silence()} the
 * connections that are open: they stay open but carry nothing any more (a half-open connection, as when a
 * NAT or a firewall forgets them), while connections opened afterwards work. Thread-safe.
 */
public final class TcpProxy implements AutoCloseable {

    private final InetSocketAddress target;
    private final ServerSocket server;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Set<Socket> silenced = ConcurrentHashMap.newKeySet();
    private volatile boolean cut;
    private volatile boolean closed;

    private TcpProxy(InetSocketAddress target) throws IOException {
        this.target = target;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "tcp-proxy-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A proxy to {@code 127.0.0.1:<port>}. */
    public static TcpProxy to(int port) {
        try {
            return new TcpProxy(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a proxy port", e);
        }
    }

    /** The proxy's own port. */
    public int port() {
        return server.getLocalPort();
    }

    /** {@code 127.0.0.1:<proxy port>}, for a ZooKeeper connect string. */
    public String address() {
        return "127.0.0.1:" + port();
    }

    /** Breaks every connection and refuses new ones until {@link #restore()}. */
    public void cut() {
        cut = true;
        open.forEach(TcpProxy::closeQuietly);
        open.clear();
    }

    /**
     * Silences every connection open now, for good: each stays open, and what either side writes is dropped.
     * Connections accepted afterwards are forwarded.
     */
    public void silence() {
        silenced.addAll(open);
    }

    /** Forwards again. */
    public void restore() {
        cut = false;
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return;
            }
            if (cut) {
                closeQuietly(client);
                continue;
            }
            Socket upstream = new Socket();
            try {
                upstream.connect(target, 2_000);
            } catch (IOException e) {
                closeQuietly(client);
                closeQuietly(upstream);
                continue;
            }
            open.add(client);
            open.add(upstream);
            pump(client, upstream);
            pump(upstream, client);
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    if (silenced.contains(from)) {
                        continue; // dropped: the peer never hears of it
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // cut, or one side closed
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
                silenced.remove(from);
                silenced.remove(to);
            }
        }, "tcp-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(server);
        cut();
    }

    private static void closeQuietly(ServerSocket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
