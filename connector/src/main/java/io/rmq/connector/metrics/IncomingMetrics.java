package io.rmq.connector.metrics;

import io.rmq.engine.settlement.Delivery;

/**
 * The meters of one incoming channel: {@code rmq.messages.delivered}, {@code .acked}, {@code .nacked},
 * {@code rmq.delivery.lateness} (timed topics), {@code rmq.processing.duration} and {@code rmq.flow.throttled}. Without a metrics
 * library it is {@link #NONE}: {@link #meter} then returns {@code null} and allocates nothing.
 * Thread-safe.
 */
public final class IncomingMetrics {

    /** Measures nothing. */
    public static final IncomingMetrics NONE = new IncomingMetrics(false, null, null, null, null, null, null);

    private final boolean timed;
    final MetricsBinding.CountRecorder delivered;
    final MetricsBinding.CountRecorder acked;
    final MetricsBinding.CountRecorder nacked;
    final MetricsBinding.DurationRecorder lateness;
    final MetricsBinding.DurationRecorder processing;
    private final MetricsBinding.DurationRecorder throttled;

    IncomingMetrics(boolean timed, MetricsBinding.CountRecorder delivered, MetricsBinding.CountRecorder acked,
            MetricsBinding.CountRecorder nacked, MetricsBinding.DurationRecorder lateness, MetricsBinding.DurationRecorder processing,
            MetricsBinding.DurationRecorder throttled) {
        this.throttled = throttled;
        this.timed = timed;
        this.delivered = delivered;
        this.acked = acked;
        this.nacked = nacked;
        this.lateness = lateness;
        this.processing = processing;
    }

    /**
     * A meter for one delivery, told by the message of its ack ({@link DeliveryMeter#acked()}) or nack
     * ({@link DeliveryMeter#nacked()}); {@code null} when nothing is measured.
     */
    public DeliveryMeter meter(Delivery delivery) {
        return delivered == null ? null : new DeliveryMeter(this, delivery);
    }

    /** The channel's consumer waited {@code nanos} for permits of its topic's rate limit ({@code rmq.flow.throttled}). */
    public void throttled(long nanos) {
        if (throttled != null) {
            throttled.recordNanos(nanos);
        }
    }

    boolean timed() {
        return timed;
    }
}
