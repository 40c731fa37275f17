package io.rmq.engine.produce;

import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.api.StatefulRedisConnection;
import io.rmq.engine.i18n.EngineExceptions;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.scripts.SendResult;
import io.rmq.engine.scripts.TopicScripts;
import io.rmq.engine.topic.TopicKeys;

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
 * <p><b>Deadlines.</b> Each send has its own ({@link DurableSend}): a {@code WAIT} waits for the time left to the
 * oldest send of its group, not a whole timeout, so a send is never held by {@code WAIT}s issued for later
 * ones. A {@code WAIT} that returns short fails the sends whose deadline passed (RMQ-0370) and takes the others
 * into the next one. {@link SendDeadlines} settles whatever a {@code WAIT} or a reply does not settle in time.
 *
 * <p><b>Reconnects.</b> A {@code WAIT} on a new connection covers nothing written on the old one, yet would
 * report the replicas in sync. Every connect and disconnect moves an epoch on; a write is confirmed only by
 * a {@code WAIT} issued and answered in the epoch the write was issued in, and fails otherwise (RMQ-0372). The
 * first send after a reconnect checks the master's replicas again (RMQ-0190).
 *
 * <p>Thread-safe; callbacks run on Lettuce's threads. Closed with the engine's client.
 */
final class DurableConnection {

    private static final EngineLogging LOG = EngineLogging.log;

    private final StatefulRedisConnection<byte[], byte[]> connection;
    private final TopicScripts scripts;
    private final String displayUri;
    private final int replicas;
    private final long timeoutMillis;
    private final AtomicLong epoch = new AtomicLong();
    /** Set by a reconnect: the next send checks the replicas of the master it reached. */
    private final AtomicBoolean reopened = new AtomicBoolean();
    /**
     * Set by a disconnect. Lettuce may report the connection's first connect to a listener added after it (its
     * events are dispatched apart from the connect): only a connect after a disconnect is a reconnect.
     */
    private final AtomicBoolean lost = new AtomicBoolean();
    private final Object lock = new Object();
    /** Writes waiting for the next WAIT; guarded by {@link #lock}. */
    private List<Waiter> queued = new ArrayList<>();
    /** Whether a WAIT is under way; guarded by {@link #lock}. */
    private boolean waiting;

    private record Waiter(long epoch, DurableSend send) {
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
                if (lost.compareAndSet(true, false)) {
                    epoch.incrementAndGet();
                    reopened.set(true);
                }
            }

