package io.rmq.engine.consume.flow;

import io.rmq.engine.i18n.EngineArguments;

/**
 * A consumer's settings of the adaptive slow-down (see {@code docs/flow-control.md}, section Adaptive slow-down):
 * when more than {@code failureThreshold} of the deliveries settled in a window failed (nacked, or rolled back at
 * their deadline), the topic's rate backs off by half, down to {@code floor} messages per second ({@code 0}: a
 * hundredth of the rate before the first back-off, at least 1/s); it recovers by a tenth of that rate per window
 * while at most half the threshold fail. Immutable.
 */
public record AdaptiveSlowDown(double failureThreshold, double floor) {

    /** The failure ratio above which the rate backs off, by default. */
    public static final double DEFAULT_FAILURE_THRESHOLD = 0.5;

    public AdaptiveSlowDown {
        if (!(failureThreshold > 0 && failureThreshold < 1)) {
            throw EngineArguments.arg.badAdaptiveThreshold(failureThreshold);
        }
        if (!(floor >= 0) || Double.isInfinite(floor)) {
            throw EngineArguments.arg.badRateLimit(Double.toString(floor));
        }
    }

    /** The defaults: threshold 0.5, floor a hundredth of the rate before the first back-off. */
    public static AdaptiveSlowDown defaults() {
        return new AdaptiveSlowDown(DEFAULT_FAILURE_THRESHOLD, 0);
    }
}
