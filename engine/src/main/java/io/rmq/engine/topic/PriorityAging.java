package io.rmq.engine.topic;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.rmq.engine.i18n.EngineArguments;

/**
 * Priority aging of a {@code PRIORITY} topic: the longer a message waits, the higher it ranks, by {@code pace}
 * priority points per ms. A message of priority {@code p} first sent at {@code e} (Redis ms) is stored with the
 * score {@code s = p - pace * (e - epoch)}, which orders the store queue as the rank {@code p + pace * (t - e)}
 * does at any time {@code t}; {@code epoch} is the topic's aging epoch (fixed once per topic), and a member with no
 * recorded send time counts as sent at the epoch. Off ({@link #OFF}): pace 0, scores are priorities. Immutable.
 *
 * @param pacePerMilli priority points per ms of waiting, 0 when off
 * @param epochMillis  the topic's aging epoch, ms since 1970 on the Redis clock; 0 while not fixed yet
 */
public record PriorityAging(double pacePerMilli, long epochMillis) {

    /** No aging. */
    public static final PriorityAging OFF = new PriorityAging(0, 0);
    /** The flow hash's field of the pace, in priority points per ms (a decimal). */
    public static final String PACE_FIELD = "aging.pace";
    /** The flow hash's field of the epoch, in ms. */
    public static final String EPOCH_FIELD = "aging.epoch";

    private static final Pattern PACE = Pattern.compile(
            "\\s*(\\d+(?:\\.\\d+)?)\\s*/\\s*(\\d+(?:\\.\\d+)?)?\\s*(ms|s|m|h)\\s*");

    public PriorityAging {
        if (!(pacePerMilli >= 0) || Double.isInfinite(pacePerMilli)) {
            throw EngineArguments.arg.badAgingPace(Double.toString(pacePerMilli));
        }
        if (epochMillis < 0) {
            throw EngineArguments.arg.badAgingEpoch(epochMillis);
        }
    }

    /**
     * A pace written as {@code <points>/[<count>]<unit>}, the unit {@code ms}, {@code s}, {@code m} or {@code h}:
     * {@code 1/10s} is one point per 10 seconds, {@code 5/m} five points per minute; the epoch not fixed yet.
     */
    public static PriorityAging parse(String pace) {
        Matcher m = PACE.matcher(pace == null ? "" : pace.toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw EngineArguments.arg.badAgingPace(pace);
        }
        double points = Double.parseDouble(m.group(1));
        double count = m.group(2) == null ? 1 : Double.parseDouble(m.group(2));
        long unit = switch (m.group(3)) {
            case "ms" -> 1;
            case "s" -> 1_000;
            case "m" -> 60_000;
            default -> 3_600_000;
        };
        if (!(points > 0) || !(count > 0)) {
            throw EngineArguments.arg.badAgingPace(pace);
        }
        return new PriorityAging(points / (count * unit), 0);
    }

    /**
     * The settings in a topic's flow hash: {@value #PACE_FIELD} and {@value #EPOCH_FIELD}; off when the pace is
     * absent, empty or 0; an absent epoch is 0, not fixed yet (applying the settings fixes it).
     *
     * @throws IllegalArgumentException when a field is not a number (or the pace is negative)
     */
    public static PriorityAging fromFlowFields(Map<String, String> fields) {
        String pace = fields.get(PACE_FIELD);
        String epoch = fields.get(EPOCH_FIELD);
        if (pace == null || pace.isBlank()) {
            return OFF;
        }
        double perMilli;
        try {
            perMilli = Double.parseDouble(pace.trim());
        } catch (NumberFormatException e) {
            throw EngineArguments.arg.badAgingPace(pace);
        }
        if (perMilli == 0) {
            return OFF;
        }
        try {
            return new PriorityAging(perMilli, epoch == null || epoch.isBlank() ? 0 : Long.parseLong(epoch.trim()));
        } catch (NumberFormatException e) {
            throw EngineArguments.arg.badAgingEpoch(epoch);
        }
    }

    /** Whether messages age (a pace above 0). */
    public boolean on() {
        return pacePerMilli > 0;
    }

    /** These settings with the topic's epoch fixed. */
    public PriorityAging withEpoch(long epoch) {
        return new PriorityAging(pacePerMilli, epoch);
    }

    /** The aged score of a message of {@code priority} first sent at {@code sentAtMillis}. */
    public double score(double priority, long sentAtMillis) {
        return priority - pacePerMilli * (sentAtMillis - epochMillis);
    }

    /**
     * The priority of a member stored with {@code score}, first sent at {@code sentAtMillis} ({@code null}: no
     * send time recorded, counted as sent at the epoch).
     */
    public double priority(double score, Long sentAtMillis) {
        return sentAtMillis == null ? score : score + pacePerMilli * (sentAtMillis - epochMillis);
    }

    /** The pace as the scripts take it: a decimal number of points per ms. */
    public String paceText() {
        return Double.toString(pacePerMilli);
    }
}
