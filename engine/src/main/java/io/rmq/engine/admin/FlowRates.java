package io.rmq.engine.admin;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.rmq.engine.i18n.EngineExceptions;

/**
 * The way operators write rates and aging paces, read and shown: a rate {@code <amount>/<unit>} ({@code 500/s},
 * {@code 30/m}, {@code 2.5/h}) and a pace {@code <points>/<duration>} ({@code 1/10s}: one priority point per ten
 * seconds; units {@code ms}, {@code s}, {@code m}, {@code h}). Stateless.
 */
public final class FlowRates {

    private static final Pattern RATE = Pattern.compile("\\s*(\\d{1,15}(?:\\.\\d{1,15})?)\\s*/\\s*(s|m|h)\\s*");
    private static final Pattern PACE = Pattern.compile(
            "\\s*(\\d{1,15}(?:\\.\\d{1,15})?)\\s*/\\s*(\\d{1,9}(?:\\.\\d{1,9})?)?\\s*(ms|s|m|h)\\s*");
    private static final String RATE_FORMAT = "<amount>/s, <amount>/m or <amount>/h with an amount above 0, e.g. 500/s";
    private static final String PACE_FORMAT = "<points>/<duration> with points and duration above 0 and a unit ms, s, m"
            + " or h, e.g. 1/10s";

    private FlowRates() {
    }

    /**
     * Messages per second of {@code rate}, written {@code <amount>/<unit>}.
     *
     * @param field the setting it is for, named in the error
     * @throws IllegalArgumentException naming the setting and the value (RMQ-0675)
     */
    public static double perSecond(String field, String rate) {
        Matcher m = RATE.matcher(rate == null ? "" : rate.toLowerCase(Locale.ROOT));
        double amount = m.matches() ? Double.parseDouble(m.group(1)) : 0;
        if (!(amount > 0)) {
            throw EngineExceptions.ex.badFlowValue(field, String.valueOf(rate), RATE_FORMAT);
        }
        return amount / millisOf(m.group(2)) * 1000;
    }

    /**
     * Priority points per millisecond of {@code pace}, written {@code <points>/<duration>}.
     *
     * @throws IllegalArgumentException naming the setting and the value (RMQ-0675)
     */
    public static double pointsPerMilli(String field, String pace) {
        Matcher m = PACE.matcher(pace == null ? "" : pace.toLowerCase(Locale.ROOT));
        if (m.matches()) {
            double points = Double.parseDouble(m.group(1));
            double amount = m.group(2) == null ? 1 : Double.parseDouble(m.group(2));
            double perMilli = points / (amount * millisOf(m.group(3)));
            if (perMilli > 0 && Double.isFinite(perMilli)) {
                return perMilli;
            }
        }
        throw EngineExceptions.ex.badFlowValue(field, String.valueOf(pace), PACE_FORMAT);
    }

    /** {@code perSecond} as an operator writes it: {@code 500/s}, or {@code 30/m} below one a second. */
    public static String rate(double perSecond) {
        if (perSecond >= 1) {
            return plain(perSecond) + "/s";
        }
        return perSecond * 60 >= 1 ? plain(perSecond * 60) + "/m" : plain(perSecond * 3600) + "/h";
    }

    /** {@code pointsPerMilli} as an operator writes it: one point per so many seconds, {@code 1/10s}. */
    public static String pace(double pointsPerMilli) {
        double seconds = 1 / pointsPerMilli / 1000;
        if (seconds >= 1) {
            return "1/" + plain(seconds) + "s";
        }
        return plain(pointsPerMilli * 1000) + "/s";
    }

    private static long millisOf(String unit) {
        return switch (unit) {
            case "ms" -> 1;
            case "s" -> 1000;
            case "m" -> 60_000;
            default -> 3_600_000;
        };
    }

    private static String plain(double d) {
        return new BigDecimal(d, new MathContext(6)).stripTrailingZeros().toPlainString();
    }
}
