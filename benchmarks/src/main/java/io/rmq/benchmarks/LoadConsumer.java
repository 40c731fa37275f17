package io.rmq.benchmarks;

import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Consumes the load topic, the background work of the lateness phase at half load: acknowledges every
 * message and counts those whose ack completed.
 */
@ApplicationScoped
public class LoadConsumer {

    private final AtomicLong acked = new AtomicLong();

    @Incoming("load-in")
    public CompletionStage<Void> consume(Message<?> message) {
        return message.ack().thenRun(acked::incrementAndGet);
    }

    long acked() {
        return acked.get();
    }
}
