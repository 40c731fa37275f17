package io.rmq.connector.metrics;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.rmq.connector.i18n.RmqLogging;
import io.rmq.engine.admin.TopicStats;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.topic.TopicDefinition;

/**
 * The state of one topic as its gauges show it, read from Redis lazily and at a bounded rate: when a
 * gauge is read (a scrape, an export) and the last read started at least {@code refreshInterval} ago,
 * a new read starts, and the gauge waits for it at most {@code readWait}; otherwise it shows the last
 * state read. So however often and by however many registries the gauges are read, Redis sees at most
 * one read of the topic per interval. A gauge shows no value ({@code NaN}) before the first read and
 * after a failed one: a stale count would hide an outage.
 *
 * <p>Thread-safe.
 */
final class TopicState {

    private static final RmqLogging LOG = RmqLogging.log;

    private final TopicDefinition topic;
    private final RedisAccess redis;
    private final Source reader;
    private final long refreshNanos;
    private final long waitNanos;

    private volatile TopicStats last;
    private CompletableFuture<TopicStats> reading; // guarded by this
    private long readStartedAt;                    // guarded by this
    private boolean failing;                       // guarded by this: logged once per outage

    /** Where the state comes from: {@link TopicStateReader#read}. */
    @FunctionalInterface
    interface Source {
        CompletableFuture<TopicStats> read(RedisAccess redis, TopicDefinition topic);
    }

    TopicState(TopicDefinition topic, RedisAccess redis, Source reader, long refreshNanos, long waitNanos) {
        this.topic = topic;
        this.redis = redis;
        this.reader = reader;
        this.refreshNanos = refreshNanos;
        this.waitNanos = waitNanos;
    }

    /** The gauge's current value: from the last state read, after a new read if one is due. */
    double value(RmqMeter gauge) {
        CompletableFuture<TopicStats> r;
        long deadline;
        synchronized (this) {
            long now = System.nanoTime();
            if (reading == null || (reading.isDone() && now - readStartedAt >= refreshNanos)) {
                readStartedAt = now;
                reading = reader.read(redis, topic);
                reading.whenComplete(this::readDone);
            }
            r = reading;
            deadline = readStartedAt + waitNanos;
        }
        long remaining = deadline - System.nanoTime();
        if (!r.isDone() && remaining > 0) {
            try {
                r.get(remaining, TimeUnit.NANOSECONDS);
            } catch (ExecutionException | TimeoutException e) {
                // shown as no value (failed) or the previous one (slow); the failure is logged by readDone
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        // a finished read's own outcome: its readDone may not have run yet when this thread wakes from get
        TopicStats s = !r.isDone() ? last : r.isCompletedExceptionally() ? null : r.join();
        return s == null ? Double.NaN : valueOf(gauge, s);
    }

    private void readDone(TopicStats stats, Throwable failure) {
        last = stats;
        boolean log;
        synchronized (this) {
            log = failure != null && !failing;
            failing = failure != null;
        }
        if (log) {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            LOG.errorReadingTopicState(MeterTags.topicTag(topic), redis.displayUri(), cause);
        }
    }

    static double valueOf(RmqMeter gauge, TopicStats s) {
        switch (gauge) {
            case PENDING:
                return s.pending();
            case DUE:
                return s.due();
            case OLDEST_DUE_AGE:
                return s.oldestDueAgeMillis() / 1000.0;
            case INFLIGHT:
                return s.inFlight();
            case DEAD_QUEUE:
                return s.dead();
            default:
                throw new IllegalArgumentException(gauge + " is not a queue gauge");
        }
    }
}
