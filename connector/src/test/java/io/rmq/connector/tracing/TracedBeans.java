package io.rmq.connector.tracing;

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

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.rmq.connector.IncomingRmqMetadata;

/** Application beans of the tracing tests: a sender, a consumer that fails some first deliveries, an OpenTelemetry. */
final class TracedBeans {

    private TracedBeans() {
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

    /** Consumes "in": nacks the first delivery of a payload starting with {@code flaky-}, acks everything else. */
    @ApplicationScoped
    public static class Consumer {
        final List<String> acked = new CopyOnWriteArrayList<>();

        public List<String> acked() {
            return acked;
        }

        @Incoming("in")
        public CompletionStage<Void> consume(Message<String> m) {
            int attempt = m.getMetadata(IncomingRmqMetadata.class).orElseThrow().getAttempt();
            if (m.getPayload().startsWith("flaky-") && attempt == 1) {
                return m.nack(new IllegalStateException("cannot process " + m.getPayload() + " yet"));
            }
            return m.ack().thenRun(() -> acked.add(m.getPayload()));
        }
    }

    /** The application's OpenTelemetry, exporting every span to memory as it ends. */
    @Singleton
    public static class Telemetry {
        private final InMemorySpanExporter exporter = InMemorySpanExporter.create();

        public InMemorySpanExporter exporter() {
            return exporter;
        }

        @Produces
        @Singleton
        OpenTelemetry openTelemetry() {
            return OpenTelemetrySdk.builder()
                    .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter))
                            .build())
                    .build();
        }
    }
}
