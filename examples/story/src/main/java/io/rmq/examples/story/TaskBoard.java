package io.rmq.examples.story;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

import io.rmq.connector.IncomingRmqMetadata;
import io.rmq.connector.OutgoingRmqMetadata;

/**
 * Priorities ({@code PRIORITY}): tasks are queued with a priority, and a worker that takes
 * {@value #WORK_MILLIS} ms per task takes the highest pending priority next (the topic has one slot
 * and the channel pops one task at a time, so the order is strict). A task queued again while it is
 * pending merges with it, and its last priority stands.
 *
 * <p>A task whose text starts with {@value #FAILING} fails at once, on every delivery: it is retried
 * ({@code max-retries}) and then lands in the dead queue, where the admin tools show it (docs/liberty.md,
 * docs/cli.md).
 */
@ApplicationScoped
public class TaskBoard {

    public static final String TOPIC = "tasks";
    static final long WORK_MILLIS = 1_000;
    /** Tasks that start with this fail. */
    static final String FAILING = "fail";

    @Inject
    @Channel("tasks-out")
    Emitter<String> tasks;

    @Inject
    ReceivedLog log;

    /** Queues a task; returns once Redis has stored it (or merged it into the same pending task). */
    public void queue(String task, double priority) {
        Sending.sendAndWait(tasks, task, Metadata.of(OutgoingRmqMetadata.builder().withPriority(priority).build()));
    }

    /** The worker: one task at a time, each taking a while; the task is acked when the work is done. */
    @Incoming("tasks")
    public CompletionStage<Void> work(Message<String> task) {
        double priority = task.getMetadata(IncomingRmqMetadata.class).orElseThrow().getScore();
        if (task.getPayload().startsWith(FAILING)) {
            log.record(task, "priority " + priority + ": fails on purpose");
            return task.nack(new IllegalStateException("cannot do '" + task.getPayload() + "'"));
        }
        log.record(task, "priority " + priority + ": the highest pending; working on it for " + WORK_MILLIS + " ms");
        return CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(WORK_MILLIS, TimeUnit.MILLISECONDS))
                .thenCompose(done -> task.ack());
    }
}
