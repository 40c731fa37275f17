package io.rmq.examples.story;

import java.time.Instant;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.eclipse.microprofile.reactive.messaging.Outgoing;

import io.rmq.connector.IncomingRmqMetadata;
import io.rmq.connector.OutgoingRmqMetadata;

/**
 * Merged duplicates ({@code RANGE_MERGE}): each price change asks for the product's cached price to
 * be refreshed. Price changes go to the in-memory channel {@code price-changes}; a processor turns
 * each into a refresh request, the same content for every change of a product, sent to the topic
 * {@value #TOPIC}, whose channel's {@code time-range} makes it due 3 s after it is sent. Every request
 * that arrives while one is pending merges into it: the (expensive) refresh runs once, 3 s after the
 * first change.
 */
@ApplicationScoped
public class PriceCacheRefresher {

    public static final String TOPIC = "price-refresh";
    static final String REQUEST_PREFIX = "refresh-price:";

    @Inject
    @Channel("price-changes")
    Emitter<String> priceChanges;

    @Inject
    ReceivedLog log;

    /**
     * A price changed: sends the change and returns the refresh request it became, once Redis has
     * stored it or merged it into a pending one.
     */
    public String priceChanged(String sku) {
        Sending.sendAndWait(priceChanges, sku, Metadata.empty());
        return REQUEST_PREFIX + sku;
    }

    /**
     * The processor: a price change becomes a refresh request. The product is the slot basis, so all
     * requests about it meet, and merge, in one sorted set. The request keeps the change's ack: the
     * change is acked when Redis has stored the request.
     */
    @Incoming("price-changes")
    @Outgoing("price-refresh-out")
    public Message<String> refreshRequest(Message<String> change) {
        String sku = change.getPayload();
        return change.withPayload(REQUEST_PREFIX + sku)
                .addMetadata(OutgoingRmqMetadata.builder().withSlotBasis(sku).build());
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
