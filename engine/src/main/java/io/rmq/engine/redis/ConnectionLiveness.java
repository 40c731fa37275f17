package io.rmq.engine.redis;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.protocol.CommandExpiryWriter;
import io.lettuce.core.protocol.DefaultEndpoint;
import io.rmq.engine.i18n.EngineLogging;

/**
 * Finds connections to Redis that are open but dead, and replaces them. A connection whose peer
 * vanished without closing it (a firewall or NAT that forgot it, a host that lost power: a half-open
 * connection) looks healthy to the client: commands time out one by one, but Lettuce reconnects only
 * when the connection closes, which may take hours (TCP keepalive) or never happen. A connection that is
 * up gets a {@code PING} when it has been quiet: the command connection when none of the engine's calls
 * (nor the last {@code PING}) got a reply since its last check, one {@code interval} ago (a busy
 * connection needs no {@code PING}), the Pub/Sub
 * connection every {@link #PUB_SUB_TICKS} intervals (its silence only delays wake notices, which the
 * safety poll covers). When the {@code PING} gets no reply within the command timeout, the connection is
 * closed (RMQ-0170), and Lettuce's reconnection replaces it as after any other drop (subscriptions
 * included). A half-open command connection is thus replaced within two intervals plus the command
 * timeout, a Pub/Sub connection within {@link #PUB_SUB_TICKS} intervals plus the command timeout.
 *
 * <p>Watched: the command and Pub/Sub connections of a single server or Sentinel-managed master; the
 * connection of its own that each durable producer writes on, to that server or to each master of a Redis
 * Cluster ({@code DurableSends}); and on a Redis Cluster each master's connection under the command
 * connection ({@link #watchCluster}).
 *
 * <p>Runs on the engine's scheduler; stops by itself once its connections are closed. Thread-safe.
 */
final class ConnectionLiveness {

    private final String displayUri;
    private final StatefulRedisConnection<?, ?> connection;
    /** The same connection as Lettuce's implementation sees it: whether it is closed, its channel. */
    private final RedisChannelHandler<?, ?> handler;
    private final String role;
    /** When the engine's own calls on this connection last got a reply; {@code null}: not tracked. */
    private final LongSupplier otherReplies;
    /** Checked on every how many-th tick of the interval. */
    private final int everyTicks;
    private final AtomicBoolean pinging = new AtomicBoolean();
    private volatile long lastPong = System.nanoTime();
    private int ticks;
    /** When this connection was last checked; a reply after it proves the connection alive. */
    private long lastCheck = System.nanoTime();

    /** The Pub/Sub connection is pinged every this many intervals. */
    static final int PUB_SUB_TICKS = 5;

    private ConnectionLiveness(String displayUri, StatefulRedisConnection<?, ?> connection, String role,
            LongSupplier otherReplies, int everyTicks) {
        this.displayUri = displayUri;
        this.connection = connection;
        this.handler = (RedisChannelHandler<?, ?>) connection; // every Lettuce connection is one
        this.role = role;
        this.otherReplies = otherReplies;
        this.everyTicks = everyTicks;
    }

    /**
     * Watches the command connection and the Pub/Sub connection of one client until both are closed.
     *
     * @param interval       how often the command connection is checked; its {@code PING} times out after the
     *                       connections' command timeout
     * @param commandReplies when the engine's calls on the command connection last got a reply
     *                       ({@link ScriptRunner#lastReplyNanos()})
     */
    static void watch(ScheduledExecutorService scheduler, Duration interval, String displayUri,
            StatefulRedisConnection<?, ?> commands, LongSupplier commandReplies, StatefulRedisConnection<?, ?> pubSub) {
        watchAll(scheduler, interval, List.of(
                new ConnectionLiveness(displayUri, commands, "command", commandReplies, 1),
                new ConnectionLiveness(displayUri, pubSub, "Pub/Sub", null, PUB_SUB_TICKS)));
    }

    /**
     * Watches one connection of its own (a durable producer's) until it is closed, like the command
     * connection: a {@code PING} only when neither its calls nor the last {@code PING} got a reply since the
     * last check.
     *
     * @param role    which connection, for RMQ-0170
     * @param replies when the calls on {@code connection} last got a reply ({@link ScriptRunner#lastReplyNanos()})
     */
    static void watchOne(ScheduledExecutorService scheduler, Duration interval, String displayUri, String role,
            StatefulRedisConnection<?, ?> connection, LongSupplier replies) {
        watchAll(scheduler, interval, List.of(new ConnectionLiveness(displayUri, connection, role, replies, 1)));
    }

