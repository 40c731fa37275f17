package io.rmq.connector.metrics;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.admin.TopicStats;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.support.DaemonThreads;
import io.rmq.engine.topic.TopicDefinition;

/**
 * Reads topics' state ({@link RmqAdmin#stats}) for the queue gauges, one read at a time on a thread of its
 * own ({@value #THREAD_NAME}), over one admin connection per Redis URI. The thread and the connections are
 * opened on the first read, so a process whose gauges are never read opens neither, and closed by
 * {@link #close()}.
 *
 * <p>Lifecycle: open until {@link #close()}; reads asked for afterwards fail at once. Thread-safe.
 */
final class TopicStateReader implements AutoCloseable {

    static final String THREAD_NAME = "rmq-metrics";

    private final Map<RedisAccess, RmqAdmin> admins = new ConcurrentHashMap<>();
    private ExecutorService executor;
    private boolean closed;

    /** Reads the state of {@code topic} in the Redis of {@code redis}; fails when Redis cannot be reached. */
    CompletableFuture<TopicStats> read(RedisAccess redis, TopicDefinition topic) {
        ExecutorService e;
        synchronized (this) {
            if (closed) {
                return CompletableFuture.failedFuture(new IllegalStateException("closed"));
            }
            if (executor == null) {
                executor = Executors.newSingleThreadExecutor(DaemonThreads.named(THREAD_NAME));
            }
            e = executor;
        }
        try {
            return CompletableFuture.supplyAsync(() -> admin(redis).stats(topic), e);
        } catch (RejectedExecutionException closing) {
            return CompletableFuture.failedFuture(closing);
        }
    }

    /** The admin connection to {@code redis}, connected on first use; only called on the reader's thread. */
    private RmqAdmin admin(RedisAccess redis) {
        RmqAdmin admin = admins.get(redis);
        if (admin == null) {
            admin = RmqAdmin.connect(redis);
            admins.put(redis, admin);
        }
        return admin;
    }

    /** Stops the thread and closes the connections. Idempotent. */
    @Override
    public void close() {
        ExecutorService e;
        synchronized (this) {
            closed = true;
            e = executor;
        }
        if (e != null) {
            e.shutdownNow();
            try {
                // the read under way, if any, ends within RmqAdmin's own timeout
                e.awaitTermination(RmqAdmin.DEFAULT_TIMEOUT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        admins.values().forEach(RmqAdmin::close);
        admins.clear();
    }
}
