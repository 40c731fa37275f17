package io.rmq.engine.redis;

import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.event.ClusterTopologyChangedEvent;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.pubsub.RedisClusterPubSubAdapter;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.pubsub.api.async.RedisPubSubAsyncCommands;
import io.rmq.engine.i18n.EngineExceptions;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.support.ClientShutdown;
import io.rmq.engine.support.DaemonThreads;
import io.rmq.engine.support.UriCredentials;

/**
 * The connection to Redis: a command connection and a Pub/Sub connection, connected in the background
 * and kept connected. What the URI names is found at each connection attempt ({@link RedisTopology}): one
 * server or a Sentinel-managed master (Lettuce's {@link RedisClient}), or any node of a Redis Cluster, or a
 * comma-separated list of its seed nodes ({@link RedisClusterClient}, which follows the topology, routes
 * each command to the node of its key's hash slot, and subscribes to sharded wake channels on the node
 * that serves them).
 *
 * <p>Lifecycle: {@code LATENT -> STARTED -> CLOSED}. The constructor validates and does no I/O;
 * {@link #start()} connects in the background and keeps retrying, with a log line per attempt, while
 * Redis is unreachable; once connected, Lettuce reconnects by itself after an outage. While Redis
 * is unreachable, commands fail at once (they are not buffered), so a send is reported as failed
 * rather than left in doubt.
 *
 * <p>Threading: connection attempts run on the given scheduler; {@link Listener}s are called on
 * Lettuce's threads and must not block. Thread-safe.
 */
public final class RmqClient implements AutoCloseable {

    private static final EngineLogging LOG = EngineLogging.log;

    private static final Duration DEFAULT_COMMAND_TIMEOUT = RedisAccess.DEFAULT_COMMAND_TIMEOUT;

    /** How often an idle connection is checked for a reply (see {@link ConnectionLiveness}). */
    public static final Duration LIVENESS_INTERVAL = Duration.ofSeconds(2);

    /** Told about the connection; called on Lettuce's threads, without blocking. */
    public interface Listener {
        /** The connection is up: the first time ({@code first}), or again after an outage. */
        void connected(boolean first);

        /** A Pub/Sub message arrived on a channel this client subscribed to. */
        void message(String channel, String message);
    }

    private enum State { LATENT, STARTED, CLOSED }

