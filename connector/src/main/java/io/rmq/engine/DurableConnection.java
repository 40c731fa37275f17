package io.rmq.engine;

import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.api.StatefulRedisConnection;
import io.rmq.engine.i18n.EngineExceptions;
import io.rmq.engine.i18n.EngineLogging;

/**
 * The connection of one durable producer: its sends and the {@code WAIT} that confirms them travel on it
 * alone, since {@code WAIT} blocks the connection it runs on and covers every earlier write of that
 * connection (never the consumers' shared connection).
 *
 * <p><b>Coalescing.</b> {@link #replicated(long)} is called once a write's reply has arrived. When no
 * {@code WAIT} is under way it issues one at once; otherwise the caller joins the group that the next
 * {@code WAIT} confirms, issued as soon as the current one returns. Under load one {@code WAIT} confirms
 * everything written during the previous one, so sends cost no extra round trip each.
 *
 * <p><b>Reconnects.</b> A {@code WAIT} on a new connection covers nothing written on the old one, yet
 * would report the replicas in sync. Every connect and disconnect moves an epoch on; a write is confirmed
 * only by a {@code WAIT} issued and answered in the epoch the write was issued in, and fails otherwise.
 *
 * <p>Lifecycle: connects on first use (on the engine's scheduler) and again after a failed attempt;
 * closed with the engine's client. Thread-safe; callbacks run on Lettuce's threads.
 */
final class DurableConnection {

    private static final EngineLogging LOG = EngineLogging.log;

    private final RmqClient client;
    private final String topic;
    private final int replicas;
    private final long timeoutMillis;
    private final AtomicLong epoch = new AtomicLong();
    private final Object lock = new Object();
    private CompletableFuture<ScriptRunner> connecting;
    private volatile StatefulRedisConnection<byte[], byte[]> connection;
    private volatile ScriptRunner scripts;
    /** Writes waiting for the next WAIT; guarded by {@link #lock}. */
    private List<Waiter> queued = new ArrayList<>();
    /** Whether a WAIT is under way; guarded by {@link #lock}. */
    private boolean waiting;

    private record Waiter(long epoch, CompletableFuture<Long> replicas) {
    }

    DurableConnection(RmqClient client, String topic, ProducerOptions options) {
        this.client = client;
        this.topic = topic;
        this.replicas = options.durableReplicas();
        this.timeoutMillis = options.durabilityTimeout().toMillis();
    }

    /** The scripts on this connection, once it is open; connects it first if needed. */
    CompletionStage<ScriptRunner> scripts() {
        ScriptRunner s = scripts;
        if (s != null) {
            return CompletableFuture.completedFuture(s);
        }
        synchronized (lock) {
            if (connecting == null || connecting.isCompletedExceptionally()) {
                connecting = client.ready().toCompletableFuture().thenApplyAsync(v -> open(), client.scheduler());
            }
            return connecting;
        }
    }

    /** The scripts on this connection; fails fast before it is open (see {@link #scripts()}). */
    ScriptRunner runner() {
        ScriptRunner s = scripts;
        if (s == null) {
            throw new RedisUnavailableException(EngineExceptions.ex.redisNotReachedYet(client.displayUri()));
        }
        return s;
    }

    private ScriptRunner open() {
        StatefulRedisConnection<byte[], byte[]> c = client.connectDedicated();
        c.addListener(new RedisConnectionStateListener() {
            @Override
            public void onRedisConnected(RedisChannelHandler<?, ?> channel, SocketAddress address) {
                epoch.incrementAndGet();
            }

            @Override
            public void onRedisDisconnected(RedisChannelHandler<?, ?> channel) {
                epoch.incrementAndGet();
            }
        });
        checkReplicas(c);
        ScriptRunner s = new ScriptRunner(c.async());
        connection = c;
        scripts = s;
        return s;
    }

    /** Logs RMQ-0190 when the master reports fewer connected replicas than required. */
    private void checkReplicas(StatefulRedisConnection<byte[], byte[]> c) {
        try {
            String info = c.sync().info("replication");
            for (String line : info.split("\r?\n")) {
                if (line.startsWith("connected_slaves:")) {
                    int connected = Integer.parseInt(line.substring("connected_slaves:".length()).trim());
                    if (connected < replicas) {
                        LOG.fewerReplicasThanRequired(topic, client.displayUri(), connected, replicas, timeoutMillis);
                    }
                }
            }
        } catch (RuntimeException e) {
            // an ACL without +info: nothing to compare; the sends say it if the replicas are missing
        }
    }

    /** The epoch a write is issued in: read it before issuing the write. */
    long epoch() {
        return epoch.get();
    }

    /**
     * Completes with the number of replicas that confirmed every write of this connection whose reply has
     * arrived before this call, issued in {@code writeEpoch}; fails with {@link DurabilityException} when fewer
     * than required did within the timeout, or with the connection's failure.
     */
    CompletionStage<Long> replicated(long writeEpoch) {
        Waiter w = new Waiter(writeEpoch, new CompletableFuture<>());
        List<Waiter> group = null;
        synchronized (lock) {
            queued.add(w);
            if (!waiting) {
                waiting = true;
                group = queued;
                queued = new ArrayList<>();
            }
        }
        if (group != null) {
            issue(group);
        }
        return w.replicas();
    }

    private void issue(List<Waiter> group) {
        StatefulRedisConnection<byte[], byte[]> c = connection;
        long issuedIn = epoch.get();
        CompletionStage<Long> reply;
        try {
            reply = c.async().waitForReplication(replicas, timeoutMillis);
        } catch (RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        reply.whenComplete((reached, failure) -> {
            List<Waiter> next;
            synchronized (lock) {
                next = queued.isEmpty() ? null : queued;
                queued = new ArrayList<>();
                waiting = next != null;
            }
            boolean sameConnection = epoch.get() == issuedIn;
            for (Waiter w : group) {
                settle(w, reached, failure, sameConnection && w.epoch() == issuedIn);
            }
            if (next != null) {
                issue(next);
            }
        });
    }

    private void settle(Waiter w, Long reached, Throwable failure, boolean sameConnection) {
        if (failure != null) {
            w.replicas().completeExceptionally(failure);
        } else if (!sameConnection) {
            w.replicas().completeExceptionally(new RedisUnavailableException(
                    EngineExceptions.ex.reconnectedBeforeReplicated(topic, client.displayUri())));
        } else if (reached < replicas) {
            w.replicas().completeExceptionally(new DurabilityException(topic, reached, replicas, timeoutMillis));
        } else {
            w.replicas().complete(reached);
        }
    }
}
