package io.rmq.admin.rest;

import static io.rmq.admin.rest.i18n.AdminRestLogging.log;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import io.rmq.engine.admin.AdminOperation;
import io.rmq.engine.admin.AdminProgress;
import io.rmq.engine.admin.RecordedOperation;
import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.topic.TopicDefinition;

/**
 * The requeues and purges under way through the endpoints of this application: each runs on a thread of its own
 * (so that its request can watch its client, {@link LongAnswer}), recorded in Redis while it runs so that every
 * admin of the Redis lists and cancels it ({@link RmqAdmin#recordOperation}), audited as it starts and ends.
 * The application's stop stops them all: each ends after its current script call and is audited with what it
 * moved. Thread-safe.
 */
@ApplicationScoped
public class RunningChanges {

    private final Map<String, Running> running = new ConcurrentHashMap<>();
    private final ExecutorService threads = Executors.newCachedThreadPool(new Named());

    /**
     * A change that takes a while, in words for the audit trail: {@code starting} ("requeuing dead messages"),
     * {@code done} ("requeued dead messages"), on {@code topic}, {@code what} (the selection, the rate).
     */
    record Change(String starting, String done, TopicDefinition topic, String what) {
    }

    /** The work of a {@link Change}: counts what it moves in the progress it is given and stops when that is stopped. */
    interface Work {
        long run(AdminProgress progress);
    }

    /** A change under way: what it moves, and its end (how many messages it moved, or its failure). */
    static final class Running {

        final AdminProgress progress = new AdminProgress();
        final CompletableFuture<Long> end = new CompletableFuture<>();
        private volatile String stopReason = "cancelled";

        /** Stops it because its client went away (the audit says so). */
        void clientGone() {
            stopReason = "its client went away";
            progress.stop();
        }

        private void stop(String reason) {
            stopReason = reason;
            progress.stop();
        }
    }

    /**
     * Starts {@code work} for {@code user} on a thread of its own, recorded in the Redis of {@code admin} under
     * {@code keyPrefix} while it runs, audited when it starts (RMQ-0955) and when it ends (RMQ-0951), or when it is
     * stopped or fails (RMQ-0956), with the messages it moved. What it returns ends the result.
     */
    Running start(String user, Change change, RmqAdmin admin, String keyPrefix, Work work) {
        String topic = change.topic().name();
        String id = UUID.randomUUID().toString();
        Running entry = new Running();
        log.started(user, change.starting(), topic, change.what());
        running.put(id, entry);
        try {
            threads.execute(() -> run(user, change, admin, keyPrefix, work, id, entry));
        } catch (RuntimeException notStarted) {
            running.remove(id);
            log.changeFailed(user, change.starting(), topic, "0 moved (" + change.what() + ")", String.valueOf(notStarted));
            throw notStarted;
        }
        return entry;
    }

    private void run(String user, Change change, RmqAdmin admin, String keyPrefix, Work work, String id, Running entry) {
        String topic = change.topic().name();
        try (RecordedOperation recorded = admin.recordOperation(keyPrefix,
                new AdminOperation(id, user, change.starting(), topic, change.what(), Instant.now(), 0, false), entry.progress)) {
            long count = work.run(entry.progress);
            if (entry.progress.stopped()) {
                log.changeFailed(user, change.starting(), topic, count + " moved (" + change.what() + ")", entry.stopReason);
            } else {
                log.changed(user, change.done(), topic, count + " (" + change.what() + ")");
            }
            entry.end.complete(count);
        } catch (RuntimeException | Error e) {
            log.changeFailed(user, change.starting(), topic, entry.progress.acted() + " moved (" + change.what() + ")",
                    String.valueOf(e.getMessage()));
            entry.end.completeExceptionally(e);
        } finally {
            running.remove(id);
        }
    }

    @PreDestroy
    void stopAll() {
        running.values().forEach(c -> c.stop("the application stopped"));
        threads.shutdown();
    }

    /** Daemon threads named after what they run. */
    private static final class Named implements java.util.concurrent.ThreadFactory {

        private final AtomicInteger count = new AtomicInteger();

        @Override
        public Thread newThread(Runnable r) {
            Thread thread = new Thread(r, "rmq-admin-operation-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        }
    }
}
