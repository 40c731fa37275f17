package io.rmq.examples.liberty;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.logging.Logger;

import redis.embedded.RedisServer;

/**
 * The embedded Redis of the example: the {@code redis-server} binary shipped in
 * {@code com.github.codemonstur:embedded-redis}, started on first use on a free loopback port,
 * without persistence, and stopped when the application stops ({@link #stopIfStarted()}) or, at
 * the latest, when the server's JVM exits. One per application (class loader). Thread-safe.
 */
final class ExampleRedis {

    private static final Logger LOG = Logger.getLogger(ExampleRedis.class.getName());
    private static final String HOST = "127.0.0.1";
    private static final int START_TRIES = 3;

    private static ExampleRedis instance;

    private final RedisServer server;
    private final Path workDir;
    private final String uri;
    private final Thread shutdownHook;

    private ExampleRedis(RedisServer server, Path workDir, int port) {
        this.server = server;
        this.workDir = workDir;
        this.uri = "redis://" + HOST + ":" + port;
        this.shutdownHook = new Thread(this::stop, "rmq-example-redis-stop");
    }

    /** The embedded Redis, started on the first call. */
    static synchronized ExampleRedis embedded() {
        if (instance == null) {
            instance = start();
            Runtime.getRuntime().addShutdownHook(instance.shutdownHook);
            LOG.info("RMQ example: started an embedded Redis at " + instance.uri
                    + " (set RMQ_REDIS_URI to use a Redis of your own)");
        }
        return instance;
    }

    /** Stops the embedded Redis if this application started one. */
    static synchronized void stopIfStarted() {
        if (instance != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(instance.shutdownHook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
            instance.stop();
            LOG.info("RMQ example: stopped the embedded Redis at " + instance.uri);
            instance = null;
        }
    }

    String uri() {
        return uri;
    }

    private static ExampleRedis start() {
        Path workDir;
        try {
            workDir = Files.createTempDirectory("rmq-liberty-example-redis-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a working directory for the embedded Redis", e);
        }
        IOException failure = null;
        // a free port may be taken by another process before Redis binds it: try a few
        for (int i = 0; i < START_TRIES; i++) {
            int port = freePort();
            try {
                RedisServer server = RedisServer.newRedisServer()
                        .port(port)
                        .bind(HOST)
                        .setting("save \"\"")
                        .setting("appendonly no")
                        .setting("dir " + workDir)
                        .build();
                server.start();
                return new ExampleRedis(server, workDir, port);
            } catch (IOException e) {
                failure = e;
            }
        }
        throw new UncheckedIOException("cannot start the embedded Redis", failure);
    }

    private void stop() {
        try {
            server.stop();
        } catch (IOException e) {
            LOG.warning("RMQ example: stopping the embedded Redis failed: " + e);
        }
        try (var files = Files.walk(workDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port on " + HOST, e);
        }
    }
}
