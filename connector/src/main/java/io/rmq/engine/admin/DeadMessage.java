package io.rmq.engine.admin;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * A message in a dead queue. Immutable (do not modify {@link #content()}).
 *
 * @param slot        its slot
 * @param content     the member: the message content
 * @param diedAt      when it moved to the dead queue (Redis clock)
 * @param deliveries  how many times it was delivered (1 + max-retries at the time), 0 when unknown
 *                    (written to the dead queue by another tool)
 * @param lastFailure the last failure, {@code <exception class>: <message>} as the consumer reported it,
 *                    truncated to {@value io.rmq.engine.Delivery#MAX_FAILURE_LENGTH} characters; empty when unknown
 */
public record DeadMessage(int slot, byte[] content, Instant diedAt, int deliveries, String lastFailure) {

    /** The content as UTF-8 text (invalid sequences replaced). */
    public String contentText() {
        return new String(content, StandardCharsets.UTF_8);
    }
}
