package io.rmq.connector.metrics;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

import io.rmq.engine.settlement.Delivery;

/**
 * Measures one delivery: counts it when it is handed over (with its lateness, for timed topics), and
 * counts the first of its ack and nack with the processing time since the hand-over, as
 * {@link Delivery} honours only the first of commit and rollback. It only observes: the message
 * settles the delivery itself. Thread-safe.
 */
public final class DeliveryMeter {

    private static final AtomicIntegerFieldUpdater<DeliveryMeter> SETTLED =
            AtomicIntegerFieldUpdater.newUpdater(DeliveryMeter.class, "settled");

    private final IncomingMetrics metrics;
    private final Delivery delivery;
    private volatile long handedOverAt;
    private volatile int settled;

    DeliveryMeter(IncomingMetrics metrics, Delivery delivery) {
        this.metrics = metrics;
        this.delivery = delivery;
    }

    /** Call right before the message is handed to the application. */
    public void handedOver() {
        handedOverAt = System.nanoTime();
        metrics.delivered.increment(1);
        if (metrics.timed()) {
            // the due time is on the Redis server's clock, the hand-over on this host's: a message is never
            // handed over before it is due, so a negative difference is clock skew, shown as 0
            long lateMillis = System.currentTimeMillis() - (long) delivery.score();
            metrics.lateness.recordNanos(Math.max(0, lateMillis) * 1_000_000L);
        }
    }

    /** The message was acked: counted when it is the first ack or nack. */
    public void acked() {
        if (firstSettlement()) {
            metrics.acked.increment(1);
        }
    }

    /** The message was nacked: counted when it is the first ack or nack. */
    public void nacked() {
        if (firstSettlement()) {
            metrics.nacked.increment(1);
        }
    }

    private boolean firstSettlement() {
        if (!SETTLED.compareAndSet(this, 0, 1)) {
            return false;
        }
        metrics.processing.recordNanos(System.nanoTime() - handedOverAt);
        return true;
    }
}
