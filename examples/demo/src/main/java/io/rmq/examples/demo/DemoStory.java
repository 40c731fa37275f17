package io.rmq.examples.demo;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

import io.rmq.engine.pending.CancelOutcome;
import io.rmq.examples.story.OrderTimeouts;
import io.rmq.examples.story.PriceCacheRefresher;
import io.rmq.examples.story.Received;
import io.rmq.examples.story.ReceivedLog;
import io.rmq.examples.story.StockReports;
import io.rmq.examples.story.TaskBoard;
import io.rmq.examples.support.Console;

/**
 * The story of the example applications ({@code examples/story}), told on the console: it drives the story's
 * beans as the REST resource of the Liberty and Quarkus examples would, and shows what their consumers received
 * ({@link ReceivedLog}, which also logs each message as it arrives). Each part prints what it sends, then whether
 * what arrived is what the topic type promises. Not thread-safe: run the parts one after the other from the main thread.
 */
final class DemoStory {

    /** How long a part waits for its deliveries. */
    private static final Duration WAIT = Duration.ofSeconds(20);

    private record Task(String description, double priority) {
    }

    private static final List<Task> TASKS = List.of(
            new Task("send the weekly newsletter", 10),
            new Task("recompute recommendations", 30),
            new Task("refund order-1042 (key account ACME)", 90),
            new Task("check stock of sku-7", 25),
            new Task("rebuild the search index", 40));
    private static final Task ESCALATED = new Task("check stock of sku-7", 95);

    private final PriceCacheRefresher prices;
    private final TaskBoard tasks;
    private final OrderTimeouts orders;
    private final ReceivedLog log;

    DemoStory(PriceCacheRefresher prices, TaskBoard tasks, OrderTimeouts orders, ReceivedLog log) {
        this.prices = prices;
        this.tasks = tasks;
        this.orders = orders;
        this.log = log;
    }

    /** Part a, merged duplicates: five price changes of two products become one cache refresh each. */
    boolean mergedDuplicates() {
        Console.title("a. Merged duplicates (RANGE_MERGE: due 3 s after the first request, merged while pending)");
        List<String> changes = List.of("sku-7", "sku-9", "sku-7", "sku-7", "sku-9");
        for (String sku : changes) {
            Console.say("  -> price of %s changed: %s", sku, prices.priceChanged(sku));
        }
        List<Received> refreshed = await(PriceCacheRefresher.TOPIC, 2);
        boolean once = refreshed.size() == 2 && refreshed.stream().map(Received::payload).distinct().count() == 2;
        Console.say("  %d requests sent, %d refreshes run: %s", changes.size(), refreshed.size(),
                once ? "one per product" : "NOT one per product");
        return once;
    }

    /**
     * Part b, priorities: tasks are queued while the worker is busy (it takes a second per task); it then takes the
     * highest pending priority each time. One task is queued again with a higher priority and merges.
     */
    boolean priorities() {
        Console.title("b. Priorities (PRIORITY, one slot: the worker takes the highest pending task next)");
        for (Task task : TASKS) {
            tasks.queue(task.description(), task.priority());
            Console.say("  -> priority %3.0f  %s", task.priority(), task.description());
        }
        tasks.queue(ESCALATED.description(), ESCALATED.priority());
        Console.say("  -> priority %3.0f  %s   (queued again: escalated, merges with the pending copy)",
                ESCALATED.priority(), ESCALATED.description());
        Instant allQueued = Instant.now();
        List<Received> taken = await(TaskBoard.TOPIC, TASKS.size());
        List<Double> afterQueueing = new ArrayList<>();
        taken.stream().filter(r -> r.receivedAt().isAfter(allQueued)).forEach(r -> afterQueueing.add(r.score().doubleValue()));
        List<Double> sorted = new ArrayList<>(afterQueueing);
        sorted.sort((x, y) -> Double.compare(y, x));
        boolean highestFirst = taken.size() == TASKS.size() && afterQueueing.equals(sorted);
        Console.say("  sent %d, delivered %d, highest pending priority first: %s", TASKS.size() + 1, taken.size(),
                highestFirst ? "yes" : "NO (" + afterQueueing + ")");
        return highestFirst;
    }

