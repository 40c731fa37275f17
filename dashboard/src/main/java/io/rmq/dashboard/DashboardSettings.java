package io.rmq.dashboard;

import static io.rmq.dashboard.i18n.DashboardMessages.msg;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;

import org.eclipse.microprofile.config.Config;

/**
 * The dashboard's configuration, read from MicroProfile Config once, when the web application starts.
 * The Redis it reads and the key prefix of its topics are the admin endpoints' ({@code rmq.admin.redis-uri},
 * {@code rmq.admin.key-prefix}, else the connector's). Immutable.
 *
 * <table>
 *   <caption>Properties</caption>
 *   <tr><th>property</th><th>default</th></tr>
 *   <tr><td>{@value #ENABLED}</td><td>{@code false}: nothing is served, nothing sampled</td></tr>
 *   <tr><td>{@value #PATH}</td><td>{@value #DEFAULT_PATH}, under the web application's context root</td></tr>
 *   <tr><td>{@value #ADMIN_PATH}</td><td>{@value #DEFAULT_ADMIN_PATH}: where the admin endpoints answer</td></tr>
 *   <tr><td>{@value #SAMPLE_SECONDS}</td><td>{@value #DEFAULT_SAMPLE_SECONDS}: how often the counters are read</td></tr>
 *   <tr><td>{@value #HISTORY_MINUTES}</td><td>{@value #DEFAULT_HISTORY_MINUTES}: how long the rates are kept</td></tr>
 * </table>
 *
 * @param enabled   whether the dashboard is served
 * @param path      where, under the context root: starts with {@code /}, does not end with one
 * @param adminPath where the admin endpoints answer, under the context root
 * @param sample    how often the sampler reads the topics' counters
 * @param history   how long the sampler keeps its readings
 */
public record DashboardSettings(boolean enabled, String path, String adminPath, Duration sample, Duration history) {

    /** Turns the dashboard on: {@value}. */
    public static final String ENABLED = "rmq.dashboard.enabled";
    /** Where the dashboard is served: {@value}. */
    public static final String PATH = "rmq.dashboard.path";
    /** Where the admin endpoints answer (change it with their {@code web.xml} mapping): {@value}. */
    public static final String ADMIN_PATH = "rmq.dashboard.admin-path";
    /** Seconds between two readings of the counters: {@value}. */
    public static final String SAMPLE_SECONDS = "rmq.dashboard.sample-seconds";
    /** Minutes of readings kept for the rate charts: {@value}. */
    public static final String HISTORY_MINUTES = "rmq.dashboard.history-minutes";

    public static final String DEFAULT_PATH = "/rmq/dashboard";
    public static final String DEFAULT_ADMIN_PATH = "/rmq/admin";
    public static final int DEFAULT_SAMPLE_SECONDS = 5;
    public static final int DEFAULT_HISTORY_MINUTES = 15;

    private static final Pattern WEB_PATH = Pattern.compile("(/[A-Za-z0-9._~-]+)+");

    /**
     * The settings as {@code config} has them.
     *
     * @throws IllegalArgumentException naming the property, its value and what it takes (RMQ-0980)
     */
    public static DashboardSettings from(Config config) {
        boolean enabled = value(config, ENABLED).map(v -> bool(ENABLED, v)).orElse(false);
        return new DashboardSettings(enabled,
                path(PATH, value(config, PATH).orElse(DEFAULT_PATH)),
                path(ADMIN_PATH, value(config, ADMIN_PATH).orElse(DEFAULT_ADMIN_PATH)),
                Duration.ofSeconds(number(SAMPLE_SECONDS, value(config, SAMPLE_SECONDS), DEFAULT_SAMPLE_SECONDS, 1, 3600)),
                Duration.ofMinutes(number(HISTORY_MINUTES, value(config, HISTORY_MINUTES), DEFAULT_HISTORY_MINUTES, 1, 1440)));
    }

    private static Optional<String> value(Config config, String property) {
        return config.getOptionalValue(property, String.class).map(String::trim);
    }

    private static boolean bool(String property, String value) {
        if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(value);
        }
        throw msg.badSetting(property, value, "true or false");
    }

    private static String path(String property, String value) {
        if (!WEB_PATH.matcher(value).matches()) {
            throw msg.badSetting(property, value, "a path such as " + DEFAULT_PATH
                    + " (starts with '/', no trailing '/', letters, digits, '.', '_', '~' and '-' between the slashes)");
        }
        return value;
    }

    private static long number(String property, Optional<String> value, int defaultValue, int min, int max) {
        if (value.isEmpty()) {
            return defaultValue;
        }
        try {
            long n = Long.parseLong(value.get());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below with what is allowed
        }
        throw msg.badSetting(property, value.get(), "a whole number from " + min + " to " + max);
    }

    /** The context path to put before an absolute path: empty for the root context, which some containers give as "/". */
    static String root(String contextPath) {
        return contextPath == null || contextPath.equals("/") ? "" : contextPath;
    }
}
