package io.rmq.engine;

import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.rmq.engine.coordination.ZooKeeperSessions;

/**
 * The engine's entry point: one Redis server (or Sentinel-managed master), shared by every
 * producer and consumer created from it.
 *
 * <p>Lifecycle: {@code LATENT -> STARTED -> CLOSED}. The constructor validates and does no I/O;
 * {@link #start()} connects in the background and keeps retrying (with a log line per attempt) while
 * Redis is unreachable; once connected, Lettuce reconnects by itself after an outage. While Redis
 * is unreachable, commands fail at once (they are not buffered), so a send is reported as failed
 * rather than left in doubt, and consumers retry their pops; after a reconnect every consumer polls
 * its slots, since wake notices may have been missed.
 *
 * <p>Consumers that coordinate through ZooKeeper share one ZooKeeper session per distinct ensemble
 * and timeouts among the consumers of this client; it is closed with the client.
 *
 * <p>Thread-safe.
 */
public final class RmqEngine implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(RmqEngine.class.getName());

    /** Lettuce command timeout: a command without a reply by then fails, and is retried or reported. */
    public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(10);

    private enum State { LATENT, STARTED, CLOSED }

    private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);
    private final RedisURI uri;
    private final String displayUri;
    private final RedisClient redisClient;
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    private final CompletableFuture<Boolean> firstAttempt = new CompletableFuture<>();
    private final Map<String, WakeListener> wakeListeners = new ConcurrentHashMap<>();
    private final Map<String, String> registeredTopics = new ConcurrentHashMap<>();
    private final ScheduledExecutorService housekeeping;
    private final ZooKeeperSessions zooKeeperSessions;
    private volatile StatefulRedisConnection<byte[], byte[]> connection;
    private volatile StatefulRedisPubSubConnection<String, String> pubSub;
    private volatile ScriptRunner scripts;
    private volatile boolean connected;

    /** Receives wake notices {@code <slot>:<delay ms>} of one topic. */
    public interface WakeListener {
        void wake(int slot, long delayMillis);

        /** Redis connection (re)established: notices may have been missed. */
        void reconnected();
    }

    /**
     * @param redisUri a Lettuce URI: {@code redis://}, {@code rediss://} or {@code redis-sentinel://},
     *                 with credentials if needed
     */
    public RmqEngine(String redisUri) {
        this(RedisURI.create(Objects.requireNonNull(redisUri, "redisUri")));
    }

    public RmqEngine(RedisURI uri) {
        this.uri = Objects.requireNonNull(uri, "uri");
        this.displayUri = redact(uri);
        this.redisClient = RedisClient.create();
        redisClient.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(DEFAULT_COMMAND_TIMEOUT))
                .build());
        AtomicInteger n = new AtomicInteger();
        this.housekeeping = Executors.newScheduledThreadPool(1, r -> {
            Thread t = new Thread(r, "rmq-housekeeping-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.zooKeeperSessions = new ZooKeeperSessions(housekeeping);
    }

    /** Starts connecting in the background; see {@link #ready()}. */
    public RmqEngine start() {
        if (!state.compareAndSet(State.LATENT, State.STARTED)) {
            throw new IllegalStateException("RmqEngine for " + displayUri + " cannot be started twice");
        }
        redisClient.addListener(new RedisConnectionStateListener() {
            @Override
            public void onRedisConnected(RedisChannelHandler<?, ?> channel, SocketAddress address) {
                onConnected(channel);
            }

            @Override
            public void onRedisDisconnected(RedisChannelHandler<?, ?> channel) {
                if (channel == connection && connected && state.get() == State.STARTED) {
                    connected = false;
                    LOG.warning("RMQ-0002 Lost the connection to Redis at " + displayUri
                            + "; reconnecting automatically, messages in flight stay in their prepare queues");
                }
            }
        });
        connect(1);
        return this;
    }

    private void connect(int attempt) {
        if (state.get() != State.STARTED) {
            return;
        }
        CompletableFuture.runAsync(() -> {
            StatefulRedisConnection<byte[], byte[]> c = redisClient.connect(ByteArrayCodec.INSTANCE, uri);
            StatefulRedisPubSubConnection<String, String> p = redisClient.connectPubSub(StringCodec.UTF8, uri);
            p.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    dispatchWake(channel, message);
                }
            });
            this.scripts = new ScriptRunner(c.async());
            this.pubSub = p;
            this.connection = c;
        }, housekeeping).whenComplete((ignored, failure) -> {
            if (failure == null) {
                if (state.get() != State.STARTED) {
                    closeConnections();
                    return;
                }
                connected = true;
                LOG.info("RMQ-0001 Connected to Redis at " + displayUri);
                wakeListeners.keySet().forEach(ch -> pubSub.async().subscribe(ch));
                ready.complete(null);
                firstAttempt.complete(true);
            } else {
                firstAttempt.complete(false);
                long delay = Math.min(30_000, 500L * (1L << Math.min(attempt - 1, 6)));
                LOG.warning("RMQ-0003 Redis at " + displayUri + " is unreachable (attempt " + attempt + "): "
                        + rootMessage(failure) + "; retrying in " + delay + " ms");
                housekeeping.schedule(() -> connect(attempt + 1), delay, TimeUnit.MILLISECONDS);
            }
        });
    }

    private void onConnected(RedisChannelHandler<?, ?> channel) {
        if (channel != connection || state.get() != State.STARTED || connected) {
            return;
        }
        connected = true;
        LOG.info("RMQ-0004 Reconnected to Redis at " + displayUri + "; consumers poll their slots again");
        wakeListeners.values().forEach(WakeListener::reconnected);
    }

    /** Completes once the first connection to Redis is established. */
    public CompletionStage<Void> ready() {
        return ready;
    }

    /**
     * Completes with the outcome of the first connection attempt: {@code true} when it connected,
     * {@code false} when Redis was unreachable (the client goes on retrying in the background).
     */
    public CompletionStage<Boolean> firstConnectionAttempt() {
        return firstAttempt;
    }

    /** Whether the connection to Redis is currently up. */
    public boolean isConnected() {
        return connected;
    }

    /** The URI with any password hidden, for logs and errors. */
    public String displayUri() {
        return displayUri;
    }

    /**
     * Records the topic's definition in Redis on first use, or checks it against the recorded one.
     * Fails with {@link TopicConflictException} when the recorded slot amount or type differs.
     */
    public CompletionStage<TopicKeys> registerTopic(TopicDefinition topic) {
        String key = topic.keyPrefix() + "\u0000" + topic.name();
        String known = registeredTopics.get(key);
        if (topic.registryValue().equals(known)) {
            return CompletableFuture.completedFuture(new TopicKeys(topic));
        }
        return ready.thenCompose(ignored -> scripts.<byte[]>run(RedisScript.REGISTER_TOPIC,
                new byte[][] { bytes(TopicKeys.registryKey(topic.keyPrefix())) },
                bytes(topic.name()), bytes(topic.registryValue())))
                .thenApply(recorded -> {
                    String value = new String(recorded, StandardCharsets.UTF_8);
                    if (!value.equals(topic.registryValue())) {
                        throw new TopicConflictException(topic, value);
                    }
                    registeredTopics.put(key, value);
                    return new TopicKeys(topic);
                });
    }

    /** Creates a producer for a topic; register the topic first (see {@link #registerTopic}). */
    public TopicProducer producer(TopicKeys keys) {
        return new TopicProducer(this, keys);
    }

    /**
     * Creates a consumer for a topic's slots (all of them when {@code slots} is {@code null}); it does
     * nothing until {@link TopicConsumer#start}.
     */
    public TopicConsumer consumer(TopicKeys keys, ConsumerOptions options, String name) {
        return new TopicConsumer(this, keys, options, name);
    }

    /** The scripts, once connected; fails fast while Redis was never reached. */
    ScriptRunner scripts() {
        ScriptRunner s = scripts;
        if (s == null) {
            throw new RedisUnavailableException("Redis at " + displayUri + " has not been reached yet");
        }
        return s;
    }

    RedisAsyncCommands<byte[], byte[]> commands() {
        return connection.async();
    }

    ScheduledExecutorService housekeeping() {
        return housekeeping;
    }

    ZooKeeperSessions zooKeeperSessions() {
        return zooKeeperSessions;
    }

    void addWakeListener(String channel, WakeListener listener) {
        wakeListeners.put(channel, listener);
        StatefulRedisPubSubConnection<String, String> p = pubSub;
        if (p != null) {
            p.async().subscribe(channel);
        }
    }

    void removeWakeListener(String channel, WakeListener listener) {
        if (wakeListeners.remove(channel, listener)) {
            StatefulRedisPubSubConnection<String, String> p = pubSub;
            if (p != null && p.isOpen()) {
                p.async().unsubscribe(channel);
            }
        }
    }

    private void dispatchWake(String channel, String message) {
        WakeListener listener = wakeListeners.get(channel);
        if (listener == null) {
            return;
        }
        int colon = message.indexOf(':');
        try {
            listener.wake(Integer.parseInt(message.substring(0, colon)), Long.parseLong(message.substring(colon + 1)));
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Ignoring malformed wake notice '" + message + "' on " + channel, e);
        }
    }

    @Override
    public void close() {
        if (state.getAndSet(State.CLOSED) == State.CLOSED) {
            return;
        }
        ready.completeExceptionally(new IllegalStateException("RmqEngine for " + displayUri + " is closed"));
        closeConnections();
        zooKeeperSessions.close();
        housekeeping.shutdownNow();
        redisClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }

    private void closeConnections() {
        connected = false;
        if (pubSub != null) {
            pubSub.close();
        }
        if (connection != null) {
            connection.close();
        }
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = String.valueOf(t.getMessage());
        if (root == t || message.contains(String.valueOf(root.getMessage()))) {
            return message;
        }
        return message + " (" + root.getMessage() + ")";
    }

    private static String redact(RedisURI uri) {
        String s = uri.toString();
        return s.replaceAll("(?<=//)[^@/]*@", "***@");
    }
}
