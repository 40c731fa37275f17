package io.rmq.connector.metrics.opentelemetry;

import java.util.List;
import java.util.function.DoubleSupplier;

import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.CDI;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.DoubleHistogramBuilder;
import io.opentelemetry.api.metrics.DoubleGaugeBuilder;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.metrics.ObservableDoubleGauge;
import io.rmq.connector.metrics.MeterTags;
import io.rmq.connector.metrics.MetricsBinding;
import io.rmq.connector.metrics.RmqMeter;

/**
 * The connector's meters as OpenTelemetry instruments of the meter {@value #SCOPE}, from the
 * {@link OpenTelemetry} CDI bean (MicroProfile Telemetry: Open Liberty's {@code mpTelemetry-2.x},
 * Quarkus, SmallRye OpenTelemetry). Durations are histograms in seconds. {@code GlobalOpenTelemetry}
 * is not used: reading it before the application sets it would freeze it to a no-op.
 *
 * <p>Loaded only when the OpenTelemetry API is present. Thread-safe.
 */
public final class OpenTelemetryBinding implements MetricsBinding {

    /** The instrumentation scope of the connector's instruments. */
    public static final String SCOPE = "io.rmq.connector";

    private static final AttributeKey<String> TOPIC = AttributeKey.stringKey(RmqMeter.TOPIC_TAG);
    private static final AttributeKey<String> CHANNEL = AttributeKey.stringKey(RmqMeter.CHANNEL_TAG);
    /** Bucket boundaries (seconds) for durations from milliseconds (a quick handler) to minutes (a late message). */
    private static final List<Double> BUCKETS = List.of(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
            2.5, 5.0, 10.0, 30.0, 60.0, 300.0);

    private final Meter meter;

    OpenTelemetryBinding(OpenTelemetry openTelemetry) {
        this.meter = openTelemetry.getMeter(SCOPE);
    }

    /** The binding to the {@link OpenTelemetry} bean of the running CDI container, or {@code null} when it has none. */
    public static MetricsBinding create() {
        Instance<OpenTelemetry> bean = CDI.current().select(OpenTelemetry.class);
        return bean.isResolvable() ? new OpenTelemetryBinding(bean.get()) : null;
    }

    @Override
    public String name() {
        return "OpenTelemetry";
    }

    @Override
    public MetricsBinding.CountRecorder counter(RmqMeter m, MeterTags tags) {
        LongCounter counter = meter.counterBuilder(m.meterName()).setDescription(m.description())
                .setUnit("{message}").build();
        Attributes attributes = attributes(tags);
        return amount -> counter.add(amount, attributes);
    }

    @Override
    public MetricsBinding.DurationRecorder timer(RmqMeter m, MeterTags tags) {
        DoubleHistogramBuilder builder = meter.histogramBuilder(m.meterName()).setDescription(m.description())
                .setUnit("s");
        try {
            builder = builder.setExplicitBucketBoundariesAdvice(BUCKETS);
        } catch (LinkageError olderApi) {
            // an API before 1.32 has no advice: the SDK's default buckets apply
        }
        DoubleHistogram histogram = builder.build();
        Attributes attributes = attributes(tags);
        return nanos -> histogram.record(nanos / 1e9, attributes);
    }

    @Override
    public Runnable gauge(RmqMeter m, MeterTags tags, DoubleSupplier value) {
        Attributes attributes = attributes(tags);
        DoubleGaugeBuilder builder = meter.gaugeBuilder(m.meterName()).setDescription(m.description());
        if (m.unit() == RmqMeter.Unit.SECONDS) {
            builder = builder.setUnit("s");
        } else {
            builder = builder.setUnit("{message}");
        }
        ObservableDoubleGauge gauge = builder.buildWithCallback(measurement -> {
            double v = value.getAsDouble();
            if (!Double.isNaN(v)) {
                measurement.record(v, attributes);
            }
        });
        return gauge::close;
    }

    private static Attributes attributes(MeterTags tags) {
        return tags.hasChannel() ? Attributes.of(TOPIC, tags.topic(), CHANNEL, tags.channel())
                : Attributes.of(TOPIC, tags.topic());
    }
}
