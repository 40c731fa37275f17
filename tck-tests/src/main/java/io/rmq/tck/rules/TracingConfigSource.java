package io.rmq.tck.rules;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.eclipse.microprofile.config.spi.ConfigSource;

import io.rmq.testing.otlp.OtlpReceiver;

/**
 * Turns on the runtime's OpenTelemetry SDK for {@link TracingRules} and points its OTLP exporter at an
 * {@link OtlpReceiver} running in the application's JVM, started on a free loopback port on first use (so no port is
 * reserved ahead and none is shared). Gives both spellings of the settings: {@code otel.*}, read by Open Liberty's
 * {@code mpTelemetry-2.1} from the application's configuration (its SDK then is the application's own), and
 * {@code quarkus.otel.*}, read by Quarkus's OpenTelemetry extension. Spans are exported every 100 ms.
 *
 * <p>Registered only where the tracing rules run: the contract suite's tracing deployment lists it in its
 * {@code META-INF/services/org.eclipse.microprofile.config.spi.ConfigSource}, the Quarkus example in its test
 * resources. Ordinal 50, below the standard sources. Thread-safe.
 */
public final class TracingConfigSource implements ConfigSource {

    private static OtlpReceiver receiver;

    /** The receiver of this JVM (of this class loader), started on first use. */
    public static synchronized OtlpReceiver receiver() {
        if (receiver == null) {
            receiver = OtlpReceiver.start();
        }
        return receiver;
    }

    /** Stops the receiver, when one was started; a later {@link #receiver()} starts another. */
    public static synchronized void closeReceiver() {
        if (receiver != null) {
            receiver.close();
            receiver = null;
        }
    }

    @Override
    public Map<String, String> getProperties() {
        String endpoint = receiver().endpoint();
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("otel.sdk.disabled", "false");
        properties.put("otel.service.name", "rmq-contract");
        properties.put("otel.traces.exporter", "otlp");
        properties.put("otel.metrics.exporter", "none");
        properties.put("otel.logs.exporter", "none");
        properties.put("otel.exporter.otlp.protocol", "http/protobuf");
        properties.put("otel.exporter.otlp.endpoint", endpoint);
        properties.put("otel.bsp.schedule.delay", "100");
        properties.put("quarkus.otel.exporter.otlp.traces.protocol", "http/protobuf");
        properties.put("quarkus.otel.exporter.otlp.traces.endpoint", endpoint);
        properties.put("quarkus.otel.bsp.schedule.delay", "100ms");
        return properties;
    }

    @Override
    public Set<String> getPropertyNames() {
        return getProperties().keySet();
    }

    @Override
    public String getValue(String propertyName) {
        return propertyName.startsWith("otel.") || propertyName.startsWith("quarkus.otel.")
                ? getProperties().get(propertyName) : null;
    }

    @Override
    public String getName() {
        return "rmq-contract-tracing";
    }

    @Override
    public int getOrdinal() {
        return 50;
    }
}
