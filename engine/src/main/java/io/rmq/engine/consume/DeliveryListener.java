package io.rmq.engine.consume;

import io.rmq.engine.settlement.Delivery;

/** Receives a consumer's deliveries, on the consumer's thread. */
@FunctionalInterface
public interface DeliveryListener {

    /** A message; commit or roll it back, from any thread, now or later. */
    void onDelivery(Delivery delivery);

    /**
     * The consumer handed over, one after the other, every message it had ready for the demand, at least one:
     * those {@link #onDelivery} received since the previous call were popped together. Called on the consumer's
     * thread; does nothing unless overridden.
     */
    default void onHandOverEnd() {
    }

    /**
     * The consumer had demand and room for messages but waited {@code waitedNanos} for permits of its topic's rate
     * limit (or of the adaptive slow-down) before it could pop again. Called on the consumer's thread; does nothing
     * unless overridden.
     */
    default void onThrottled(long waitedNanos) {
    }
}
