package io.rmq.engine.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.rmq.engine.topic.TopicKeys;

/**
 * Names the key behind a {@code WRONGTYPE} error. Redis says only that "a key" holds the wrong kind
 * of value; when a script call fails so, the {@code TYPE} of each of its keys is read and compared
 * with what the documented layout puts there, and the call fails with {@link WrongKeyTypeException} (RMQ-0340) naming
 * the offending keys (or with Redis's own error when none differs any more). Stateless; thread-safe.
 */
public final class KeyTypes {

    private KeyTypes() {
    }

    /**
     * {@code call}, whose {@code WRONGTYPE} failure, if any, is replaced by one naming the keys that hold
     * the wrong kind of value.
     */
    public static <T> CompletionStage<T> nameWrongKeys(CompletionStage<T> call, RedisClusterAsyncCommands<byte[], byte[]> redis,
            RedisScript script, byte[][] keys) {
        return nameWrongKeys(call, redis, script.file(), keys);
    }

    /**
     * {@code call}, a script call or a plain command named by {@code operation} (as {@code RMQ-0340} shows it), whose
     * {@code WRONGTYPE} failure, if any, is replaced by one naming the keys that hold the wrong kind of value.
     */
    public static <T> CompletionStage<T> nameWrongKeys(CompletionStage<T> call, RedisClusterAsyncCommands<byte[], byte[]> redis,
            String operation, byte[][] keys) {
        return call.exceptionallyCompose(failure -> {
            String redisError = WrongKeyTypeException.wrongTypeMessage(failure);
            if (redisError == null) {
                return CompletableFuture.failedFuture(failure);
            }
            List<CompletableFuture<String>> types = new ArrayList<>(keys.length);
            for (byte[] key : keys) {
                types.add(redis.type(key).toCompletableFuture());
            }
            return CompletableFuture.allOf(types.toArray(CompletableFuture[]::new)).handle((v, typeFailure) -> {
                List<String> wrongKeys = new ArrayList<>();
                List<String> problems = new ArrayList<>();
                for (int i = 0; typeFailure == null && i < keys.length; i++) {
                    String key = new String(keys[i], StandardCharsets.UTF_8);
                    String held = types.get(i).join();
                    String expected = expectedType(key);
                    if (expected != null && !"none".equals(held) && !expected.equals(held)) {
                        wrongKeys.add(key);
                        problems.add("key '" + key + "' (" + role(key) + ") holds a " + held + " where a " + expected
                                + " is expected");
                    }
                }
                if (wrongKeys.isEmpty()) {
                    throw failure instanceof RuntimeException r ? r : new IllegalStateException(failure);
                }
                throw new WrongKeyTypeException(operation, wrongKeys, problems, failure);
            });
        });
    }

    /** The type {@code TYPE} reports for a key of the layout, or {@code null} when any type will do. */
    static String expectedType(String key) {
        if (key.startsWith("paused{")) {
            return null; // only its existence counts
        }
        if (key.startsWith("prepare{") || key.startsWith("dead{")) {
            return "zset";
        }
        if (key.contains("{") || key.endsWith(TopicKeys.registryKey(""))) {
            return "hash"; // attempts, origin, owner, failures, counters; the topic registry
        }
        return "zset"; // the store queue
    }

    private static String role(String key) {
        int brace = key.indexOf('{');
        if (brace > 0) {
            return "the " + key.substring(0, brace) + " " + (key.startsWith("prepare{") || key.startsWith("dead{")
                    ? "queue" : "hash") + " of the slot";
        }
        return key.endsWith(TopicKeys.registryKey("")) ? "the topic registry" : "the store queue of the slot";
    }
}
