package io.rmq.connector.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import io.rmq.engine.scripts.SendResult;

/**
 * Where the application has no metrics library, no class that refers to one is ever loaded, and the
 * channels' meters do nothing and allocate nothing.
 */
class MetricsIsolationTest {

    /** The packages of the metrics APIs, hidden from the connector's classes here. */
    private static final List<String> METRICS_APIS = List.of("org.eclipse.microprofile.metrics.", "io.opentelemetry.",
            "io.micrometer.");

    /** Loads the connector's classes itself (recording which), and hides the metrics APIs. */
    private static final class WithoutMetricsApis extends URLClassLoader {
        final List<String> loaded = new CopyOnWriteArrayList<>();

        WithoutMetricsApis(URL connectorClasses) {
            super(new URL[] {connectorClasses}, MetricsIsolationTest.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (METRICS_APIS.stream().anyMatch(name::startsWith)) {
                throw new ClassNotFoundException(name + " (hidden: the application has no such library)");
            }
            if (name.startsWith("io.rmq.connector.")) {
                synchronized (getClassLoadingLock(name)) {
                    Class<?> c = findLoadedClass(name);
                    if (c == null) {
                        c = findClass(name);
                        loaded.add(name);
                    }
                    return c;
                }
            }
            return super.loadClass(name, resolve);
        }
    }

    @Test
    void withoutAnyMetricsApiNoBindingClassIsLoadedAndNothingIsBound() throws Exception {
        URL classes = Path.of("target", "classes").toUri().toURL();
        try (WithoutMetricsApis loader = new WithoutMetricsApis(classes)) {
            Class<?> library = loader.loadClass(MetricsLibrary.class.getName());
            Method discover = library.getDeclaredMethod("discover");
            discover.setAccessible(true);
            assertThat((List<?>) discover.invoke(null)).isEmpty();
            assertThat(loader.loaded).as("classes of the connector loaded")
                    .contains(MetricsLibrary.class.getName())
                    .noneMatch(name -> name.startsWith("io.rmq.connector.metrics.microprofile.")
                            || name.startsWith("io.rmq.connector.metrics.opentelemetry.")
                            || name.startsWith("io.rmq.connector.metrics.micrometer."));
        }
    }

    @Test
    void theNoOpMetersOfAChannelDoNothing() {
        assertThat(IncomingMetrics.NONE.meter(null)).as("no meter, nothing allocated per message").isNull();
        OutgoingMetrics.NONE.sent(new SendResult(true, 0, 1.0)); // nothing to count into, nothing thrown
        assertThat(List.of(RmqMetrics.logicalChannel("prices$2"), RmqMetrics.logicalChannel("prices")))
                .as("the copies of a channel with concurrency count as the channel").containsOnly("prices");
    }
}
