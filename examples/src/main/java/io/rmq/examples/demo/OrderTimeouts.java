package io.rmq.examples.demo;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import io.rmq.connector.IncomingRmqMetadata;
import io.rmq.connector.OutgoingRmqMetadata;
import io.rmq.examples.support.Console;

/**
 * Part c of the demo, scheduled delivery: unpaid orders are closed at an exact time. Each order's
 * time-out is sent to a {@code FIXED_TIME} topic with its delivery time, in no particular order,
 * and arrives at that time; the consumer reports how late (delivered minus due) it came.
 */
@ApplicationScoped
public class OrderTimeouts {

    /** When each order times out, in ms after the orders are placed. */
    static final Map<String, Long> TIMEOUTS = Map.of(
            "order-1001", 500L,
            "order-1002", 2_000L,
            "order-1003", 900L,
            "order-1004", 3_000L,
            "order-1005", 1_400L,
            "order-1006", 2_500L);

    @Inject
    @Channel("order-timeouts-out")
    Emitter<String> timeouts;

    private final Map<String, Long> lateness = new ConcurrentHashMap<>();
    private volatile long placedAt;
    private final CountDownLatch allClosed = new CountDownLatch(TIMEOUTS.size());

    /** The consumer: closes an unpaid order when its time-out is delivered (here it only reports it). */
    @Incoming("order-timeouts")
    public CompletionStage<Void> close(Message<String> timeout) {
        long now = System.currentTimeMillis();
        String order = timeout.getPayload().substring("close-unpaid:".length());
        long due = (long) timeout.getMetadata(IncomingRmqMetadata.class).orElseThrow().getScore();
        lateness.put(order, now - due);
        Console.say("  <- %s closed: due %s (+%4d ms), delivered %s, %3d ms late",
                order, Console.time(due), due - placedAt, Console.time(now), now - due);
        allClosed.countDown();
        return timeout.ack();
    }

    /** Runs part c and prints what happens. */
    public void run() throws InterruptedException {
        Console.title("c. Scheduled delivery (FIXED_TIME): unpaid orders close at an exact time");
        placedAt = System.currentTimeMillis();
        List<String> orders = new ArrayList<>(TIMEOUTS.keySet());
        Collections.shuffle(orders);
        CountDownLatch stored = new CountDownLatch(orders.size());
        for (String order : orders) {
            long due = placedAt + TIMEOUTS.get(order);
            timeouts.send(Message.of("close-unpaid:" + order)
                    .addMetadata(OutgoingRmqMetadata.builder().withDeliverAt(Instant.ofEpochMilli(due)).build())
                    .withAck(() -> {
                        stored.countDown();
                        return CompletableFuture.completedFuture(null);
                    }));
            Console.say("  -> %s: close if unpaid at %s (+%4d ms)", order, Console.time(due), TIMEOUTS.get(order));
        }
        if (!stored.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("Redis did not acknowledge the time-outs within 10 s");
        }
        boolean done = allClosed.await(15, TimeUnit.SECONDS);
        long max = lateness.values().stream().mapToLong(Long::longValue).max().orElse(-1);
        Console.say("");
        Console.say("  scheduled %d, delivered %d, at most %d ms after the due time%s", TIMEOUTS.size(),
                lateness.size(), max, done ? "" : " (!! some never arrived)");
    }

    boolean succeeded() {
        return lateness.size() == TIMEOUTS.size();
    }
}
