package io.rmq.engine;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.api.async.RedisAsyncCommands;

/**
 * Calls the engine's scripts by SHA ({@code EVALSHA}), and on {@code NOSCRIPT} (a restarted or
 * flushed server, a failover) loads the script and calls it again. Thread-safe: it only issues
 * commands on a shared, thread-safe Lettuce connection.
 */
public final class ScriptRunner {

    private final RedisAsyncCommands<byte[], byte[]> redis;

    public ScriptRunner(RedisAsyncCommands<byte[], byte[]> redis) {
        this.redis = redis;
    }

    /**
     * Runs a script.
     *
     * @return the script's reply: {@code List<Object>} for MULTI scripts (byte[] and Long elements),
     *         {@code Long} for INTEGER ones, {@code byte[]} for VALUE ones
     */
    public <T> CompletionStage<T> run(RedisScript script, byte[][] keys, byte[]... args) {
        CompletableFuture<T> result = new CompletableFuture<>();
        this.<T>evalsha(script, keys, args).whenComplete((value, failure) -> {
            if (failure == null) {
                result.complete(value);
            } else if (unwrap(failure) instanceof RedisNoScriptException) {
                redis.scriptLoad(script.source())
                        .thenCompose(sha -> this.<T>evalsha(script, keys, args))
                        .whenComplete((v, f) -> {
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

    /** The connection's plain commands, for the few reads that are not scripts. */
    RedisAsyncCommands<byte[], byte[]> commands() {
        return redis;
    }

    private <T> CompletionStage<T> evalsha(RedisScript script, byte[][] keys, byte[][] args) {
        return redis.evalsha(script.sha(), script.output(), keys, args);
    }

    private static Throwable unwrap(Throwable t) {
        while (t instanceof java.util.concurrent.CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
