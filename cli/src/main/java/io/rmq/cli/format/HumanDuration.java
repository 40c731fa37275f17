package io.rmq.cli.format;

import java.util.Locale;

import io.rmq.cli.i18n.CliMessages;

/** Short, readable durations for tables: {@code 850ms}, {@code 12.3s}, {@code 4m 05s}, {@code 2h 10m}, {@code 3d 04h}. Stateless. */
public final class HumanDuration {

    private static final long SECOND = 1_000;
    private static final long MINUTE = 60 * SECOND;
    private static final long HOUR = 60 * MINUTE;
    private static final long DAY = 24 * HOUR;

    private HumanDuration() {
    }

    /** {@code millis} (not negative) in its two largest units. */
    public static String format(long millis) {
        if (millis < 0) {
            throw CliMessages.ex.negativeDuration(millis);
        }
        if (millis < SECOND) {
            return millis + "ms";
        }
        if (millis < MINUTE) {
            return String.format(Locale.ROOT, "%.1fs", Math.floor(millis / 100.0) / 10);
        }
        if (millis < HOUR) {
            return String.format(Locale.ROOT, "%dm %02ds", millis / MINUTE, millis % MINUTE / SECOND);
        }
        if (millis < DAY) {
            return String.format(Locale.ROOT, "%dh %02dm", millis / HOUR, millis % HOUR / MINUTE);
        }
        return String.format(Locale.ROOT, "%dd %02dh", millis / DAY, millis % DAY / HOUR);
    }
}
