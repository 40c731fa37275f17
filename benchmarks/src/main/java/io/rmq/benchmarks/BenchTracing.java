package io.rmq.benchmarks;

import java.util.Collection;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import org.eclipse.microprofile.config.ConfigProvider;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;

/**
 * The benchmark container's {@link OpenTelemetry}, which the connector takes for its channels' tracing: with
 * {@code bench.tracing=true} an SDK that samples every span and drops it when exported (so the cost measured is
 * the connector's: spans made, trace contexts stored with the messages and read back in Redis), otherwise the
 * no-op one, with which the channels do not trace.
 */
@ApplicationScoped
public class BenchTracing {

    /** The configuration property that turns tracing on. */
    static final String PROPERTY = "bench.tracing";

    private SdkTracerProvider provider;

    @Produces
    @ApplicationScoped
    OpenTelemetry openTelemetry() {
        if (!ConfigProvider.getConfig().getOptionalValue(PROPERTY, Boolean.class).orElse(false)) {
            return OpenTelemetry.noop();
        }
        provider = SdkTracerProvider.builder().addSpanProcessor(BatchSpanProcessor.builder(new Dropped()).build()).build();
        return OpenTelemetrySdk.builder().setTracerProvider(provider).build();
    }

    @PreDestroy
    void close() {
        if (provider != null) {
            provider.close();
        }
    }

    /** Exports nowhere. */
    private static final class Dropped implements SpanExporter {
        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }
}
