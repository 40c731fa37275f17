package io.rmq.connector.metrics;

import java.util.function.DoubleSupplier;

/**
 * The connector's meters in one metrics library (MicroProfile Metrics, OpenTelemetry, Micrometer).
 * An implementation refers to its library's API and is loaded only when that API is present (see
 * {@link RmqMetrics}); nothing else in the connector refers to a metrics API.
 *
 * <p>Internal: implemented in the subpackages of {@code io.rmq.connector.metrics} only. Meters may be
 * asked for more than once with the same name and tags (a second deployment in the same registry):
 * an implementation returns the registry's existing meter then. Thread-safe.
 */
public interface MetricsBinding {

    /** The library's name, for the log. */
    String name();

    /** A counter with these tags, registered if it is not yet. */
    CountRecorder counter(RmqMeter meter, MeterTags tags);

    /** A distribution of durations with these tags, registered if it is not yet. */
    DurationRecorder timer(RmqMeter meter, MeterTags tags);

    /**
     * Registers a gauge that reads {@code value} when the registry asks for it (on a scrape, an export).
     *
     * @return removes the gauge; the registry no longer calls {@code value} afterwards
     */
    Runnable gauge(RmqMeter meter, MeterTags tags, DoubleSupplier value);

    /** A monotonic counter. */
    interface CountRecorder {
        void increment(long amount);
    }

    /** A distribution of durations. */
    interface DurationRecorder {
        void recordNanos(long nanos);
    }
}