    private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);
    private final List<RedisURI> uris;
    private final String displayUri;
    private final SslOptions ssl;
    private final RedisClient redisClient;
    private final RedisConnectionStateListener stateListener = new StateListener();
    private volatile RedisClusterClient clusterClient;
    private final ScheduledExecutorService scheduler;
    private final Object timerLock = new Object();
    /** See {@link #timer()}; guarded by {@link #timerLock}. */
    private ScheduledExecutorService timer;
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    private final CompletableFuture<Boolean> firstAttempt = new CompletableFuture<>();
    private volatile StatefulConnection<byte[], byte[]> connection;
    /** The connections of durable producers ({@link #connectDedicated()}). */
    private final List<StatefulConnection<byte[], byte[]>> dedicated = new CopyOnWriteArrayList<>();
    private volatile StatefulRedisPubSubConnection<String, String> pubSub;
    private volatile ScriptRunner scripts;
    private volatile boolean connected;
    private volatile boolean cluster;
    private volatile boolean sharded;
    private volatile boolean shebang;

    /** @param scheduler runs the connection attempts; not shut down by {@link #close()} */
    public RmqClient(RedisURI uri, ScheduledExecutorService scheduler) {
        this(List.of(uri), UriCredentials.mask(uri.toString()), null, scheduler);
    }

    /** @param scheduler runs the connection attempts; not shut down by {@link #close()} */
    public RmqClient(RedisAccess access, ScheduledExecutorService scheduler) {
        this(access.redisUris(), access.displayUri(), access.sslOptions().orElse(null), scheduler);
    }

    private RmqClient(List<RedisURI> uris, String displayUri, SslOptions ssl, ScheduledExecutorService scheduler) {
        this.uris = List.copyOf(uris);
        this.ssl = ssl;
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.displayUri = displayUri;
        this.redisClient = RedisClient.create();
        ClientOptions.Builder options = ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(DEFAULT_COMMAND_TIMEOUT));
        if (ssl != null) {
            options.sslOptions(ssl);
        }
        redisClient.setOptions(options.build());
    }

    /** The scheduler that runs the connection attempts. */
    public ScheduledExecutorService scheduler() {
        return scheduler;
    }

    /**
     * A timer for short deadlines (those of durable sends): a thread of its own, started on first use and stopped
     * with this client. Neither {@link #scheduler()} nor Lettuce's event executors, whose threads block for a while
     * opening connections (during a failover, hundreds of milliseconds), would keep a deadline.
     */
    public ScheduledExecutorService timer() {
        synchronized (timerLock) {
            if (timer == null) {
                ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1,
                        DaemonThreads.numbered("rmq-deadlines-"));
                t.setRemoveOnCancelPolicy(true);
                timer = t;
                if (state.get() == State.CLOSED) {
                    t.shutdownNow();
                }
            }
            return timer;
        }
    }

    /** Registers a listener; register before {@link #start()} to hear the first connection. */
    public void addListener(Listener listener) {
        listeners.add(listener);
    }

    /** Starts connecting in the background; see {@link #ready()}. */
    public void start() {
        if (!state.compareAndSet(State.LATENT, State.STARTED)) {
            throw EngineExceptions.ex.cannotStartInState("the Redis client for " + displayUri, state.get().name());
        }
        redisClient.addListener(stateListener);
        connect(1);
    }

    /**
     * Hears the connection go down and come back. Standalone: the command connection. Cluster: any node
     * connection (Lettuce reconnects each node, or follows its replica after a failover).
     */
    private final class StateListener implements RedisConnectionStateListener {
        @Override
        public void onRedisConnected(RedisChannelHandler<?, ?> channel, SocketAddress address) {
            onReconnected(channel);
        }

        @Override
        public void onRedisDisconnected(RedisChannelHandler<?, ?> channel) {
            if (concerns(channel) && connected && state.get() == State.STARTED) {
                connected = false;
                LOG.redisConnectionLost(displayUri);
            }
        }
    }

    private boolean concerns(RedisChannelHandler<?, ?> channel) {
        return cluster ? ready.isDone() : channel == connection;
    }

    private void connect(int attempt) {
        if (state.get() != State.STARTED) {
            return;
        }
        CompletableFuture.runAsync(() -> {
            RedisTopology topology = RedisTopology.detect(redisClient, uris);
            if (topology.olderThanRequired()) {
                EngineLogging.log.redisTooOld(displayUri, topology.version(), RedisTopology.MINIMUM_VERSION);
            }
            if (topology.cluster()) {
                connectCluster(topology);
            } else {
                connectStandalone();
            }
        }, scheduler).whenComplete((ignored, failure) -> {
            if (failure == null) {
                if (state.get() != State.STARTED) {
                    closeConnections();
                    RedisClusterClient c = clusterClient; // closed meanwhile: close() found no cluster client yet
                    if (c != null) {
                        ClientShutdown.shutdown(c, displayUri);
                    }
                    return;
                }
                connected = true;
                LOG.redisConnected(displayUri);
                if (cluster) {
                    LOG.connectedToCluster(displayUri, sharded);
                }
                listeners.forEach(l -> l.connected(true));
                ready.complete(null);
                firstAttempt.complete(true);
            } else {
                firstAttempt.complete(false);
                long delay = Math.min(30_000, 500L * (1L << Math.min(attempt - 1, 6)));
                ConnectionFailure.of(failure).log(displayUri, attempt, rootMessage(failure), delay);
                scheduler.schedule(() -> connect(attempt + 1), delay, TimeUnit.MILLISECONDS);
            }
        });
    }

    private void connectStandalone() {
        RedisURI uri = uris.get(0);
        StatefulRedisConnection<byte[], byte[]> c = redisClient.connect(ByteArrayCodec.INSTANCE, uri);
        StatefulRedisPubSubConnection<String, String> p;
        try {
            p = redisClient.connectPubSub(StringCodec.UTF8, uri);
        } catch (RuntimeException e) {
            c.close(); // a half-open client would keep reconnecting in the background
            throw e;
        }
        p.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String message) {
                listeners.forEach(l -> l.message(channel, message));
            }
        });
        this.scripts = new ScriptRunner(c.async());
        this.pubSub = p;
        this.connection = c;
        ConnectionLiveness.watch(scheduler, LIVENESS_INTERVAL, displayUri, c, scripts::lastReplyNanos, p);
    }

    private void connectCluster(RedisTopology topology) {
        RedisClusterClient client = RedisTopology.clusterClient(uris, Optional.ofNullable(ssl),
                DEFAULT_COMMAND_TIMEOUT);
        client.addListener(stateListener);
        try {
            StatefulRedisClusterConnection<byte[], byte[]> c = client.connect(ByteArrayCodec.INSTANCE);
            StatefulRedisClusterPubSubConnection<String, String> p = client.connectPubSub(StringCodec.UTF8);
            p.addListener(new RedisClusterPubSubAdapter<>() {
                @Override
                public void message(RedisClusterNode node, String channel, String message) {
                    listeners.forEach(l -> l.message(channel, message));
                }

                @Override
                public void smessage(RedisClusterNode node, String channel, String message) {
                    listeners.forEach(l -> l.message(channel, message));
                }
            });
            p.setNodeMessagePropagation(true); // sharded subscriptions live on node connections
            // after a failover or a resharding, the sharded subscriptions must move with their slots
            client.getResources().eventBus().get()
                    .filter(event -> event instanceof ClusterTopologyChangedEvent)
                    .subscribe(event -> onTopologyChanged());
            this.cluster = true;
            this.sharded = topology.shardedPubSub();
            this.shebang = topology.shebangScripts();
            this.scripts = new ScriptRunner(c.async(), topology.shardedPubSub(), topology.shebangScripts());
            this.pubSub = p;
            this.connection = c;
            this.clusterClient = client;
            ConnectionLiveness.watchCluster(scheduler, LIVENESS_INTERVAL, displayUri, c);
        } catch (RuntimeException e) {
            ClientShutdown.shutdown(client, displayUri);
            throw e;
        }
    }

    /** Whether wake notices travel on sharded channels, one per slot (a Redis 7 cluster). */
    boolean shardedWakeChannels() {
        return sharded;
    }

    /**
     * Subscribes ({@code subscribe}) or unsubscribes sharded channels, each on the Pub/Sub connection of the
     * master that serves its hash slot now. Does nothing before the first connection.
     */
    void shardedSubscription(boolean subscribe, Collection<String> channels) {
        StatefulRedisPubSubConnection<String, String> p = pubSub;
        if (!(p instanceof StatefulRedisClusterPubSubConnection<String, String> clusterPubSub) || channels.isEmpty()) {
            return;
        }
        Map<String, List<String>> byNode = new HashMap<>();
        for (String channel : channels) {
            RedisClusterNode node = clusterPubSub.getPartitions()
                    .getPartitionBySlot(SlotHash.getSlot(channel));
            if (node != null) {
                byNode.computeIfAbsent(node.getNodeId(), id -> new ArrayList<>()).add(channel);
            }
        }
        byNode.forEach((nodeId, list) -> clusterPubSub.getConnectionAsync(nodeId).thenCompose(c -> {
            // one command per channel: Redis refuses (CROSSSLOT) an SSUBSCRIBE of channels of different hash slots,
            // even on one node, and the channels of a topic's slots have one hash slot each
            List<CompletableFuture<Void>> calls = new ArrayList<>();
            for (String channel : list) {
                calls.add((subscribe ? c.async().ssubscribe(channel) : c.async().sunsubscribe(channel)).toCompletableFuture());
            }
            return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new));
        }).exceptionally(failure -> {
            LOG.shardedSubscriptionFailed(list.size(), nodeId, rootMessage(failure));
            return null;
        }));
    }

    private void onTopologyChanged() {
        if (state.get() == State.STARTED && ready.isDone()) {
            LOG.clusterTopologyChanged(displayUri);
            listeners.forEach(l -> l.connected(false));
        }
    }

    private void onReconnected(RedisChannelHandler<?, ?> channel) {
        if (!concerns(channel) || state.get() != State.STARTED || connected || !ready.isDone()) {
            return;
        }
        connected = true;
        LOG.redisReconnected(displayUri);
        listeners.forEach(l -> l.connected(false));
    }

    /** Completes once the first connection to Redis is established. */
    public CompletionStage<Void> ready() {
        return ready;
    }

    /** Whether {@link #ready()} has completed: Redis was reached at least once. */
    public boolean wasReached() {
        return ready.isDone() && !ready.isCompletedExceptionally();
    }

    /** See {@code RmqEngine.firstConnectionAttempt()}. */
    public CompletionStage<Boolean> firstConnectionAttempt() {
        return firstAttempt;
    }

    /**
     * Whether the connection to Redis is currently up. On a cluster: whether the cluster connection is open,
     * even while one node is down (its slots fail on their own, the other masters' slots keep working).
     */
    public boolean isConnected() {
        if (cluster) {
            StatefulConnection<byte[], byte[]> c = connection;
            return state.get() == State.STARTED && c != null && c.isOpen();
        }
        return connected;
    }

    /** The URI with any credentials hidden, for logs and errors. */
    public String displayUri() {
        return displayUri;
    }

    /** The scripts, once connected; fails fast while Redis was never reached. */
    public ScriptRunner scripts() {
        ScriptRunner s = scripts;
        if (s == null) {
            throw new RedisUnavailableException(EngineExceptions.ex.redisNotReachedYet(displayUri));
        }
        return s;
    }

    /**
     * Opens a command connection of its own, closed with this client; Lettuce reconnects it by itself. On one
     * server (under Sentinel: the current master) a plain connection; on a Redis Cluster a cluster connection,
     * whose node connections ({@code getConnectionAsync(nodeId)}) are its own too. Blocks while connecting:
     * call it off Lettuce's threads, once {@link #ready()}.
     */
    public StatefulConnection<byte[], byte[]> connectDedicated() {
        RedisClusterClient c = clusterClient;
        StatefulConnection<byte[], byte[]> opened = cluster && c != null ? c.connect(ByteArrayCodec.INSTANCE)
                : redisClient.connect(ByteArrayCodec.INSTANCE, uris.get(0));
        dedicated.add(opened);
        if (state.get() == State.CLOSED) {
            opened.close();
            throw EngineExceptions.ex.closed("the Redis client for " + displayUri);
        }
        return opened;
    }

    /**
     * Watches a durable producer's connection to one server or one cluster master for half-open silence ({@link ConnectionLiveness}),
     * until it is closed.
     *
     * @param replies when the calls on {@code c} last got a reply
     */
    public void watchLiveness(StatefulRedisConnection<?, ?> c, LongSupplier replies) {
        ConnectionLiveness.watchOne(scheduler, LIVENESS_INTERVAL, displayUri, "durable send", c, replies);
    }

    /**
     * A script runner on one server's connection (a dedicated one, or a cluster's connection to one node): the
     * scripts run as on this client's connection (sharded wake notices and {@code #!lua} on a Redis 7 cluster),
     * and a script missing from the node is loaded there.
     */
    public ScriptRunner scriptsOn(RedisClusterAsyncCommands<byte[], byte[]> node) {
        return new ScriptRunner(node, sharded, shebang);
    }

    /** The Pub/Sub commands, or {@code null} before the first connection. */
    RedisPubSubAsyncCommands<String, String> pubSub() {
        StatefulRedisPubSubConnection<String, String> p = pubSub;
        return p == null || !p.isOpen() ? null : p.async();
    }

    @Override
    public void close() {
        if (state.getAndSet(State.CLOSED) == State.CLOSED) {
            return;
        }
        ready.completeExceptionally(EngineExceptions.ex.closed("the Redis client for " + displayUri));
        closeConnections();
        synchronized (timerLock) {
            if (timer != null) {
                // deadlines already armed still run (at most a durability timeout from now): every durable
                // send is settled, and a send tracked after this is settled at once (SendDeadlines.arm)
                timer.shutdown();
            }
        }
        ClientShutdown.shutdown(redisClient, displayUri);
        RedisClusterClient c = clusterClient;
        if (c != null) {
            ClientShutdown.shutdown(c, displayUri);
        }
    }

    private void closeConnections() {
        connected = false;
        dedicated.forEach(StatefulConnection::close);
        if (pubSub != null) {
            pubSub.close();
        }
        if (connection != null) {
            connection.close();
        }
    }

    public static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The failure's message, with the message of its root cause when that adds something. */
    public static String rootMessage(Throwable t) {
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
}
