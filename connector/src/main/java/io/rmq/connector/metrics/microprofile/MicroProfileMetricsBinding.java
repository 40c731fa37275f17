package io.rmq.connector.metrics.microprofile;

import java.time.Duration;
import java.util.function.DoubleSupplier;

import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.enterprise.util.AnnotationLiteral;

import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.MetricUnits;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;
import org.eclipse.microprofile.metrics.annotation.RegistryType;

import io.rmq.connector.metrics.MeterTags;
import io.rmq.connector.metrics.MetricsBinding;
import io.rmq.connector.metrics.RmqMeter;

/**
 * The connector's meters in the application's MicroProfile Metrics 5 registry (the one
 * {@code @Inject MetricRegistry} gives), as Open Liberty's {@code mpMetrics-5.x} or SmallRye Metrics
 * provide it. Prometheus output ({@code /metrics}) shows {@code rmq_messages_sent_total},
 * {@code rmq_processing_duration_seconds_count}, {@code rmq_queue_pending} and so on.
 *
 * <p>Loaded only when the MicroProfile Metrics API is present. Thread-safe.
 */
public final class MicroProfileMetricsBinding implements MetricsBinding {

    private final MetricRegistry registry;

    MicroProfileMetricsBinding(MetricRegistry registry) {
        this.registry = registry;
    }

    /**
     * The binding to the application registry of the running CDI container, or {@code null} when the
     * container has none. Looked up with the qualifier {@code @RegistryType(type = APPLICATION)}: the
     * unqualified producer needs an injection point, which a programmatic lookup does not have.
     */
    public static MetricsBinding create() {
        Instance<MetricRegistry> application = CDI.current().select(MetricRegistry.class, new ApplicationRegistry());
        if (application.isResolvable()) {
            return new MicroProfileMetricsBinding(application.get());
        }
        Instance<MetricRegistry> unqualified = CDI.current().select(MetricRegistry.class);
        return unqualified.isResolvable() ? new MicroProfileMetricsBinding(unqualified.get()) : null;
    }

    @Override
    public String name() {
        return "MicroProfile Metrics";
    }

    @Override
    public MetricsBinding.CountRecorder counter(RmqMeter meter, MeterTags tags) {
        Counter counter = registry.counter(metadata(meter), tags(tags));
        return counter::inc;
    }

    @Override
    public MetricsBinding.DurationRecorder timer(RmqMeter meter, MeterTags tags) {
        Timer timer = registry.timer(metadata(meter), tags(tags));
        return nanos -> timer.update(Duration.ofNanos(nanos));
    }

    @Override
    public Runnable gauge(RmqMeter meter, MeterTags tags, DoubleSupplier value) {
        Tag[] t = tags(tags);
        registry.gauge(metadata(meter), value, DoubleSupplier::getAsDouble, t);
        MetricID id = new MetricID(meter.meterName(), t);
        return () -> registry.remove(id);
    }

    private static Metadata metadata(RmqMeter meter) {
        return Metadata.builder().withName(meter.meterName()).withDescription(meter.description())
                .withUnit(meter.unit() == RmqMeter.Unit.SECONDS ? MetricUnits.SECONDS : MetricUnits.NONE)
                .build();
    }

    private static Tag[] tags(MeterTags tags) {
        return tags.hasChannel()
                ? new Tag[] {new Tag(RmqMeter.TOPIC_TAG, tags.topic()), new Tag(RmqMeter.CHANNEL_TAG, tags.channel())}
                : new Tag[] {new Tag(RmqMeter.TOPIC_TAG, tags.topic())};
    }

    /** {@code @RegistryType(type = APPLICATION)}. */
    @SuppressWarnings("all") // an annotation literal: implements the annotation interface on purpose
    private static final class ApplicationRegistry extends AnnotationLiteral<RegistryType> implements RegistryType {
        @Override
        public MetricRegistry.Type type() {
            return MetricRegistry.Type.APPLICATION;
        }
    }
}
