package io.rmq.connector.metrics.micrometer;

import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;

import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.CDI;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.rmq.connector.metrics.MeterTags;
import io.rmq.connector.metrics.MetricsBinding;
import io.rmq.connector.metrics.RmqMeter;

/**
 * The connector's meters in the application's Micrometer {@link MeterRegistry}: the CDI bean of that
 * type (Quarkus has one; elsewhere the application produces it). Micrometer's global registry is not
 * used: a runtime may feed it from MicroProfile Metrics already, and the meters would then be there twice.
 *
 * <p>Loaded only when Micrometer is present. Thread-safe.
 */
public final class MicrometerBinding implements MetricsBinding {

    private final MeterRegistry registry;

    MicrometerBinding(MeterRegistry registry) {
        this.registry = registry;
    }

    /** The binding to the {@link MeterRegistry} bean of the running CDI container, or {@code null} when it has none. */
    public static MetricsBinding create() {
        Instance<MeterRegistry> bean = CDI.current().select(MeterRegistry.class);
        return bean.isResolvable() ? new MicrometerBinding(bean.get()) : null;
    }

    @Override
    public String name() {
        return "Micrometer";
    }

    @Override
    public MetricsBinding.CountRecorder counter(RmqMeter meter, MeterTags tags) {
        Counter counter = Counter.builder(meter.meterName()).description(meter.description()).tags(tags(tags))
                .register(registry);
        return counter::increment;
    }

    @Override
    public MetricsBinding.DurationRecorder timer(RmqMeter meter, MeterTags tags) {
        Timer timer = Timer.builder(meter.meterName()).description(meter.description()).tags(tags(tags))
                .register(registry);
        return nanos -> timer.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public Runnable gauge(RmqMeter meter, MeterTags tags, DoubleSupplier value) {
        Gauge gauge = Gauge.builder(meter.meterName(), value, DoubleSupplier::getAsDouble)
                .description(meter.description()).tags(tags(tags))
                .baseUnit(meter.unit() == RmqMeter.Unit.SECONDS ? "seconds" : null)
                .strongReference(true)
                .register(registry);
        return () -> registry.remove(gauge);
    }

    private static Tags tags(MeterTags tags) {
        return tags.hasChannel()
                ? Tags.of(RmqMeter.TOPIC_TAG, tags.topic(), RmqMeter.CHANNEL_TAG, tags.channel())
                : Tags.of(RmqMeter.TOPIC_TAG, tags.topic());
    }
}
