package io.rmq.examples.dashboard;

import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * The demo's consumers: orders and price refreshes are acknowledged at once; an email that starts with
 * {@value #BOUNCE} fails on every delivery (two with {@code max-retries=1}) and ends in the dead queue, where
 * the dashboard shows it with its last failure.
 */
@ApplicationScoped
public class DemoWorkers {

    static final String BOUNCE = "bounce";

    @Incoming("orders")
    public CompletionStage<Void> timeOut(Message<String> order) {
        return order.ack();
    }

    @Incoming("prices")
    public CompletionStage<Void> refresh(Message<String> price) {
        return price.ack();
    }

    @Incoming("emails")
    public CompletionStage<Void> deliver(Message<String> email) {
        if (email.getPayload().startsWith(BOUNCE)) {
            return email.nack(new IllegalStateException("550 mailbox unavailable: " + email.getPayload().substring(8)));
        }
        return email.ack();
    }
}
