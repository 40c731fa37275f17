package io.rmq.testing.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;

/**
 * Lettuce connections to the {@link RedisTestServer} for one test, opened on first use and all
 * closed by {@link #close()}. {@link RedisExtension} injects one per test and closes it after the
 * test; a test that creates its own must close it. The Netty resources behind the clients are
 * shared by the whole JVM, so a client per test is cheap. Not thread-safe (the connections are).
 */
public final class RedisConnections implements AutoCloseable {

    /** Command timeout of the connections: a hanging call fails the test instead of stalling it. */
    public static final Duration TIMEOUT = Duration.ofSeconds(10);

    private static ClientResources resources;

    private final RedisTestServer server;
    private final List<AutoCloseable> opened = new ArrayList<>();
    private RedisClient client;
    private StatefulRedisConnection<byte[], byte[]> binary;
    private RedisCommands<String, String> sync;

    /** Connections to {@code server}; nothing is opened before the first use. */
    public RedisConnections(RedisTestServer server) {
        this.server = server;
    }

    /** A client of the test server, shut down by {@link #close()}. */
    public RedisClient client() {
        if (client == null) {
            client = RedisClient.create(sharedResources(), RedisURI.builder(RedisURI.create(server.uri())).withTimeout(TIMEOUT).build());
        }
        return client;
    }

    /** A connection with {@link ByteArrayCodec}, as the engine uses (e.g. {@code new ScriptRunner(binary().async())}). */
    public StatefulRedisConnection<byte[], byte[]> binary() {
        if (binary == null) {
            binary = client().connect(ByteArrayCodec.INSTANCE);
        }
        return binary;
    }

    /** Synchronous commands with UTF-8 strings, for setting up and checking state. */
    public RedisCommands<String, String> sync() {
        if (sync == null) {
            sync = client().connect().sync();
        }
        return sync;
    }

    /** The Redis clock ({@code TIME}) in ms since the epoch, as the engine's scripts read it. */
    public long redisTimeMillis() {
        List<String> time = sync().time();
        return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    }

    /** Subscribes to a Pub/Sub channel and records what is published on it from now on; closed by {@link #close()}. */
    public ChannelRecorder record(String channel) {
        ChannelRecorder recorder = ChannelRecorder.subscribe(client(), sync(), channel);
        opened.add(recorder);
        return recorder;
    }

    /** Closes the recorders and connections and shuts the client down. */
    @Override
    public void close() {
        for (AutoCloseable closeable : opened) {
            try {
                closeable.close();
            } catch (Exception e) {
                // the client's shutdown below closes whatever is left
            }
        }
        opened.clear();
        if (client != null) {
            client.shutdown();
        }
        client = null;
        binary = null;
        sync = null;
    }

    private static synchronized ClientResources sharedResources() {
        if (resources == null) {
            resources = DefaultClientResources.create();
            ClientResources created = resources;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> created.shutdown(), "rmq-redis-test-resources-stop"));
        }
        return resources;
    }
}
