package io.rmq.connector.metrics;

import io.rmq.engine.scripts.SendResult;

/**
 * The counters of one outgoing channel: {@code rmq.messages.sent} (stored as new) and
 * {@code rmq.messages.merged}. Without a metrics library it is {@link #NONE}, whose calls do nothing.
 * Thread-safe.
 */
public final class OutgoingMetrics {

    /** Counts nothing. */
    public static final OutgoingMetrics NONE = new OutgoingMetrics(null, null);

    private final MetricsBinding.CountRecorder sent;
    private final MetricsBinding.CountRecorder merged;

    OutgoingMetrics(MetricsBinding.CountRecorder sent, MetricsBinding.CountRecorder merged) {
        this.sent = sent;
        this.merged = merged;
    }

    /** Counts a message Redis stored or merged. */
    public void sent(SendResult result) {
        if (sent != null) {
            (result.stored() ? sent : merged).increment(1);
        }
    }
}
