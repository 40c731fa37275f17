package io.rmq.examples.demo;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

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
 * Part a of the demo, merged duplicates: a burst of price changes asks, each time, for the cached
 * price of its product to be refreshed. The request is the same content for every change of one
 * product ({@code refresh-price:sku-1}), sent to a {@code RANGE_MERGE} topic with a time range of
 * one second, so every request that arrives while one is pending merges into it: the (expensive)
 * refresh runs once per product, one second after the product's first change.
 */
@ApplicationScoped
public class PriceCacheRefresher {

    static final List<String> PRODUCTS = List.of("sku-1", "sku-2", "sku-3");
    static final int CHANGES_PER_PRODUCT = 50;
    static final Duration TIME_RANGE = Duration.ofSeconds(1);
    private static final long PAUSE_BETWEEN_ROUNDS_MS = 12;

    @Inject
    @Channel("price-refresh-out")
    Emitter<String> refreshRequests;

    // When each product's first and last request reached Redis (was acknowledged), in epoch ms.
    private final Map<String, Long> firstStoredAt = new ConcurrentHashMap<>();
    private final Map<String, Long> lastStoredAt = new ConcurrentHashMap<>();
    private final AtomicInteger refreshes = new AtomicInteger();
    private volatile long burstStart;
    private volatile CountDownLatch allRefreshed = new CountDownLatch(PRODUCTS.size());

    /** The consumer: refreshes one product's cached price (here it only reports it). */
    @Incoming("price-refresh")
    public CompletionStage<Void> refresh(Message<String> request) {
        long now = System.currentTimeMillis();
        String product = request.getPayload().substring("refresh-price:".length());
        IncomingRmqMetadata rmq = request.getMetadata(IncomingRmqMetadata.class).orElseThrow();
        long due = (long) rmq.getScore();
        long first = firstStoredAt.get(product);
        refreshes.incrementAndGet();
        Console.say("  <- %s delivered at +%d ms (attempt %d), due at +%d ms:%n"
                + "     its %d requests were acknowledged from +%d to +%d ms; due 1 s after the first, not the last",
                request.getPayload(), now - burstStart, rmq.getAttempt(), due - burstStart, CHANGES_PER_PRODUCT,
                first - burstStart, lastStoredAt.get(product) - burstStart);
        allRefreshed.countDown();
        return request.ack();
    }

    /** Runs part a and prints what happens. */
    public void run() throws InterruptedException {
        Console.title("a. Merged duplicates (RANGE_MERGE, time range " + TIME_RANGE.toMillis() + " ms)");
        int total = PRODUCTS.size() * CHANGES_PER_PRODUCT;
        Console.say("%d price changes (%d per product, a round of %d every %d ms) each ask for 'refresh-price:<sku>'.",
                total, CHANGES_PER_PRODUCT, PRODUCTS.size(), PAUSE_BETWEEN_ROUNDS_MS);
        CountDownLatch stored = new CountDownLatch(total);
        AtomicInteger failed = new AtomicInteger();
        OutgoingRmqMetadata withinOneSecond = OutgoingRmqMetadata.builder().withTimeRange(TIME_RANGE).build();

        burstStart = System.currentTimeMillis();
        for (int change = 0; change < CHANGES_PER_PRODUCT; change++) {
            for (String product : PRODUCTS) {
                refreshRequests.send(Message.of("refresh-price:" + product)
                        .addMetadata(withinOneSecond)
                        .withAck(() -> {
                            long now = System.currentTimeMillis();
                            firstStoredAt.merge(product, now, Math::min);
                            lastStoredAt.merge(product, now, Math::max);
                            stored.countDown();
                            return CompletableFuture.completedFuture(null);
                        })
                        .withNack(failure -> {
                            failed.incrementAndGet();
                            Console.say("  !! a refresh request was refused: %s", failure);
                            stored.countDown();
                            return CompletableFuture.completedFuture(null);
                        }));
            }
            Thread.sleep(PAUSE_BETWEEN_ROUNDS_MS);
        }
        long lastRequest = System.currentTimeMillis() - burstStart;
        if (!stored.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("Redis did not acknowledge the refresh requests within 10 s");
        }
        Console.say("  -> sent %d requests from +0 to +%d ms; Redis acknowledged %d of them (stored or merged)",
                total, lastRequest, total - failed.get());

        boolean done = allRefreshed.await(10, TimeUnit.SECONDS);
        // Wait one more time range: a request that had escaped merging would show up by then.
        Thread.sleep(TIME_RANGE.toMillis() + 500);
        Console.say("");
        Console.say("  sent %d, delivered %d: %d duplicates merged while pending. Each product was refreshed once,",
                total, refreshes.get(), total - refreshes.get());
        Console.say("  due %d ms after its FIRST request (the first due time stands), not after its last.",
                TIME_RANGE.toMillis());
        if (!done || refreshes.get() != PRODUCTS.size()) {
            Console.say("  !! expected %d deliveries", PRODUCTS.size());
        }
    }

    /** Whether part a delivered exactly one refresh per product. */
    boolean succeeded() {
        return refreshes.get() == PRODUCTS.size();
    }
}