            @Override
            public void onRedisDisconnected(RedisChannelHandler<?, ?> channel) {
                lost.set(true);
                epoch.incrementAndGet();
            }
        });
    }

    /**
     * Writes {@code sends} to {@code slot} on this connection; the stage is the write's reply. Once stored, each
     * of {@code each} (the sends, in the same order) waits for its replicas and is confirmed, or failed with
     * {@link DurabilityException} or RMQ-0372; a failed write is for the caller to settle.
     */
    CompletionStage<List<SendResult>> send(int slot, int routedBy, List<TopicScripts.Send> sends, List<DurableSend> each) {
        checkReplicasIfReopened();
        long writeEpoch = epoch.get();
        return scripts.send(slot, routedBy, sends).whenComplete((results, failure) -> {
            if (failure == null) {
                for (int i = 0; i < each.size(); i++) {
                    each.get(i).written(results.get(i));
                }
                replicated(writeEpoch, each);
            }
        });
    }

    /** {@link TopicScripts#mergePending} of one send on this connection; a merged send waits for its replicas. */
    CompletionStage<TopicScripts.MergeReply> mergePending(int slot, int targetAmount, TopicScripts.Send send,
            DurableSend durable) {
        checkReplicasIfReopened();
        long writeEpoch = epoch.get();
        return scripts.mergePending(slot, targetAmount, List.of(send)).whenComplete((reply, failure) -> {
            SendResult merged = failure == null ? reply.results().get(0) : null;
            if (merged != null) {
                durable.written(merged);
                replicated(writeEpoch, List.of(durable));
            }
        });
    }

    /** Queues written sends for the next WAIT, issued at once when none is under way (see the class comment). */
    private void replicated(long writeEpoch, List<DurableSend> sends) {
        List<Waiter> group = null;
        synchronized (lock) {
            for (DurableSend s : sends) {
                queued.add(new Waiter(writeEpoch, s));
            }
            if (!waiting) {
                waiting = true;
                group = queued;
                queued = new ArrayList<>();
            }
        }
        if (group != null) {
            issue(group);
        }
    }

    private void issue(List<Waiter> group) {
        long now = System.nanoTime();
        long oldest = Long.MAX_VALUE;
        List<Waiter> open = new ArrayList<>(group.size());
        for (Waiter w : group) {
            if (w.send().isDone()) {
                continue; // settled at its deadline meanwhile
            }
            if (w.send().deadlineNanos() - now <= 0) {
                w.send().notConfirmed(); // its reply came after its deadline
                continue;
            }
            open.add(w);
            oldest = Math.min(oldest, w.send().deadlineNanos());
        }
        if (open.isEmpty()) {
            next(List.of());
            return;
        }
        // WAIT 0 would wait for ever: at least 1 ms, at most what the oldest send has left
        long waitMillis = Math.max(1, Math.min(timeoutMillis, TimeUnit.NANOSECONDS.toMillis(oldest - now + 999_999)));
        long issuedIn = epoch.get();
        CompletionStage<Long> reply;
        try {
            reply = connection.async().waitForReplication(replicas, waitMillis);
        } catch (RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        reply.whenComplete((reached, failure) -> {
            long answered = System.nanoTime();
            boolean sameConnection = epoch.get() == issuedIn;
            List<Waiter> again = new ArrayList<>();
            for (Waiter w : open) {
                DurableSend s = w.send();
                if (failure != null || !sameConnection || w.epoch() != issuedIn) {
                    s.fail(new SendFailedException(EngineExceptions.ex.reconnectedBeforeReplicated(
                            scripts.keys().topic().name(), displayUri), scripts.keys().topic().name(),
                            WriteState.WRITTEN_UNCONFIRMED, failure));
                } else if (reached >= replicas) {
                    s.confirm();
                } else {
                    s.reached(reached);
                    if (s.deadlineNanos() - answered <= 0) {
                        s.notConfirmed();
                    } else {
                        again.add(w); // the next WAIT covers it too, for the time it has left
                    }
                }
            }
            next(again);
        });
    }

    /** Issues the next WAIT for {@code again} and what queued meanwhile, or marks none under way. */
    private void next(List<Waiter> again) {
        List<Waiter> next;
        synchronized (lock) {
            if (again.isEmpty()) {
                next = queued;
            } else {
                next = new ArrayList<>(again);
                next.addAll(queued);
            }
            queued = new ArrayList<>();
            waiting = !next.isEmpty();
        }
        if (!next.isEmpty()) {
            issue(next);
        }
    }

    /** Logs RMQ-0190 when the master reports fewer connected replicas than required. Blocks: off Lettuce's threads. */
    void checkReplicas() {
        try {
            warnIfFewReplicas(connection.sync().info("replication"));
        } catch (RuntimeException e) {
            // an ACL without +info: nothing to compare; the sends say it if the replicas are missing
        }
    }

    private void checkReplicasIfReopened() {
        if (reopened.compareAndSet(true, false)) {
            try {
                connection.async().info("replication").thenAccept(this::warnIfFewReplicas);
            } catch (RuntimeException e) {
                // not connected again after all: the sends fail, and the next reconnect checks again
            }
        }
    }

    private void warnIfFewReplicas(String info) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("connected_slaves:")) {
                int connected = Integer.parseInt(line.substring("connected_slaves:".length()).trim());
                if (connected < replicas) {
                    LOG.fewerReplicasThanRequired(scripts.keys().topic().name(), displayUri, connected, replicas,
                            timeoutMillis);
                }
            }
        }
    }
}
