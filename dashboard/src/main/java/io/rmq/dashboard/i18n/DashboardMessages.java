package io.rmq.dashboard.i18n;

import io.rmq.admin.rest.i18n.Shown;

/**
 * The dashboard's error texts, each with a stable id ({@code RMQ-098x}). Use the shared instance
 * {@link #msg}; stateless, thread-safe.
 */
public final class DashboardMessages {

    /** The shared instance. */
    public static final DashboardMessages msg = new DashboardMessages();

    private DashboardMessages() {
    }

    /** RMQ-0980: a setting has a value that cannot be used. */
    public IllegalArgumentException badSetting(String property, String value, String expected) {
        return new IllegalArgumentException("RMQ-0980 " + property + "='" + value + "' cannot be used: " + expected);
    }

    /** RMQ-0981: the lateness panel has nothing to show, and why. */
    public String noLateness(String reason) {
        return "RMQ-0981 No lateness to show: " + reason;
    }

    /** RMQ-0982: no file or endpoint at this path of the dashboard. */
    public String notFound(String path) {
        return "RMQ-0982 The dashboard has nothing at '" + Shown.text(path) + "'";
    }

    /** RMQ-0984: the dashboard answers GET and HEAD only (TRACE would echo credentials and cookies). */
    public String notAllowed(String method) {
        return "RMQ-0984 The dashboard answers GET and HEAD only, not " + Shown.text(method);
    }
}
