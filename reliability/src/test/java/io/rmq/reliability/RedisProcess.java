package io.rmq.reliability;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.rmq.embedded.EmbeddedRedis;

/**
 * A {@code redis-server} process of the test's own, with the persistence the scenario asks for (an
 * append-only file with a given {@code appendfsync}, or none), that the test can {@link #kill()} with
 * {@code SIGKILL} and {@link #start()} again on the same port and directory, so it loads what it
 * persisted. Not thread-safe.
 */
final class RedisProcess implements AutoCloseable {

    private final List<String> command;
    private final Path dir;
    private final int port;
    private Process process;

    private RedisProcess(Path dir, int port, List<String> persistence) {
        this.dir = dir;
        this.port = port;
        this.command = new ArrayList<>(List.of(binary(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--dir", dir.toString(), "--save", "", "--daemonize", "no", "--logfile", dir.resolve("redis.log").toString()));
        command.addAll(persistence);
    }

    /** Redis with an append-only file, {@code appendfsync} {@code always}, {@code everysec} or {@code no}. */
    static RedisProcess withAof(Path dir, String appendfsync) {
        return new RedisProcess(dir, freePort(), List.of("--appendonly", "yes", "--appendfsync", appendfsync));
    }

    /** Redis that persists nothing. */
    static RedisProcess inMemory(Path dir) {
        return new RedisProcess(dir, freePort(), List.of("--appendonly", "no"));
    }

    String uri() {
        return "redis://127.0.0.1:" + port;
    }

    int port() {
        return port;
    }

    /** Starts the server and waits until it answers {@code PING} (after loading its append-only file). */
    RedisProcess start() {
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("redis.out").toFile()).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + command, e);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if ("PONG".equals(ping())) {
                return this;
            }
            if (!process.isAlive()) {
                break;
            }
            sleepBriefly();
        }
        throw new IllegalStateException("redis-server did not start on port " + port + "; log: " + log());
    }

    /** {@code kill -9}: the server dies at once, with no chance to write anything more. */
    void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private String ping() {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(1_000);
            OutputStream out = s.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] buffer = new byte[64];
            int n = in.read(buffer);
            return n <= 0 ? null : new String(buffer, 0, n, StandardCharsets.US_ASCII).strip().replace("+", "");
        } catch (IOException e) {
            return null;
        }
    }

    private String log() {
        try {
            return Files.readString(dir.resolve("redis.log"));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static void sleepBriefly() {
        try {
            Thread.sleep(20); // polling a process that gives no event when it is ready
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The embedded-redis server whose binary is used when there is no redis-server on the PATH; kept for the JVM. */
    private static EmbeddedRedis fallback;

    /** {@code redis-server} from the {@code PATH}, else the binary shipped in embedded-redis (as the other tests do). */
    private static synchronized String binary() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path p = Path.of(dir, "redis-server");
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        if (fallback == null) {
            fallback = EmbeddedRedis.start(); // stopped when the JVM exits
        }
        return fallback.binary().toString();
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port", e);
        }
    }

    @Override
    public void close() {
        if (process != null) {
            kill();
        }
    }
}
