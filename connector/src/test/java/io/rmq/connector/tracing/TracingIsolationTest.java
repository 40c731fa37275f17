package io.rmq.connector.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

/**
 * Where the application has no OpenTelemetry API, tracing is off and no class that refers to the API is ever loaded;
 * where it has the API but no tracer, tracing is off too.
 */
class TracingIsolationTest {

    /** Loads the connector's classes itself (recording which), and hides the OpenTelemetry API. */
    private static final class WithoutOpenTelemetry extends URLClassLoader {
        final List<String> loaded = new CopyOnWriteArrayList<>();

        WithoutOpenTelemetry(URL connectorClasses) {
            super(new URL[] {connectorClasses}, TracingIsolationTest.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("io.opentelemetry.")) {
                throw new ClassNotFoundException(name + " (hidden: the application has no OpenTelemetry)");
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
    void withoutTheApiTracingIsOffAndNoClassReferringToItIsLoaded() throws Exception {
        URL classes = Path.of("target", "classes").toUri().toURL();
        try (WithoutOpenTelemetry loader = new WithoutOpenTelemetry(classes)) {
            Class<?> tracing = loader.loadClass(RmqTracing.class.getName());
            Object discovered = tracing.getMethod("discover").invoke(null);
            assertThat(tracing.getMethod("active").invoke(discovered)).isEqualTo(false);
            assertThat(loader.loaded).as("classes of the connector loaded").contains(RmqTracing.class.getName())
                    .noneMatch(name -> name.startsWith("io.rmq.connector.tracing.opentelemetry."));
        }
    }

    @Test
    void withTheApiButNoTracerTracingIsOff() {
        assertThat(RmqTracing.discover().active()).as("no CDI container, GlobalOpenTelemetry is the no-op one").isFalse();
        assertThat(RmqTracing.OFF.send("c", null)).isNull();
        assertThat(RmqTracing.OFF.process("c", null, 1)).isNull();
    }
}
