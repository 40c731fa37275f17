package io.rmq.connector.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleSupplier;

import io.rmq.connector.i18n.RmqLogging;

/**
 * Registers each meter in every bound library and records into all of them. A library that fails to
 * register a meter is logged (RMQ-1051) and left out for that meter; the others go on. Immutable.
 */
final class Meters {

    private static final RmqLogging LOG = RmqLogging.log;

    private final List<MetricsBinding> bindings;

    Meters(List<MetricsBinding> bindings) {
        this.bindings = List.copyOf(bindings);
    }

    boolean isEmpty() {
        return bindings.isEmpty();
    }

    MetricsBinding.CountRecorder counter(RmqMeter meter, MeterTags tags) {
        List<MetricsBinding.CountRecorder> counters = new ArrayList<>();
        for (MetricsBinding b : bindings) {
            try {
                counters.add(b.counter(meter, tags));
            } catch (RuntimeException | LinkageError e) {
                LOG.metricsBindingFailed(b.name() + " (" + meter.meterName() + ")", e);
            }
        }
        if (counters.size() == 1) {
            return counters.get(0);
        }
        MetricsBinding.CountRecorder[] all = counters.toArray(MetricsBinding.CountRecorder[]::new);
        return amount -> {
            for (MetricsBinding.CountRecorder c : all) {
                c.increment(amount);
            }
        };
    }

    MetricsBinding.DurationRecorder timer(RmqMeter meter, MeterTags tags) {
        List<MetricsBinding.DurationRecorder> timers = new ArrayList<>();
        for (MetricsBinding b : bindings) {
            try {
                timers.add(b.timer(meter, tags));
            } catch (RuntimeException | LinkageError e) {
                LOG.metricsBindingFailed(b.name() + " (" + meter.meterName() + ")", e);
            }
        }
        if (timers.size() == 1) {
            return timers.get(0);
        }
        MetricsBinding.DurationRecorder[] all = timers.toArray(MetricsBinding.DurationRecorder[]::new);
        return nanos -> {
            for (MetricsBinding.DurationRecorder t : all) {
                t.recordNanos(nanos);
            }
        };
    }

    /** Registers the gauge in every library; returns how to remove each registration. */
    List<Runnable> gauge(RmqMeter meter, MeterTags tags, DoubleSupplier value) {
        List<Runnable> removals = new ArrayList<>();
        for (MetricsBinding b : bindings) {
            try {
                removals.add(b.gauge(meter, tags, value));
            } catch (RuntimeException | LinkageError e) {
                LOG.metricsBindingFailed(b.name() + " (" + meter.meterName() + ")", e);
            }
        }
        return removals;
    }
}
