package io.rmq.examples.liberty;

import java.time.Instant;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import io.rmq.connector.IncomingRmqMetadata;
import io.rmq.connector.OutgoingRmqMetadata;

/**
 * Merged duplicates ({@code RANGE_MERGE}): each price change asks for the product's cached price to
 * be refreshed. The request is the same content for every change of a product, and the channel's
 * {@code time-range} makes it due 3 s after it is sent, so every request that arrives while one is
 * pending merges into it: the (expensive) refresh runs once, 3 s after the first change.
 */
@ApplicationScoped
public class PriceCacheRefresher {

    static final String TOPIC = "price-refresh";

    @Inject
    @Channel("price-refresh-out")
    Emitter<String> refreshRequests;

    @Inject
    ReceivedLog log;

    /** A price changed: asks for the cached price of {@code sku} to be refreshed. Returns the request sent. */
    public String priceChanged(String sku) {
        String request = "refresh-price:" + sku;
        // the product chooses the slot: all requests about it meet, and merge, in one sorted set
        Sending.sendAndWait(refreshRequests, request, OutgoingRmqMetadata.builder().withSlotBasis(sku).build());
        return request;
    }

    /** The consumer: refreshes one product's cached price (here it only records it). */
    @Incoming("price-refresh")
    public CompletionStage<Void> refresh(Message<String> request) {
        long due = (long) request.getMetadata(IncomingRmqMetadata.class).orElseThrow().getScore();
        log.record(request, "refreshed once for all the requests sent while it was pending; due at "
                + Instant.ofEpochMilli(due) + ", 3 s after the first");
        return request.ack();
    }
}
