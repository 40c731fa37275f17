package io.rmq.engine.consume;

import io.rmq.engine.settlement.Delivery;

/** Receives a consumer's deliveries, on the consumer's thread. */
@FunctionalInterface
public interface DeliveryListener {

    /** A message; commit or roll it back, from any thread, now or later. */
    void onDelivery(Delivery delivery);
}
