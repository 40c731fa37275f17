package io.rmq.connector.metrics;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import org.eclipse.microprofile.config.ConfigProvider;

import io.rmq.connector.i18n.RmqLogging;

/**
 * The metrics libraries the connector can publish through, and how it finds them: a library is used
 * when its API is on the class path of the connector <em>and</em> the running CDI container has the
 * object to publish to (the registry, the {@code OpenTelemetry} bean). Its binding class, the only
 * class that refers to its API, is loaded only then, so an absent API is never touched.
 *
 * <p>The connector-level setting {@value #SETTING} narrows the choice: {@code auto} (the default:
 * every library found), {@code none}, or a comma-separated list of {@code microprofile},
 * {@code opentelemetry}, {@code micrometer}. Stateless.
 */
enum MetricsLibrary {

    MICROPROFILE("microprofile", "org.eclipse.microprofile.metrics.MetricRegistry",
            "io.rmq.connector.metrics.microprofile.MicroProfileMetricsBinding"),
    OPENTELEMETRY("opentelemetry", "io.opentelemetry.api.OpenTelemetry",
            "io.rmq.connector.metrics.opentelemetry.OpenTelemetryBinding"),
    MICROMETER("micrometer", "io.micrometer.core.instrument.MeterRegistry",
            "io.rmq.connector.metrics.micrometer.MicrometerBinding");

    /** The MicroProfile Config property that chooses the libraries. */
    static final String SETTING = "mp.messaging.connector.smallrye-redis-rmq.metrics";

    private static final RmqLogging LOG = RmqLogging.log;

    private final String settingValue;
    private final String apiClass;
    private final String bindingClass;

    MetricsLibrary(String settingValue, String apiClass, String bindingClass) {
        this.settingValue = settingValue;
        this.apiClass = apiClass;
        this.bindingClass = bindingClass;
    }

    /**
     * The bindings of every library allowed by {@value #SETTING} whose API is present and that has
     * something to publish to in the running container; logs which (RMQ-1050), or why one failed (RMQ-1051).
     */
    static List<MetricsBinding> discover() {
        List<MetricsBinding> bindings = new ArrayList<>();
        for (MetricsLibrary library : allowed(setting())) {
            library.bind().ifPresent(bindings::add);
        }
        if (!bindings.isEmpty()) {
            LOG.metricsBound(bindings.stream().map(MetricsBinding::name).collect(Collectors.joining(", ")));
        }
        return bindings;
    }

    /** The libraries a value of {@value #SETTING} allows (RMQ-1053 for a name that is none). */
    static Set<MetricsLibrary> allowed(String setting) {
        String value = setting == null ? "auto" : setting.trim().toLowerCase(Locale.ROOT);
        if (value.isEmpty() || value.equals("auto")) {
            return EnumSet.allOf(MetricsLibrary.class);
        }
        Set<MetricsLibrary> allowed = EnumSet.noneOf(MetricsLibrary.class);
        for (String name : value.split(",")) {
            String n = name.trim();
            if (n.equals("none") || n.isEmpty()) {
                continue;
            }
            Optional<MetricsLibrary> library = Arrays.stream(values()).filter(l -> l.settingValue.equals(n)).findFirst();
            if (library.isPresent()) {
                allowed.add(library.get());
            } else {
                LOG.unknownMetricsLibrary(SETTING, n,
                        Arrays.stream(values()).map(l -> l.settingValue).collect(Collectors.joining(", ")));
            }
        }
        return allowed;
    }

    private static String setting() {
        try {
            return ConfigProvider.getConfig().getOptionalValue(SETTING, String.class).orElse(null);
        } catch (RuntimeException | LinkageError noConfig) {
            return null; // no MicroProfile Config here: the default
        }
    }

    /** This library's binding, when its API is present and the container has something to publish to. */
    private Optional<MetricsBinding> bind() {
        ClassLoader loader = MetricsLibrary.class.getClassLoader();
        try {
            Class.forName(apiClass, false, loader);
        } catch (ClassNotFoundException | LinkageError absent) {
            return Optional.empty();
        }
        try {
            Object binding = Class.forName(bindingClass, true, loader).getMethod("create").invoke(null);
            return Optional.ofNullable((MetricsBinding) binding);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IllegalStateException) {
                return Optional.empty(); // no CDI container running (CDI.current()): nothing to publish to
            }
            LOG.metricsBindingFailed(settingValue, cause);
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            LOG.metricsBindingFailed(settingValue, e);
        }
        return Optional.empty();
    }
}
