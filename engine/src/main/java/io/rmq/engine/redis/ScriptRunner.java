package io.rmq.engine.redis;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.rmq.engine.topic.TopicKeys;

/**
 * Calls the engine's scripts by SHA ({@code EVALSHA}). On {@code NOSCRIPT} (a restarted or flushed server, a
 * failover, or on a Redis Cluster a node that never ran the script): on one server, loads the script
 * ({@code SCRIPT LOAD}) and calls it by SHA again; on a cluster, calls it once with its source ({@code EVAL}),
 * which goes to the node that serves the hash slot of the call's first key (all of a call's keys share that
 * slot) and caches the script there, so no script is loaded on every node.
 *
 * <p>Thread-safe: it only issues commands on a shared, thread-safe Lettuce connection.
 */
public final class ScriptRunner {

    private final RedisClusterAsyncCommands<byte[], byte[]> redis;
    private final boolean cluster;
    private final boolean sharded;
    private final boolean shebang;
    /** When the connection last brought a reply to a call made here ({@link System#nanoTime()}). */
    private volatile long lastReplyNanos = System.nanoTime();

    /** Scripts on one Redis (standalone or a Sentinel-managed master), as they are, without shebang. */
    public ScriptRunner(RedisClusterAsyncCommands<byte[], byte[]> redis) {
        this(redis, false, false);
    }

    /**
     * @param sharded whether {@code redis} is a Redis 7 Cluster connection: wake notices then go to the
     *                slot's sharded channel ({@link TopicKeys#shardedWakeChannel(int)})
     * @param shebang whether to run the {@code #!lua} variants ({@link RedisScript#source(boolean)}), which
     *                Redis 7 checks for cross-slot access; Redis 6 refuses them
     */
    public ScriptRunner(RedisClusterAsyncCommands<byte[], byte[]> redis, boolean sharded, boolean shebang) {
        this.redis = redis;
        this.cluster = redis instanceof RedisAdvancedClusterAsyncCommands;
        this.sharded = sharded;
        this.shebang = shebang;
    }

    /** Whether the scripts run on a Redis Cluster (each slot's keys on the node that owns them). */
    public boolean onCluster() {
        return cluster;
    }

    /** Whether the scripts publish their wake notices on sharded channels, one per slot (a Redis 7 cluster). */
    public boolean shardedWakeChannels() {
        return sharded;
    }

    /**
     * Runs a script.
     *
     * @return the script's reply: {@code List<Object>} for MULTI scripts (byte[] and Long elements),
     *         {@code Long} for INTEGER ones, {@code byte[]} for VALUE ones
     */
    public <T> CompletionStage<T> run(RedisScript script, byte[][] keys, byte[]... args) {
        CompletableFuture<T> result = new CompletableFuture<>();
        CompletionStage<T> call = issue(() -> redis.<T>evalsha(script.sha(shebang), script.output(), keys, args));
        call.whenComplete((value, failure) -> {
            noteReply(failure);
            if (failure == null) {
                result.complete(value);
            } else if (unwrap(failure) instanceof RedisNoScriptException) {
                CompletionStage<T> again = cluster
                        ? issue(() -> redis.<T>eval(script.source(shebang), script.output(), keys, args))
                        : redis.scriptLoad(script.source(shebang))
                                .thenCompose(sha -> issue(() -> redis.<T>evalsha(sha, script.output(), keys, args)));
                again.whenComplete((v, f) -> {
                    if (f == null) {
                        result.complete(v);
                    } else {
                        result.completeExceptionally(unwrap(f));
                    }
                });
            } else {
                result.completeExceptionally(failure);
            }
        });
        return result;
    }

    /**
     * Issues a call. The client may refuse a command at once (not connected, or a connection closed while it is
     * being replaced): it throws, or returns a call already failed, and has written nothing. Such a refusal is a
     * {@link RedisUnavailableException} (with the client's message), so that a sender knows nothing was stored
     * ({@code WriteState}); any later failure of the call is the client's own.
     */
    private <T> CompletionStage<T> issue(Supplier<CompletionStage<T>> command) {
        CompletionStage<T> call;
        try {
            call = command.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(new RedisUnavailableException(e.getMessage(), e));
        }
        CompletableFuture<T> f = call.toCompletableFuture();
        if (f.isCompletedExceptionally()) {
            Throwable refused = f.handle((v, t) -> unwrap(t)).join();
            if (!(refused instanceof RedisCommandExecutionException)) {
                return CompletableFuture.failedFuture(new RedisUnavailableException(refused.getMessage(), refused));
            }
        }
        return call;
    }

    /**
     * {@code ZREM key members...}, the plain commit's removal: issued as {@link #run} issues a script (a refusal is a
     * {@link RedisUnavailableException}); a reply counts for {@link #lastReplyNanos()}.
     */
    public CompletionStage<Long> zrem(byte[] key, byte[][] members) {
        CompletionStage<Long> call = issue(() -> redis.zrem(key, members));
        call.whenComplete((n, failure) -> noteReply(failure));
        return call;
    }

    /** The connection's plain commands, for the few reads that are not scripts. */
    public RedisClusterAsyncCommands<byte[], byte[]> commands() {
        return redis;
    }

    /**
     * How many of these keys exist ({@code EXISTS}): one command on one server; on a cluster, Lettuce sends
     * one per hash slot and adds the counts up. A reply counts for {@link #lastReplyNanos()}.
     */
    public CompletionStage<Long> countExisting(byte[][] keys) {
        try {
            return redis.exists(keys).whenComplete((n, failure) -> noteReply(failure));
        } catch (RuntimeException e) { // refused at once: see run
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * When a call made through this runner last got a reply from Redis (an error reply counts, a
     * timeout does not), as a {@link System#nanoTime()} value; its creation time before the first reply.
     * {@link ConnectionLiveness} needs no {@code PING} to learn that a connection which just replied is alive.
     */
    public long lastReplyNanos() {
        return lastReplyNanos;
    }

    /**
     * Sends a {@code PING} unless a call got a reply within the last {@code quietNanos}; its reply counts for
     * {@link #lastReplyNanos()}. On a machine whose idle processors the host puts to sleep (a virtual machine), the
     * first round trip after 1.5 s of silence took 9 to 17 ms, the next ones, a few ms later, about 1 ms: a
     * consumer sends it shortly before a due time it slept for.
     */
    public void warmUp(long quietNanos) {
        if (System.nanoTime() - lastReplyNanos >= quietNanos) {
            redis.ping().whenComplete((pong, failure) -> noteReply(failure));
        }
    }

    private void noteReply(Throwable failure) {
        if (failure == null || unwrap(failure) instanceof RedisCommandExecutionException) {
            lastReplyNanos = System.nanoTime();
        }
    }

    private static Throwable unwrap(Throwable t) {
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
