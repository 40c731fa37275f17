package io.rmq.reliability;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on a free loopback port with the network faults the scenarios inject between an
 * application and a server:
 * <ul>
 *   <li>{@link #latency}: every chunk of data is forwarded that long after it arrived (throughput is not limited);</li>
 *   <li>{@link #reset()}: every open connection is reset (an RST, as when a middlebox drops them);</li>
 *   <li>{@link #blackHole()}: every open connection goes silent for good: the proxy stops forwarding
 *       in both directions but closes nothing, like a peer that vanished behind a firewall or NAT
 *       that forgot the connection (a half-open connection). New connections work.</li>
 * </ul>
 * and {@link #refuse}: new connections are closed as soon as they are accepted (the server is unreachable).
 * {@code io.rmq.testing.TcpProxy} only cuts; these faults need the proxy to hold what it forwards.
 * Thread-safe.
 */
final class FaultyProxy implements AutoCloseable {

    /** One forwarded connection: both sockets, and whether it was black-holed. */
    private static final class Link {
        final Socket client;
        final Socket upstream;
        volatile boolean silent;

        Link(Socket client, Socket upstream) {
            this.client = client;
            this.upstream = upstream;
        }
    }

    private final InetSocketAddress target;
    private final ServerSocket server;
    private final Set<Link> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger accepted = new AtomicInteger();
    private volatile long latencyMillis;
    private volatile boolean refusing;
    private volatile boolean closed;

    private FaultyProxy(InetSocketAddress target) throws IOException {
        this.target = target;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "faulty-proxy-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A proxy to {@code 127.0.0.1:<port>}. */
    static FaultyProxy to(int port) {
        try {
            return new FaultyProxy(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a proxy port", e);
        }
    }

    int port() {
        return server.getLocalPort();
    }

    String redisUri() {
        return "redis://127.0.0.1:" + port();
    }

    String address() {
        return "127.0.0.1:" + port();
    }

    /** Connections accepted so far: a client that replaced its connection shows here. */
    int accepted() {
        return accepted.get();
    }

    /** Delays every chunk by {@code millis} (0: none). */
    void latency(long millis) {
        latencyMillis = millis;
    }

    /** Resets every open connection. */
    void reset() {
        for (Link l : open) {
            resetQuietly(l.client);
            resetQuietly(l.upstream);
        }
        open.clear();
    }

    /** Closes new connections at once while {@code refusing}. */
    void refuse(boolean refusing) {
        this.refusing = refusing;
    }

    /** Silences every open connection for good, without closing it. */
    void blackHole() {
        open.forEach(l -> l.silent = true);
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
            accepted.incrementAndGet();
            Link link = new Link(client, upstream);
            open.add(link);
            pump(link, client, upstream);
            pump(link, upstream, client);
        }
    }

    /**
     * Forwards one direction: a reader takes each chunk as it arrives and a writer forwards it once
     * the latency has passed since its arrival, so latency delays data without limiting throughput.
     */
    private void pump(Link link, Socket from, Socket to) {
        BlockingQueue<Chunk> chunks = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            byte[] buffer = new byte[16384];
            try (InputStream in = from.getInputStream()) {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    if (!link.silent) { // when silent, swallowed: nobody hears of it, and nobody closes anything
                        chunks.add(new Chunk(System.nanoTime() + latencyMillis * 1_000_000L, Arrays.copyOf(buffer, n)));
                    }
                }
            } catch (IOException e) {
                // reset, or one side closed
            } finally {
                chunks.add(Chunk.END);
            }
        }, "faulty-proxy-reader");
        Thread writer = new Thread(() -> {
            try (OutputStream out = to.getOutputStream()) {
                for (Chunk c = chunks.take(); c != Chunk.END; c = chunks.take()) {
                    long wait = c.dueNanos - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L)); // the injected latency
                    }
                    if (!link.silent) {
                        out.write(c.data);
                        out.flush();
                    }
                }
            } catch (IOException e) {
                // reset, or one side closed
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                if (!link.silent) {
                    closeQuietly(from);
                    closeQuietly(to);
                    open.remove(link);
                }
            }
        }, "faulty-proxy-writer");
        reader.setDaemon(true);
        writer.setDaemon(true);
        reader.start();
        writer.start();
    }

    /** Data read at one time, to be forwarded at {@code dueNanos}. */
    private record Chunk(long dueNanos, byte[] data) {
        static final Chunk END = new Chunk(0, new byte[0]);
    }

    private static void resetQuietly(Socket s) {
        try {
            s.setSoLinger(true, 0); // close with an RST
        } catch (IOException e) {
            // closing anyway
        }
        closeQuietly(s);
    }

    private static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(server);
        for (Link l : open) {
            closeQuietly(l.client);
            closeQuietly(l.upstream);
        }
        open.clear();
    }
}