    /**
     * Part c, scheduled delivery: order time-outs arrive at their time, not before; a rescheduled one moves; a paid
     * order's time-out is cancelled and never arrives.
     */
    boolean scheduledDelivery() {
        Console.title("c. Scheduled delivery (FIXED_TIME: delivered at the time it was scheduled for)");
        schedule("order-1", Duration.ofMillis(2500));
        schedule("order-2", Duration.ofMillis(1000));
        schedule("order-3", Duration.ofMillis(1500));
        schedule("order-4", Duration.ofMillis(1500));
        Instant moved = schedule("order-1", Duration.ofMillis(2000));
        Console.say("     (order-1 scheduled again: the last time, %s, stands)", Console.time(moved.toEpochMilli()));
        CancelOutcome paid = orders.orderPaid("order-4").outcome();
        Console.say("  -> order-4 paid: its time-out is %s", paid.name().toLowerCase(Locale.ROOT));
        List<Received> closed = await(OrderTimeouts.TOPIC, 3);
        boolean onTime = closed.size() == 3
                && closed.stream().allMatch(r -> r.receivedAt().toEpochMilli() >= r.score().longValue());
        boolean withdrawn = paid == CancelOutcome.CANCELLED
                && closed.stream().noneMatch(r -> r.payload().endsWith(":order-4"));
        Console.say("  scheduled 5 times for 4 orders, one paid, delivered %d, none early: %s, the paid one never: %s",
                closed.size(), onTime ? "yes" : "NO", withdrawn ? "yes" : "NO");
        return onTime && withdrawn;
    }

    /**
     * Part d, a recurring schedule: the configuration declares a stock report every 5 s on the channel
     * {@code stock-reports-out}; each tick is one message, due at the tick's time (reports may have arrived during
     * the parts before: the schedule ran all along).
     */
    boolean recurringReport() {
        Console.title("d. Recurring schedule (a stock report every 5 s, one message a tick)");
        Predicate<Received> scheduled = r -> r.payload().equals(StockReports.SCHEDULED);
        int before = (int) log.all().stream().filter(r -> r.topic().endsWith(StockReports.TOPIC)).filter(scheduled).count();
        List<Received> reports = await(StockReports.TOPIC, before + 2).stream().filter(scheduled).toList();
        List<Long> ticks = reports.stream().map(r -> r.score().longValue()).toList();
        boolean onTicks = ticks.size() >= 2 && ticks.stream().allMatch(t -> t % 5_000 == 0)
                && ticks.stream().distinct().count() == ticks.size();
        boolean everyTick = true;
        for (int i = 1; i < ticks.size(); i++) {
            everyTick &= ticks.get(i) - ticks.get(i - 1) == 5_000;
        }
        Console.say("  %d reports, for the ticks %s: each tick once: %s, none missed: %s", reports.size(),
                ticks.stream().map(Console::time).toList(), onTicks ? "yes" : "NO", everyTick ? "yes" : "NO");
        return onTicks && everyTick;
    }

    private Instant schedule(String order, Duration delay) {
        Instant due = orders.scheduleTimeout(order, delay);
        Console.say("  -> close %s if unpaid at %s", order, Console.time(due.toEpochMilli()));
        return due;
    }

    /** Waits until the consumers received {@code count} messages of {@code topic}, and a moment more for extras. */
    private List<Received> await(String topic, int count) {
        Predicate<Received> ofTopic = r -> r.topic().endsWith(topic);
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (log.all().stream().filter(ofTopic).count() < count && System.nanoTime() - deadline < 0) {
            pause(Duration.ofMillis(50));
        }
        pause(Duration.ofMillis(500)); // a merge that failed would show as an extra delivery by now
        return log.all().stream().filter(ofTopic).toList();
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis()); // the console program waits on the consumers' log, which has no event
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for deliveries", e);
        }
    }
}
