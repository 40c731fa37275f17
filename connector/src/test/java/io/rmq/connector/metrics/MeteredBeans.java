package io.rmq.connector.metrics;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.rmq.connector.IncomingRmqMetadata;

/** Application beans of the metrics tests: a sender, a consumer with known failures, and metrics registries. */
final class MeteredBeans {

    private MeteredBeans() {
    }

    /** Sends through the outgoing channel "out"; each future completes when the connector acks the message. */
    @ApplicationScoped
    public static class Sender {
        @Inject
        @Channel("out")
        Emitter<String> emitter;

        public CompletableFuture<Void> send(String payload) {
            CompletableFuture<Void> acked = new CompletableFuture<>();
            emitter.send(Message.of(payload, () -> {
                acked.complete(null);
                return CompletableFuture.completedFuture(null);
            }, reason -> {
                acked.completeExceptionally(reason);
                return CompletableFuture.completedFuture(null);
            }));
            return acked;
        }
    }

    /**
     * Consumes "in": nacks every delivery of a payload starting with {@code poison-} and the first delivery
     * of one starting with {@code flaky-}; acks everything else.
     */
    @ApplicationScoped
    public static class Consumer {
        final List<String> received = new CopyOnWriteArrayList<>();

        public List<String> received() {
            return received;
        }

        @Incoming("in")
        public CompletionStage<Void> consume(Message<String> m) {
            received.add(m.getPayload());
            int attempt = m.getMetadata(IncomingRmqMetadata.class).orElseThrow().getAttempt();
            if (m.getPayload().startsWith("poison-") || (m.getPayload().startsWith("flaky-") && attempt == 1)) {
                return m.nack(new IllegalStateException("cannot process " + m.getPayload()));
            }
            return m.ack();
        }
    }

    /** The application's Micrometer registry. */
    public static class MicrometerRegistry {
        @Produces
        @Singleton
        MeterRegistry registry() {
            return new SimpleMeterRegistry();
        }
    }

    /** The application's OpenTelemetry, with an in-memory reader the test collects from. */
    @Singleton
    public static class Telemetry {
        private final InMemoryMetricReader reader = InMemoryMetricReader.create();

        public InMemoryMetricReader reader() {
            return reader;
        }

        @Produces
        @Singleton
        OpenTelemetry openTelemetry() {
            return OpenTelemetrySdk.builder()
                    .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(reader).build())
                    .build();
        }
    }
}
