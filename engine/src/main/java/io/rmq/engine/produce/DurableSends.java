package io.rmq.engine.produce;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.rmq.engine.i18n.EngineExceptions;
import io.rmq.engine.redis.RedisUnavailableException;
import io.rmq.engine.redis.RmqClient;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.topic.TopicKeys;

/**
 * The connections of one durable producer ({@link ProducerOptions#durable()}), one {@link DurableConnection}
 * per master its sends go to: on one server (or under Sentinel) a connection of its own to the master; on a
 * Redis Cluster a cluster connection of its own, whose connection to the master of each slot carries both
 * the slot's sends and the {@code WAIT} that confirms them, so the {@code WAIT} runs on the node that took
 * the writes. After a failover or a resharding the slot's master is looked up again at each send.
 *
 * <p>Each send is tracked from the moment it is handed to the producer ({@link #track()}) until it is settled,
 * at the latest {@link SendDeadlines#REPLY_ALLOWANCE} after its durability timeout.
 *
 * <p>Lifecycle: connects on the first send (on the engine's scheduler), and again after a failed attempt;
 * closed with the engine's client. Logs RMQ-0190 when a master reports fewer connected replicas than
 * required, on opening a connection and on the first send after each reconnect ({@link DurableConnection}).
 * Thread-safe.
 */
public final class DurableSends {

    private final RmqClient client;
    private final TopicKeys keys;
    private final ProducerOptions options;
    private final Map<String, CompletableFuture<DurableConnection>> byMaster = new ConcurrentHashMap<>();
    private final Object lock = new Object();
    private final SendDeadlines deadlines;
    private CompletableFuture<StatefulConnection<byte[], byte[]>> connecting;

    public DurableSends(RmqClient client, TopicKeys keys, ProducerOptions options) {
        this.client = client;
        this.keys = keys;
        this.options = options;
        this.deadlines = new SendDeadlines(client.timer());
    }

    /** A new send, accepted now: its deadline runs from here. */
    DurableSend track() {
        DurableSend send = new DurableSend(keys.topic().name(), options, System.nanoTime());
        deadlines.track(send);
        return send;
    }

    /** The connection to the master of {@code slot}, opened if needed. */
    CompletionStage<DurableConnection> forSlot(int slot) {
        return connection().thenCompose(c -> {
            if (c instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster) {
                String key = keys.slot(slot).store();
                RedisClusterNode master = cluster.getPartitions().getPartitionBySlot(SlotHash.getSlot(key));
                if (master == null) {
                    return CompletableFuture.failedFuture(new RedisUnavailableException(
                            EngineExceptions.ex.noMasterForKey(key, client.displayUri())));
                }
                return open(master.getNodeId(), () -> cluster.getConnectionAsync(master.getNodeId()));
            }
            return open("", () -> CompletableFuture.completedFuture((StatefulRedisConnection<byte[], byte[]>) c));
        });
    }

    private CompletionStage<DurableConnection> open(String nodeId,
            Supplier<CompletionStage<StatefulRedisConnection<byte[], byte[]>>> nodeConnection) {
        // one opening per master: two sends racing here must not open (and check the replicas of) two connections
        CompletableFuture<DurableConnection> mine = new CompletableFuture<>();
        CompletableFuture<DurableConnection> current = byMaster.compute(nodeId,
                (id, old) -> old == null || old.isCompletedExceptionally() ? mine : old);
        if (current != mine) {
            return current;
        }
        CompletionStage<StatefulRedisConnection<byte[], byte[]>> node;
        try {
            node = nodeConnection.get();
        } catch (RuntimeException e) {
            node = CompletableFuture.failedFuture(e); // thrown rather than returned: fail this opening alike
        }
        node.toCompletableFuture()
                .thenApplyAsync(c -> {
                    ScriptRunner runner = client.scriptsOn(c.async());
                    client.watchLiveness(c, runner::lastReplyNanos); // nothing else notices a half-open connection
                    DurableConnection durable = new DurableConnection(c, runner, keys, options, client.displayUri());
                    durable.checkReplicas();
                    return durable;
                }, client.scheduler())
                .whenComplete((durable, failure) -> {
                    if (failure != null) {
                        mine.completeExceptionally(failure);
                    } else {
                        mine.complete(durable);
                    }
                });
        return mine;
    }

    private CompletableFuture<StatefulConnection<byte[], byte[]>> connection() {
        synchronized (lock) {
            if (connecting == null || connecting.isCompletedExceptionally()) {
                connecting = client.ready().toCompletableFuture()
                        .thenApplyAsync(v -> client.connectDedicated(), client.scheduler());
            }
            return connecting;
        }
    }
}
