package io.rmq.examples.support;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/** Console output of the example programs: formatted lines on standard output, and wall-clock times. */
public final class Console {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS")
            .withZone(ZoneId.systemDefault());

    private Console() {
    }

    /** Prints one formatted line ({@link String#format}). Thread-safe. */
    public static void say(String format, Object... args) {
        System.out.println(String.format(format, args));
    }

    /** Prints a section title. */
    public static void title(String title) {
        System.out.println();
        System.out.println(title);
        System.out.println("-".repeat(title.length()));
    }

    /** A wall-clock time of day with milliseconds, e.g. {@code 14:03:27.250}. */
    public static String time(long epochMillis) {
        return TIME.format(Instant.ofEpochMilli(epochMillis));
    }
}
