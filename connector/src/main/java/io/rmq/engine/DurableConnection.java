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

/**
 * One connection of a durable producer to one master: its sends and the {@code WAIT} that confirms them
 * travel on it alone, since {@code WAIT} blocks the connection it runs on and covers every earlier write of
 * that connection (never the consumers' shared connection). Created by {@link DurableSends}.
 *
 * <p><b>Coalescing.</b> Once a send's reply has arrived, it waits for a {@code WAIT}: when none is under way
 * one is issued at once; otherwise the send joins the group that the next {@code WAIT} confirms, issued as
 * soon as the current one returns. Under load one {@code WAIT} confirms everything written during the
 * previous one, so sends cost no extra round trip each.
 *
 * <p><b>Reconnects.</b> A {@code WAIT} on a new connection covers nothing written on the old one, yet would
 * report the replicas in sync. Every connect and disconnect moves an epoch on; a write is confirmed only by
 * a {@code WAIT} issued and answered in the epoch the write was issued in, and fails otherwise (RMQ-0372).
 *
 * <p>Thread-safe; callbacks run on Lettuce's threads. Closed with the engine's client.
 */
final class DurableConnection {

    private final StatefulRedisConnection<byte[], byte[]> connection;
    private final TopicScripts scripts;
    private final String displayUri;
    private final int replicas;
    private final long timeoutMillis;
    private final AtomicLong epoch = new AtomicLong();
    private final Object lock = new Object();
    /** Writes waiting for the next WAIT; guarded by {@link #lock}. */
    private List<Waiter> queued = new ArrayList<>();
    /** Whether a WAIT is under way; guarded by {@link #lock}. */
    private boolean waiting;

    private record Waiter(long epoch, CompletableFuture<Long> replicas) {
    }

    /**
     * @param connection a connection of its own to one master
     * @param runner     the scripts on {@code connection}
     */
    DurableConnection(StatefulRedisConnection<byte[], byte[]> connection, ScriptRunner runner, TopicKeys keys,
            ProducerOptions options, String displayUri) {
        this.connection = connection;
        this.scripts = new TopicScripts(() -> runner, keys);
        this.displayUri = displayUri;
        this.replicas = options.durableReplicas();
        this.timeoutMillis = options.durabilityTimeout().toMillis();
        connection.addListener(new RedisConnectionStateListener() {
            @Override
            public void onRedisConnected(RedisChannelHandler<?, ?> channel, SocketAddress address) {
                epoch.incrementAndGet();
            }

            @Override
            public void onRedisDisconnected(RedisChannelHandler<?, ?> channel) {
                epoch.incrementAndGet();
            }
        });
    }

    /**
     * Sends to {@code slot} on this connection and completes once the required replicas have the writes;
     * fails with {@link DurabilityException} when fewer confirmed within the timeout, or with the failure of
     * the write or of the {@code WAIT}.
     */
    CompletionStage<List<SendResult>> send(int slot, int routedBy, List<TopicScripts.Send> sends) {
        long writeEpoch = epoch.get();
        return scripts.send(slot, routedBy, sends).thenCompose(results -> replicated(writeEpoch).thenApply(n -> results));
    }

    /** {@link TopicScripts#mergePending} on this connection, confirmed by the replicas like a send. */
    CompletionStage<TopicScripts.MergeReply> mergePending(int slot, int targetAmount, List<TopicScripts.Send> sends) {
        long writeEpoch = epoch.get();
        return scripts.mergePending(slot, targetAmount, sends)
                .thenCompose(reply -> replicated(writeEpoch).thenApply(n -> reply));
    }

    /** Completes once a WAIT issued after this call confirms the writes answered so far (see the class comment). */
    private CompletionStage<Long> replicated(long writeEpoch) {
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
        long issuedIn = epoch.get();
        CompletionStage<Long> reply;
        try {
            reply = connection.async().waitForReplication(replicas, timeoutMillis);
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
        String topic = scripts.keys().topic().name();
        if (failure != null) {
            w.replicas().completeExceptionally(failure);
        } else if (!sameConnection) {
            w.replicas().completeExceptionally(new RedisUnavailableException(
                    EngineExceptions.ex.reconnectedBeforeReplicated(topic, displayUri)));
        } else if (reached < replicas) {
            w.replicas().completeExceptionally(new DurabilityException(topic, reached, replicas, timeoutMillis));
        } else {
            w.replicas().complete(reached);
        }
    }
}
