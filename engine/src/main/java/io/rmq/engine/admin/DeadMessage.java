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
 *                    truncated to {@value io.rmq.engine.settlement.Delivery#MAX_FAILURE_LENGTH} characters; empty when unknown
 */
public record DeadMessage(int slot, byte[] content, Instant diedAt, int deliveries, String lastFailure) {

    /** A message as {@code dead_page.lua} reports it: member, score and the failures hash's value ({@code <deliveries>\t<priority>\t<failure>}). */
    static DeadMessage fromScript(int slot, byte[] member, byte[] score, byte[] info) {
        String[] parts = info == null ? new String[0] : new String(info, StandardCharsets.UTF_8).split("\t", 3);
        int deliveries = 0;
        try {
            deliveries = parts.length == 3 ? Integer.parseInt(parts[0]) : 0;
        } catch (NumberFormatException e) {
            // written by another tool: unknown
        }
        double diedAt = Double.parseDouble(new String(score, StandardCharsets.US_ASCII));
        return new DeadMessage(slot, member, Instant.ofEpochMilli((long) diedAt), deliveries,
                parts.length == 3 ? parts[2] : "");
    }

    /** The content as UTF-8 text (invalid sequences replaced). */
    public String contentText() {
        return new String(content, StandardCharsets.UTF_8);
    }
}
