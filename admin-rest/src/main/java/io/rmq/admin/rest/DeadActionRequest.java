package io.rmq.admin.rest;

import static io.rmq.admin.rest.i18n.AdminRestMessages.msg;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.rmq.admin.rest.i18n.Shown;
import io.rmq.engine.admin.DeadSelection;

/**
 * The body of {@code dead/requeue} and {@code dead/purge}: exactly one selection, whether it is a
 * dry run, and for a requeue the rate. Immutable.
 *
 * <table>
 *   <caption>Members</caption>
 *   <tr><td>{@code "all": true}</td><td>every dead message of the topic</td></tr>
 *   <tr><td>{@code "members": ["text", ...]}</td><td>these contents (UTF-8), in whichever slot</td></tr>
 *   <tr><td>{@code "membersBase64": ["...", ...]}</td><td>these contents, in Base64 (binary contents)</td></tr>
 *   <tr><td>{@code "olderThan": "15m"}</td><td>died longer ago than this age ({@code 500ms}, {@code 90s},
 *       {@code 15m}, {@code 2h}, {@code 7d}, ISO-8601 {@code PT1H30M})</td></tr>
 *   <tr><td>{@code "diedBefore": "2025-01-31T12:00:00Z"}</td><td>died before this time</td></tr>
 *   <tr><td>{@code "contains": "text"}</td><td>content contains the text (its UTF-8 bytes, case-sensitive)</td></tr>
 *   <tr><td>{@code "dryRun": true}</td><td>only count; default {@code false}</td></tr>
 *   <tr><td>{@code "rate": 100}</td><td>requeue only: at most so many messages per second, from 1 to
 *       {@value #MAX_RATE}; default {@value #DEFAULT_RATE}</td></tr>
 * </table>
 *
 * @param selection   the selection
 * @param description the selection in words: {@code all}, {@code 2 members}, {@code died before <time>},
 *                    {@code content contains '<text>'} (the text on one line and bounded, {@link Shown})
 * @param dryRun      whether only to count
 * @param rate        the most messages requeued per second; 0 for a purge
 */
record DeadActionRequest(DeadSelection selection, String description, boolean dryRun, int rate) {

    /** Messages per second a requeue moves when the request gives no rate. */
    static final int DEFAULT_RATE = 100;
    /** The highest rate a request may give. */
    static final int MAX_RATE = 1_000_000;

    static final List<String> SELECTIONS = List.of("all", "members", "membersBase64", "olderThan", "diedBefore", "contains");

    /** After the latest time a request may give: year 10000. */
    private static final Instant LATEST = Instant.parse("+10000-01-01T00:00:00Z");

    private static final Pattern SHORT_AGE = Pattern.compile("(\\d{1,12})(ms|s|m|h|d)");

    /** Reads a requeue's body; {@code now} counts an age back. */
    static DeadActionRequest requeue(String body, Instant now) {
        return read(body, now, true);
    }

    /** Reads a purge's body; {@code now} counts an age back. */
    static DeadActionRequest purge(String body, Instant now) {
        return read(body, now, false);
    }

    private static DeadActionRequest read(String body, Instant now, boolean requeue) {
        List<String> known = new ArrayList<>(SELECTIONS);
        known.add("dryRun");
        if (requeue) {
            known.add("rate");
        }
        JsonBody json = JsonBody.parse(body, known);
        List<String> given = json.present(SELECTIONS);
        if (given.size() != 1) {
            throw msg.oneSelection(SELECTIONS, given);
        }
        DeadSelection selection = selection(json, given.get(0), now);
        return new DeadActionRequest(selection, selection.describe(Shown::text), json.bool("dryRun", false),
                requeue ? json.integer("rate", DEFAULT_RATE, 1, MAX_RATE) : 0);
    }

    private static DeadSelection selection(JsonBody json, String kind, Instant now) {
        switch (kind) {
            case "all":
                if (!json.bool("all", false)) {
                    throw msg.wrongType("all", "true (every dead message); give another selection instead");
                }
                return DeadSelection.all();
            case "members":
                return DeadSelection.members(json.strings(kind).orElseThrow().stream()
                        .map(m -> m.getBytes(StandardCharsets.UTF_8)).toList());
            case "membersBase64":
                return DeadSelection.members(json.strings(kind).orElseThrow().stream()
                        .map(m -> JsonBody.base64(kind, m)).toList());
            case "olderThan":
                return DeadSelection.diedBefore(before(now, age(kind, json.string(kind).orElseThrow())));
            case "diedBefore":
                return DeadSelection.diedBefore(time(kind, json.string(kind).orElseThrow()));
            default:
                return DeadSelection.contentContains(json.nonEmptyString(kind).orElseThrow());
        }
    }

    /** An age: {@code 500ms}, {@code 90s}, {@code 15m}, {@code 2h}, {@code 7d} or ISO-8601 ({@code PT1H30M}, {@code P7D}). */
    static Duration age(String member, String text) {
        String trimmed = text.strip();
        try {
            Matcher m = SHORT_AGE.matcher(trimmed.toLowerCase(Locale.ROOT));
            if (m.matches()) {
                long n = Long.parseLong(m.group(1));
                return switch (m.group(2)) {
                    case "ms" -> Duration.ofMillis(n);
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    default -> Duration.ofDays(n);
                };
            }
            Duration iso = Duration.parse(trimmed);
            if (!iso.isNegative()) {
                return iso;
            }
        } catch (DateTimeParseException | ArithmeticException e) {
            // reported below
        }
        throw msg.badAge(member, text);
    }

    /** {@code now} less {@code age}, in whole milliseconds; no earlier than the epoch (nothing died before it). */
    static Instant before(Instant now, Duration age) {
        if (age.compareTo(Duration.between(Instant.EPOCH, now)) >= 0) {
            return Instant.EPOCH;
        }
        return now.minus(age).truncatedTo(ChronoUnit.MILLIS);
    }

    /**
     * A time: ISO-8601 with an offset, in whole milliseconds as Redis stamps deaths, from the epoch to the end of
     * year 9999 (a time in milliseconds beyond it does not fit a script's number).
     */
    static Instant time(String member, String text) {
        try {
            Instant time = OffsetDateTime.parse(text.strip()).toInstant().truncatedTo(ChronoUnit.MILLIS);
            if (!time.isBefore(Instant.EPOCH) && time.isBefore(LATEST)) {
                return time;
            }
        } catch (DateTimeParseException e) {
            // reported below
        }
        throw msg.badTime(member, text);
    }

}
