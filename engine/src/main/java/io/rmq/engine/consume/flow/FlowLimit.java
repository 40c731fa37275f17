package io.rmq.engine.consume.flow;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.rmq.engine.i18n.EngineArguments;

/**
 * A topic's rate limit: at most {@code perSecond} messages delivered per second across every consumer of the
 * topic, and up to {@code burst} at once after a quiet time ({@code 0}: the limiter's default, a tenth of a
 * second's worth, at least 1). Immutable.
 */
public record FlowLimit(double perSecond, int burst) {

    private static final Pattern RATE = Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*/\\s*(s|m|h)\\s*");

    public FlowLimit {
        if (!(perSecond > 0) || Double.isInfinite(perSecond)) {
            throw EngineArguments.arg.badRateLimit(Double.toString(perSecond));
        }
        if (burst < 0) {
            throw EngineArguments.arg.badRateLimitBurst(burst);
        }
    }

    /**
     * A limit written as {@code <amount>/<unit>}, the unit {@code s} (second), {@code m} (minute) or {@code h}
     * (hour): {@code 500/s}, {@code 30/m}, {@code 2.5/s}.
     */
    public static FlowLimit parse(String rate, int burst) {
        Matcher m = RATE.matcher(rate == null ? "" : rate.toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw EngineArguments.arg.badRateLimit(rate);
        }
        double amount = Double.parseDouble(m.group(1));
        double perSecond = switch (m.group(2)) {
            case "s" -> amount;
            case "m" -> amount / 60;
            default -> amount / 3600;
        };
        return new FlowLimit(perSecond, burst);
    }
}