    /**
     * Watches the node connections of a Redis Cluster connection until it is closed. Which node a reply came
     * from is not tracked, so a busy cluster proves nothing about one node: every {@link #PUB_SUB_TICKS}
     * intervals each master's connection that is up gets a {@code PING} (one per master per ten seconds with
     * the defaults), and a silent one is closed and reconnected like any other. Replicas are not watched:
     * commands do not read from them.
     */
    static void watchCluster(ScheduledExecutorService scheduler, Duration interval, String displayUri,
            StatefulRedisClusterConnection<?, ?> cluster) {
        Map<StatefulRedisConnection<?, ?>, ConnectionLiveness> nodes = new ConcurrentHashMap<>();
        RedisChannelHandler<?, ?> clusterHandler = (RedisChannelHandler<?, ?>) cluster;
        ScheduledFuture<?>[] task = new ScheduledFuture<?>[1];
        long every = interval.toMillis() * PUB_SUB_TICKS;
        synchronized (task) {
            task[0] = scheduler.scheduleWithFixedDelay(() -> {
                if (clusterHandler.isClosed()) {
                    synchronized (task) {
                        task[0].cancel(false);
                    }
                    return;
                }
                nodes.values().removeIf(w -> w.handler.isClosed()); // dropped after a topology change
                for (RedisClusterNode node : cluster.getPartitions()) {
                    if (node.is(RedisClusterNode.NodeFlag.UPSTREAM) && node.getUri() != null) {
                        // by host and port: the connection that commands routed by hash slot take (by node id is another)
                        String host = node.getUri().getHost();
                        int port = node.getUri().getPort();
                        cluster.getConnectionAsync(host, port).thenAccept(c -> nodes.computeIfAbsent(c,
                                k -> new ConnectionLiveness(displayUri, c, "node " + host + ":" + port, null, 1)).check());
                    }
                }
            }, every, every, TimeUnit.MILLISECONDS);
        }
    }

    private static void watchAll(ScheduledExecutorService scheduler, Duration interval, List<ConnectionLiveness> watched) {
        ScheduledFuture<?>[] task = new ScheduledFuture<?>[1];
        synchronized (task) {
            task[0] = scheduler.scheduleWithFixedDelay(() -> {
                if (watched.stream().allMatch(w -> w.handler.isClosed())) {
                    synchronized (task) {
                        task[0].cancel(false);
                    }
                    return;
                }
                watched.forEach(ConnectionLiveness::check);
            }, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private void check() {
        if (++ticks < everyTicks) {
            return;
        }
        ticks = 0;
        boolean replied = repliedSinceLastCheck();
        lastCheck = System.nanoTime();
        if (handler.isClosed() || !connection.isOpen() || replied || !pinging.compareAndSet(false, true)) {
            return; // closed, reconnecting (Lettuce's business), known alive, or the last PING is still out
        }
        connection.async().ping().whenComplete((pong, failure) -> {
            if (failure == null) {
                lastPong = System.nanoTime();
            }
            pinging.set(false);
            if (failure instanceof RedisCommandTimeoutException && connection.isOpen()) {
                EngineLogging.log.redisConnectionUnresponsive(displayUri, role, RedisAccess.DEFAULT_COMMAND_TIMEOUT.toMillis());
                disconnect();
            }
        });
    }

    /**
     * Whether the connection replied since the last check: to the engine's calls or to the last
     * {@code PING} (so a quiet connection is pinged every other interval). Compared with the last check,
     * not with the interval, so that scheduling jitter cannot turn that into a {@code PING} per interval.
     */
    private boolean repliedSinceLastCheck() {
        if (otherReplies == null) {
            return false;
        }
        return Math.max(otherReplies.getAsLong(), lastPong) - lastCheck > 0;
    }

    /** Closes the connection's channel; Lettuce's watchdog then reconnects it. */
    private void disconnect() {
        RedisChannelWriter writer = handler.getChannelWriter();
        while (writer instanceof CommandExpiryWriter expiring) {
            writer = expiring.getDelegate();
        }
        if (writer instanceof DefaultEndpoint endpoint) {
            endpoint.disconnect();
        }
    }
}
