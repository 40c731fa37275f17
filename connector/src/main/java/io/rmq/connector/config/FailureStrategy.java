package io.rmq.connector.config;

import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What an incoming channel does with a message that failed: nacked by the application, or content that cannot
 * become a payload (attribute {@code failure-strategy}, named like the failure strategies of SmallRye's other
 * connectors).
 */
public enum FailureStrategy {
    /** Rolled back: retried after the backoff, or moved to the dead queue after its last allowed delivery. The default. */
    RETRY,
    /** Moved to the dead queue at once, with the failure recorded, whatever retries it has left. */
    DEAD_LETTER,
    /** Committed, as if acked: the message is gone; the failure is logged (RMQ-2360). */
    IGNORE,
    /**
     * Rolled back (retried like {@link #RETRY}), then the channel fails: it pops nothing more, its prefetched
     * messages go back to the store queue, the stream ends with the failure, and health reports it DOWN.
     */
    FAIL;

    /** The attribute value naming this strategy: {@code retry}, {@code dead-letter}, {@code ignore} or {@code fail}. */
    public String attributeValue() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The strategy an attribute value names, ignoring case and surrounding blanks. */
    public static Optional<FailureStrategy> fromAttributeValue(String value) {
        String wanted = value.trim();
        return Stream.of(values()).filter(s -> s.attributeValue().equalsIgnoreCase(wanted)).findFirst();
    }

    /** The values accepted, quoted, for error messages: {@code 'retry', 'dead-letter', ...}. */
    static String accepted() {
        return Stream.of(values()).map(s -> "'" + s.attributeValue() + "'").collect(Collectors.joining(", "));
    }
}
