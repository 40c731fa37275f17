package io.rmq.engine.scripts;

/**
 * The outcome of a send.
 *
 * @param stored {@code true} when stored as a new message, {@code false} when merged into a
 *               pending duplicate
 * @param slot   the slot the message was routed to
 * @param score  the member's score after the send (due time in ms, or priority)
 */
public record SendResult(boolean stored, int slot, double score) {

    /** Whether the message was merged into a pending duplicate. */
    public boolean merged() {
        return !stored;
    }
}
