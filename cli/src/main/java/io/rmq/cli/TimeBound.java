package io.rmq.cli;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.rmq.cli.i18n.CliMessages;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The value of {@code --older-than}: an age ({@code 90s}, {@code 15m}, {@code 2h}, {@code 7d},
 * {@code 500ms}, or ISO-8601 {@code PT1H30M}, {@code P7D}) or a time (ISO-8601 with an offset:
 * {@code 2025-01-31T12:00:00Z}, {@code 2025-01-31T13:00:00+01:00}). Immutable.
 *
 * @param text the value as given
 * @param age  the age, or {@code null} for a time
 * @param time the time, or {@code null} for an age
 */
record TimeBound(String text, Duration age, Instant time) {

    private static final Pattern SHORT = Pattern.compile("(\\d+)(ms|s|m|h|d)");

    /**
     * Reads a value.
     *
     * @throws IllegalArgumentException RMQ-0802 when it is neither an age nor a time
     */
    static TimeBound parse(String text) {
        String trimmed = text.trim();
        try {
            Matcher m = SHORT.matcher(trimmed.toLowerCase(Locale.ROOT));
            if (m.matches()) {
                long n = Long.parseLong(m.group(1));
                Duration age = switch (m.group(2)) {
                    case "ms" -> Duration.ofMillis(n);
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    default -> Duration.ofDays(n);
                };
                return new TimeBound(text, age, null);
            }
            if (trimmed.startsWith("P") || trimmed.startsWith("p")) {
                Duration age = Duration.parse(trimmed);
                if (!age.isNegative()) {
                    return new TimeBound(text, age, null);
                }
            } else {
                return new TimeBound(text, null, OffsetDateTime.parse(trimmed).toInstant());
            }
        } catch (DateTimeParseException | ArithmeticException e) {
            // reported below
        }
        throw new IllegalArgumentException(CliMessages.ex.badTimeBound(text));
    }

    /**
     * The time of death before which a message is selected: the time, or {@code now} less the age;
     * in whole milliseconds, as Redis stamps deaths.
     */
    Instant before(Instant now) {
        return (time != null ? time : now.minus(age)).truncatedTo(ChronoUnit.MILLIS);
    }

    /** Lets picocli read {@code --older-than}; a bad value is a usage error. */
    static final class Converter implements ITypeConverter<TimeBound> {
        @Override
        public TimeBound convert(String value) {
            try {
                return parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
