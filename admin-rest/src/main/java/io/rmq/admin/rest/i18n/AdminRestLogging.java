package io.rmq.admin.rest.i18n;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The admin endpoints' log lines, each with a stable id ({@code RMQ-095x}), on the logger
 * {@code io.rmq.admin.rest}. Every change an operator makes is logged with the user's name, so the
 * server log is the audit trail. Use the shared instance {@link #log}; thread-safe.
 */
public final class AdminRestLogging {

    /** The shared instance. */
    public static final AdminRestLogging log = new AdminRestLogging();

    private static final Logger LOGGER = Logger.getLogger("io.rmq.admin.rest");

    private AdminRestLogging() {
    }

    /** RMQ-0950: the endpoints opened their Redis connection. */
    public void connected(String uri) {
        LOGGER.info(() -> "RMQ-0950 RMQ admin endpoints: connected to Redis at " + uri);
    }

    /** RMQ-0951: an operator changed something: who, what, on which topic, with which outcome. */
    public void changed(String user, String action, String topic, String outcome) {
        LOGGER.info(() -> "RMQ-0951 RMQ admin: user '" + user + "' " + action + " on topic '" + topic + "': " + outcome);
    }

    /** RMQ-0952: an operation failed unexpectedly (answered with 500). */
    public void failed(String operation, Throwable cause) {
        LOGGER.log(Level.SEVERE, cause, () -> "RMQ-0952 RMQ admin: " + operation + " failed unexpectedly");
    }

    /** RMQ-0953: the endpoints closed their Redis connection (application stopped, or the configured URI changed). */
    public void disconnected(String uri) {
        LOGGER.info(() -> "RMQ-0953 RMQ admin endpoints: closed the connection to Redis at " + uri);
    }
}
