package io.rmq.testing.faults;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One connection that a {@link FaultProxy} forwards: the client's socket and the one to the target, with two
 * daemon threads per direction. A reader takes each chunk as it arrives and a writer forwards it once the latency
 * has passed since its arrival, so latency delays data without limiting throughput. Once silenced, the link
 * swallows what either side writes and closes nothing. When either side closes, both sockets are closed and the
 * link reports itself ended. Thread-safe.
 */
final class ProxyLink {

    private final Socket client;
    private final Socket upstream;
    private final Supplier<Duration> latency;
    private final Consumer<ProxyLink> onEnd;
    private volatile boolean silent;

    ProxyLink(Socket client, Socket upstream, Supplier<Duration> latency, Consumer<ProxyLink> onEnd) {
        this.client = client;
        this.upstream = upstream;
        this.latency = latency;
        this.onEnd = onEnd;
    }

    /** Starts forwarding both ways. */
    void start() {
        pump(client, upstream);
        pump(upstream, client);
    }

    /** Stops forwarding for good, without closing anything. */
    void silence() {
        silent = true;
    }

    /** Closes both sockets; with an RST when {@code withReset}. */
    void close(boolean withReset) {
        if (withReset) {
            lingerZero(client);
            lingerZero(upstream);
        }
        closeQuietly(client);
        closeQuietly(upstream);
    }

    private void pump(Socket from, Socket to) {
        BlockingQueue<Chunk> chunks = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            byte[] buffer = new byte[16384];
            try (InputStream in = from.getInputStream()) {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    if (!silent) { // when silent, swallowed: nobody hears of it, and nobody closes anything
                        chunks.add(new Chunk(System.nanoTime() + latency.get().toNanos(), Arrays.copyOf(buffer, n)));
                    }
                }
            } catch (IOException e) {
                // reset, or one side closed
            } finally {
                chunks.add(Chunk.END);
            }
        }, "fault-proxy-reader");
        Thread writer = new Thread(() -> {
            try (OutputStream out = to.getOutputStream()) {
                for (Chunk c = chunks.take(); c != Chunk.END; c = chunks.take()) {
                    long wait = c.dueNanos - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L)); // the injected latency
                    }
                    if (!silent) {
                        out.write(c.data);
                        out.flush();
                    }
                }
            } catch (IOException e) {
                // reset, or one side closed
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                if (!silent) {
                    close(false);
                    onEnd.accept(this);
                }
            }
        }, "fault-proxy-writer");
        reader.setDaemon(true);
        writer.setDaemon(true);
        reader.start();
        writer.start();
    }

    /** Data read at one time, to be forwarded at {@code dueNanos}. */
    private record Chunk(long dueNanos, byte[] data) {
        static final Chunk END = new Chunk(0, new byte[0]);
    }

    private static void lingerZero(Socket s) {
        try {
            s.setSoLinger(true, 0); // close with an RST
        } catch (IOException e) {
            // closing anyway
        }
    }

    static void closeQuietly(Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
