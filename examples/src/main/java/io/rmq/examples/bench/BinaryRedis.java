package io.rmq.examples.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
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
import java.util.stream.Stream;

/**
 * A {@code redis-server} process of a given binary (the benchmark's Redis 6.2 from embedded-redis, whatever
 * the {@code PATH} holds): on a free loopback port, without persistence, in a temporary directory of its
 * own that also holds its log. {@link #close()} stops it and deletes the directory; a shutdown hook does
 * so too if the program ends first.
 *
 * <p>Not thread-safe: start and close it from the main thread.
 */
final class BinaryRedis implements AutoCloseable {

    private static final long STARTUP_MILLIS = 20_000;

    private final Process process;
    private final Path directory;
    private final int port;
    private final Thread shutdownHook;

    private BinaryRedis(Process process, Path directory, int port) {
        this.process = process;
        this.directory = directory;
        this.port = port;
        this.shutdownHook = new Thread(this::stop, "rmq-bench-redis-stop-" + port);
    }

    /** Starts {@code binary} and waits until it answers {@code PING}. */
    static BinaryRedis start(Path binary) throws IOException {
        Path directory = Files.createTempDirectory("rmq-bench-redis-");
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        Process process = new ProcessBuilder(List.of(binary.toString(), "--port", Integer.toString(port),
                "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no",
                "--dir", directory.toString()))
                .redirectErrorStream(true)
                .redirectOutput(directory.resolve("redis.log").toFile())
                .start();
        BinaryRedis redis = new BinaryRedis(process, directory, port);
        Runtime.getRuntime().addShutdownHook(redis.shutdownHook);
        try {
            redis.awaitPong(binary);
            return redis;
        } catch (IOException | RuntimeException e) {
            redis.close();
            throw e;
        }
    }

    String uri() {
        return "redis://127.0.0.1:" + port;
    }

    private void awaitPong(Path binary) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STARTUP_MILLIS);
        while (System.nanoTime() - deadline < 0) {
            if (!process.isAlive()) {
                throw new IOException(binary + " exited at startup:\n" + log());
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
                socket.setSoTimeout(5_000);
                OutputStream out = socket.getOutputStream();
                out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = socket.getInputStream();
                if (new String(in.readNBytes(7), StandardCharsets.US_ASCII).equals("+PONG\r\n")) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while " + binary + " started", e);
            }
        }
        throw new IOException(binary + " did not answer PING within " + STARTUP_MILLIS + " ms:\n" + log());
    }

    private String log() {
        try {
            return Files.readString(directory.resolve("redis.log"));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private void stop() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            return; // the hook stops the server
        }
        stop();
    }
}
