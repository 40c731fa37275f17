package io.rmq.dashboard;

import static io.rmq.dashboard.i18n.DashboardLogging.log;
import static io.rmq.dashboard.i18n.DashboardMessages.msg;

import java.util.Map;
import java.util.SortedMap;

import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.enterprise.util.AnnotationLiteral;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Snapshot;
import org.eclipse.microprofile.metrics.Timer;
import org.eclipse.microprofile.metrics.annotation.RegistryType;

/**
 * The lateness of timed topics' deliveries (due time to hand-over), as the connector records it in the
 * application's MicroProfile Metrics registry: the timers {@value #LATENESS} per topic and channel, their
 * count, mean, maximum and percentiles. It exists only where this application consumes with the
 * connector and has MicroProfile Metrics (Open Liberty's {@code mpMetrics}); elsewhere (a dashboard that
 * only connects to a Redis) the answer says why there is nothing. Read at each request; stateless.
 */
final class LatenessView {

    /** The connector's timer: {@value}. */
    static final String LATENESS = "rmq.delivery.lateness";

    private LatenessView() {
    }

    /** {@code {"available": true, "timers": [...]}}, or {@code {"available": false, "reason": "..."}}. */
    static JsonObject read() {
        try {
            Instance<MetricRegistry> registry = CDI.current().select(MetricRegistry.class, new ApplicationRegistry());
            if (!registry.isResolvable()) {
                return unavailable("the application has no MicroProfile Metrics registry");
            }
            SortedMap<MetricID, Timer> timers = registry.get().getTimers((id, metric) -> LATENESS.equals(id.getName()));
            if (timers.isEmpty()) {
                return unavailable("no channel of this application consumes a timed topic with the connector (the "
                        + LATENESS + " timers are recorded where messages are consumed)");
            }
            JsonArrayBuilder out = Json.createArrayBuilder();
            // channels of PRIORITY topics have the timer too, but never record in it
            timers.forEach((id, timer) -> {
                if (timer.getCount() > 0) {
                    out.add(timer(id, timer));
                }
            });
            return Json.createObjectBuilder().add("available", true).add("timers", out).build();
        } catch (LinkageError | IllegalStateException e) {
            return unavailable("the application has no MicroProfile Metrics (or no CDI container)");
        } catch (RuntimeException e) {
            log.latenessFailed(e);
            return unavailable(String.valueOf(e.getMessage()));
        }
    }

    private static JsonObjectBuilder timer(MetricID id, Timer timer) {
        Snapshot snapshot = timer.getSnapshot();
        JsonObjectBuilder percentiles = Json.createObjectBuilder();
        for (Snapshot.PercentileValue p : snapshot.percentileValues()) {
            percentiles.add("p" + format(p.getPercentile() * 100), millis(p.getValue())); // p50, p99.9, ...
        }
        Map<String, String> tags = id.getTags();
        return Json.createObjectBuilder()
                .add("topic", tags.getOrDefault("topic", ""))
                .add("channel", tags.getOrDefault("channel", ""))
                .add("count", timer.getCount())
                .add("meanMillis", millis(snapshot.getMean()))
                .add("maxMillis", millis(snapshot.getMax()))
                .add("percentilesMillis", percentiles);
    }

    /** MicroProfile Metrics 5 timers' snapshots are in nanoseconds. */
    private static double millis(double nanos) {
        return Math.round(nanos / 1_000.0) / 1_000.0;
    }

    private static String format(double percent) {
        return percent == Math.rint(percent) ? Long.toString((long) percent) : Double.toString(Math.round(percent * 100) / 100.0);
    }

    private static JsonObject unavailable(String reason) {
        return Json.createObjectBuilder().add("available", false).add("reason", msg.noLateness(reason)).build();
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
