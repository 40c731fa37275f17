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

    /**
     * RMQ-0951: an operator changed something: who, what, on which topic, with which outcome. Every value is
     * shown on one line and bounded ({@link Shown}): a value cannot forge another line of the audit trail.
     */
    public void changed(String user, String action, String topic, String outcome) {
        LOGGER.info(() -> "RMQ-0951 RMQ admin: user '" + Shown.text(user) + "' " + action + " on topic '"
                + Shown.text(topic) + "': " + outcome);
    }

    /** RMQ-0952: an operation failed unexpectedly (answered with 500). */
    public void failed(String operation, Throwable cause) {
        LOGGER.log(Level.SEVERE, cause, () -> "RMQ-0952 RMQ admin: " + operation + " failed unexpectedly");
    }

    /** RMQ-0953: the endpoints closed their Redis connection (application stopped, or the configured URI changed). */
    public void disconnected(String uri) {
        LOGGER.info(() -> "RMQ-0953 RMQ admin endpoints: closed the connection to Redis at " + uri);
    }
    /** RMQ-0954: Redis answered a command with an error; the answer says so without the error's text. */
    public void redisRefused(String operation, String uri, String reply) {
        LOGGER.warning(() -> "RMQ-0954 RMQ admin: Redis at " + uri + " answered " + operation + " with an error: "
                + Shown.text(reply));
    }

    /** RMQ-0957 (FINE, one line): the runtime could not read a request; answered 400 (RMQ-0928). */
    public void unreadableRequest(String cause) {
        LOGGER.fine(() -> "RMQ-0957 RMQ admin: a request could not be read: " + Shown.text(cause));
    }

    /** RMQ-0955: an operator started a change that takes a while (a requeue, a purge); RMQ-0951 or RMQ-0956 ends it. */
    public void started(String user, String action, String topic, String what) {
        LOGGER.info(() -> "RMQ-0955 RMQ admin: user '" + Shown.text(user) + "' started " + action + " on topic '"
                + Shown.text(topic) + "': " + what);
    }

    /** RMQ-0956: a change failed or was stopped; how far it got. */
    public void changeFailed(String user, String action, String topic, String outcome, String reason) {
        LOGGER.warning(() -> "RMQ-0956 RMQ admin: user '" + Shown.text(user) + "' stopped " + action + " on topic '"
                + Shown.text(topic) + "': " + outcome + "; " + Shown.text(reason));
    }

    // ---- recurring schedules (RmqSchedulesResource): RMQ-094x

    /** RMQ-0941: an operator paused, resumed or removed a schedule; one line, values bounded ({@link Shown}). */
    public void scheduleChanged(String user, String action, String schedule, String topic) {
        LOGGER.info(() -> "RMQ-0941 RMQ admin: user '" + Shown.text(user) + "' " + action + " schedule '"
                + Shown.text(schedule) + "' of topic '" + Shown.text(topic) + "'");
    }

    /** RMQ-0942: a change to a schedule failed; it may or may not have taken effect. */
    public void scheduleChangeFailed(String user, String action, String schedule, String reason) {
        LOGGER.warning(() -> "RMQ-0942 RMQ admin: user '" + Shown.text(user) + "' could not " + action + " schedule '"
                + Shown.text(schedule) + "' (outcome unknown): " + Shown.text(reason));
    }
}
