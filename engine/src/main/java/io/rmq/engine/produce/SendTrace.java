package io.rmq.engine.produce;

import java.util.Objects;

import io.rmq.engine.i18n.EngineArguments;

/**
 * The trace context a message is sent with: the W3C {@code traceparent} of its send span, recorded beside the
 * message in its slot's trace hash ({@code trace{<prefix><topic>_<slot>}}) so that its consumer's process span can
 * link it. A send merged into a pending duplicate adds its context to the duplicate's while the duplicate holds fewer
 * than {@code maxLinks}, and is counted in any case. Immutable.
 *
 * @param traceparent the W3C traceparent, {@code 00-<32 hex trace id>-<16 hex span id>-<2 hex flags>}
 * @param maxLinks    the most send contexts one pending message keeps (>= 0)
 */
public record SendTrace(String traceparent, int maxLinks) {

    /** @throws IllegalArgumentException for a traceparent with a space, or a negative bound */
    public SendTrace {
        Objects.requireNonNull(traceparent, "traceparent");
        if (traceparent.isEmpty() || traceparent.indexOf(' ') >= 0) {
            throw EngineArguments.arg.badTraceparent(traceparent);
        }
        if (maxLinks < 0) {
            throw EngineArguments.arg.negativeCount("maxLinks", maxLinks);
        }
    }
}
