package io.rmq.examples.demo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;

import io.rmq.connector.IncomingRmqMetadata;
import io.rmq.connector.OutgoingRmqMetadata;
import io.rmq.examples.support.Console;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Part b of the demo, priorities: tasks are queued with business priorities while nobody consumes
 * them, then a worker starts and takes them highest priority first. The topic has one slot, so the
 * order is strict across all tasks. One task is queued twice, the second time with a higher
 * priority (it was escalated): the copies merge and the last priority stands.
 *
 * <p>The worker consumes through an injected {@code @Channel} stream, which the connector starts
 * consuming only when it is subscribed, after every task was stored.
 */
@ApplicationScoped
public class TaskBoard {

    record Task(String description, double priority) {
    }

    static final List<Task> TASKS = List.of(
            new Task("send the weekly newsletter", 10),
            new Task("recompute recommendations", 30),
            new Task("refund order-1042 (key account ACME)", 90),
            new Task("resize new product images", 20),
            new Task("check stock of sku-7", 25),
            new Task("answer ticket 5521 (key account Globex)", 80),
            new Task("rebuild the search index", 40),
            new Task("export the daily sales report", 50));
    static final Task ESCALATED = new Task("check stock of sku-7", 95);

    @Inject
    @Channel("tasks-out")
    Emitter<String> tasksOut;

    @Inject
    @Channel("tasks")
    Multi<Message<String>> tasks;

    private volatile boolean succeeded;

    /** Runs part b and prints what happens. */
    public void run() throws Exception {
        Console.title("b. Priorities (PRIORITY, one slot: strict order, highest first)");
        Console.say("Queued while no worker runs, in this order:");
        for (Task task : TASKS) {
            queue(task);
            Console.say("  -> priority %3.0f  %s", task.priority(), task.description());
        }
        queue(ESCALATED);
        Console.say("  -> priority %3.0f  %s   (queued again: escalated, merges with the pending copy)",
                ESCALATED.priority(), ESCALATED.description());

        Console.say("A worker starts and takes the tasks:");
        int expected = TASKS.size();
        List<Message<String>> taken = tasks
                .select().first(expected)
                .onItem().call(task -> Uni.createFrom().completionStage(task::ack))
                .onItem().invoke(task -> Console.say("  <- priority %3.0f  %s",
                        task.getMetadata(IncomingRmqMetadata.class).orElseThrow().getScore(), task.getPayload()))
                .collect().asList()
                .await().atMost(Duration.ofSeconds(10));

        List<Double> order = new ArrayList<>();
        taken.forEach(t -> order.add(t.getMetadata(IncomingRmqMetadata.class).orElseThrow().getScore()));
        List<Double> sorted = new ArrayList<>(order);
        sorted.sort((x, y) -> Double.compare(y, x));
        succeeded = order.equals(sorted) && order.get(0) == ESCALATED.priority();
        Console.say("");
        Console.say("  sent %d, delivered %d, highest priority first: %s", TASKS.size() + 1, taken.size(),
                succeeded ? "yes" : "NO (" + order + ")");
    }

    /** Queues one task and waits until Redis has stored (or merged) it. */
    private void queue(Task task) throws Exception {
        CompletableFuture<Void> stored = new CompletableFuture<>();
        tasksOut.send(Message.of(task.description())
                .addMetadata(OutgoingRmqMetadata.builder().withPriority(task.priority()).build())
                .withAck(() -> {
                    stored.complete(null);
                    return CompletableFuture.completedFuture(null);
                })
                .withNack(failure -> {
                    stored.completeExceptionally(failure);
                    return CompletableFuture.completedFuture(null);
                }));
        stored.get(10, TimeUnit.SECONDS);
    }

    boolean succeeded() {
        return succeeded;
    }
}
