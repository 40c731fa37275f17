package io.rmq.connector.metrics;


import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import io.rmq.engine.consume.flow.FlowSettings;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.topic.TopicDefinition;

/**
 * The per-topic meters of one connector: the counters {@code rmq.messages.redelivered}, {@code .dead},
 * {@code .requeued}, {@code .cancelled}, {@code .rescheduled} and {@code .expired}, and once a channel of the topic tells which Redis it is in, the five queue gauges,
 * all fed by one {@link TopicState}. Shared by every channel of the topic. Thread-safe.
 */
final class TopicMetrics {

    private static final RmqMeter[] GAUGES = {RmqMeter.PENDING, RmqMeter.DUE, RmqMeter.OLDEST_DUE_AGE,
            RmqMeter.INFLIGHT, RmqMeter.DEAD_QUEUE};

    final MetricsBinding.CountRecorder redelivered;
    final MetricsBinding.CountRecorder dead;
    final MetricsBinding.CountRecorder requeued;
    final MetricsBinding.CountRecorder cancelled;
    final MetricsBinding.CountRecorder rescheduled;
    final MetricsBinding.CountRecorder expired;
    private final TopicDefinition topic;
    private final List<Runnable> gaugeRemovals = new ArrayList<>(); // guarded by this
    private boolean gauged;                                         // guarded by this
    private boolean flowGauged;                                     // guarded by this

    TopicMetrics(TopicDefinition topic, Meters meters) {
        this.topic = topic;
        MeterTags tags = MeterTags.of(topic);
        this.redelivered = meters.counter(RmqMeter.REDELIVERED, tags);
        this.dead = meters.counter(RmqMeter.DEAD, tags);
        this.requeued = meters.counter(RmqMeter.REQUEUED, tags);
        this.cancelled = meters.counter(RmqMeter.CANCELLED, tags);
        this.rescheduled = meters.counter(RmqMeter.RESCHEDULED, tags);
        this.expired = meters.counter(RmqMeter.EXPIRED, tags);
    }

    /** Registers the queue gauges, read from the Redis of {@code redis}, unless they are registered already. */
    synchronized void gauges(RedisAccess redis, Meters meters, TopicStateReader reader, long refreshNanos,
            long waitNanos) {
        if (gauged) {
            return;
        }
        gauged = true;
        TopicState state = new TopicState(topic, redis, reader::read, refreshNanos, waitNanos);
        MeterTags tags = MeterTags.of(topic);
        for (RmqMeter gauge : GAUGES) {
            gaugeRemovals.addAll(meters.gauge(gauge, tags, () -> state.value(gauge)));
        }
    }

    /**
     * Registers {@code rmq.flow.rate} and {@code rmq.flow.limit}, read from {@code settings} (the engine's live copy of
     * the topic's flow hash), unless they are registered already. 0 stands for no limit.
     */
    synchronized void flowGauges(Meters meters, Supplier<FlowSettings> settings) {
        if (flowGauged) {
            return;
        }
        flowGauged = true;
        MeterTags tags = MeterTags.of(topic);
        gaugeRemovals.addAll(meters.gauge(RmqMeter.FLOW_RATE, tags, () -> settings.get().effectiveRate().orElse(0.0)));
        gaugeRemovals.addAll(meters.gauge(RmqMeter.FLOW_LIMIT, tags, () -> settings.get().rate().orElse(0.0)));
    }

    /** Removes the gauges from the registries; the counters stay (a registry keeps counting across deployments). */
    synchronized void removeGauges() {
        for (Runnable removal : gaugeRemovals) {
            try {
                removal.run();
            } catch (RuntimeException e) {
                // the registry is shutting down already: nothing reads the gauge any more
            }
        }
        gaugeRemovals.clear();
    }
}
