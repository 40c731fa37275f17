package io.rmq.dashboard.i18n;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The dashboard's log lines, each with a stable id ({@code RMQ-097x}), on the logger {@code io.rmq.dashboard}.
 * Use the shared instance {@link #log}; thread-safe.
 */
public final class DashboardLogging {

    /** The shared instance. */
    public static final DashboardLogging log = new DashboardLogging();

    private static final Logger LOGGER = Logger.getLogger("io.rmq.dashboard");

    private DashboardLogging() {
    }

    /** RMQ-0970: the dashboard is off (the default). */
    public void off(String property) {
        LOGGER.fine(() -> "RMQ-0970 RMQ dashboard: off (" + property + "=true turns it on)");
    }

    /** RMQ-0971: the dashboard is served. */
    public void serving(String path, String role, long sampleSeconds, long historyMinutes) {
        LOGGER.info(() -> "RMQ-0971 RMQ dashboard: serving " + path + "/ for the role " + role
                + "; rates sampled every " + sampleSeconds + " s, kept for " + historyMinutes + " min");
    }

    /** RMQ-0972: the admin endpoints the page acts through are off. */
    public void adminOff(String property) {
        LOGGER.warning(() -> "RMQ-0972 RMQ dashboard: the admin endpoints are off, so the page can show rates but no "
                + "topic, dead message or action: set " + property + "=true");
    }

    /** RMQ-0973: a sample of the rates failed (logged once until one succeeds again). */
    public void samplingFailed(String uri, String reason) {
        LOGGER.warning(() -> "RMQ-0973 RMQ dashboard: cannot read the topics' counters from Redis at " + uri + ": "
                + reason + "; trying again at every sample");
    }

    /** RMQ-0974: sampling works again after a failure. */
    public void samplingRecovered(String uri) {
        LOGGER.info(() -> "RMQ-0974 RMQ dashboard: reading the topics' counters from Redis at " + uri + " again");
    }

    /** RMQ-0975: the sampler stopped with the application. */
    public void stopped() {
        LOGGER.fine("RMQ-0975 RMQ dashboard: stopped sampling");
    }

    /** RMQ-0976: reading the lateness from MicroProfile Metrics failed unexpectedly. */
    public void latenessFailed(Throwable cause) {
        LOGGER.log(Level.WARNING, cause, () -> "RMQ-0976 RMQ dashboard: reading the lateness timers failed");
    }
}
