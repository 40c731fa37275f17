package io.rmq.engine;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.CommandExpiryWriter;
import io.lettuce.core.protocol.DefaultEndpoint;
import io.rmq.engine.i18n.EngineLogging;

/**
 * Finds connections to Redis that are open but dead, and replaces them. A connection whose peer
 * vanished without closing it (a firewall or NAT that forgot it, a host that lost power: a half-open
 * connection) looks healthy to the client: commands time out one by one, but Lettuce reconnects only
 * when the connection closes, which may take hours (TCP keepalive) or never happen. Every
 * {@code interval}, each connection that is up gets a {@code PING}; when the {@code PING} gets no reply
 * within the command timeout, the connection is closed (RMQ-0170), and Lettuce's reconnection replaces
 * it as after any other drop (subscriptions included).
 *
 * <p>Runs on the engine's scheduler; stops by itself once its connections are closed. Thread-safe.
 */
final class ConnectionLiveness {

    private final String displayUri;
    private final StatefulRedisConnection<?, ?> connection;
    /** The same connection as Lettuce's implementation sees it: whether it is closed, its channel. */
    private final RedisChannelHandler<?, ?> handler;
    private final String role;
    private final AtomicBoolean pinging = new AtomicBoolean();

    private ConnectionLiveness(String displayUri, StatefulRedisConnection<?, ?> connection, String role) {
        this.displayUri = displayUri;
        this.connection = connection;
        this.handler = (RedisChannelHandler<?, ?>) connection; // every Lettuce connection is one
        this.role = role;
    }

    /**
     * Watches the command connection and the Pub/Sub connection of one client until both are closed.
     *
     * @param interval how often a connection that is up is checked; its {@code PING} times out after the
     *                 connections' command timeout, so a dead connection is replaced within both together
     */
    static void watch(ScheduledExecutorService scheduler, Duration interval, String displayUri,
            StatefulRedisConnection<?, ?> commands, StatefulRedisConnection<?, ?> pubSub) {
        List<ConnectionLiveness> watched = List.of(new ConnectionLiveness(displayUri, commands, "command"),
                new ConnectionLiveness(displayUri, pubSub, "Pub/Sub"));
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
        if (handler.isClosed() || !connection.isOpen() || !pinging.compareAndSet(false, true)) {
            return; // closed, reconnecting (Lettuce's business), or the last PING is still out
        }
        connection.async().ping().whenComplete((pong, failure) -> {
            pinging.set(false);
            if (failure instanceof RedisCommandTimeoutException && connection.isOpen()) {
                EngineLogging.log.redisConnectionUnresponsive(displayUri, role, RmqClient.DEFAULT_COMMAND_TIMEOUT.toMillis());
                disconnect();
            }
        });
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
