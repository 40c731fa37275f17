package io.rmq.examples.story;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

import io.rmq.connector.IncomingRmqMetadata;
import io.rmq.connector.OutgoingRmqMetadata;
import io.rmq.connector.RmqTopics;
import io.rmq.engine.pending.Cancellation;

/**
 * Scheduled delivery ({@code FIXED_TIME}): an unpaid order is closed at an exact time. Each order's
 * time-out is sent with its delivery time and arrives then, not before; scheduling it again moves it
 * (the last time stands). An order paid in time withdraws its time-out: the application cancels the pending
 * message, which is then never delivered.
 */
@ApplicationScoped
public class OrderTimeouts {

    public static final String TOPIC = "order-timeouts";
    static final String COMMAND_PREFIX = "close-unpaid:";

    @Inject
    @Channel("order-timeouts-out")
    Emitter<String> timeouts;

    @Inject
    ReceivedLog log;

    @Inject
    RmqTopics topics;

    /** Schedules the closing of {@code orderId} if still unpaid after {@code delay}; returns when it is due. */
    public Instant scheduleTimeout(String orderId, Duration delay) {
        Instant due = Instant.now().plus(delay);
        Sending.sendAndWait(timeouts, COMMAND_PREFIX + orderId,
                Metadata.of(OutgoingRmqMetadata.builder().withDeliverAt(due).withSlotBasis(orderId).build()));
        return due;
    }

    /**
     * The order was paid: withdraws its time-out. Says whether it was still pending (now cancelled, never
     * delivered), or already being delivered (too late to withdraw: the consumer sees the order paid), or gone.
     */
    public Cancellation orderPaid(String orderId) {
        return topics.channel("order-timeouts-out").cancel(COMMAND_PREFIX + orderId, orderId);
    }

    /** The consumer: closes the order if it is still unpaid (here it only records it). */
    @Incoming("order-timeouts")
    public CompletionStage<Void> close(Message<String> timeout) {
        long due = (long) timeout.getMetadata(IncomingRmqMetadata.class).orElseThrow().getScore();
        long late = System.currentTimeMillis() - due;
        log.record(timeout, "due at " + Instant.ofEpochMilli(due) + ", delivered " + late + " ms after");
        return timeout.ack();
    }
}
