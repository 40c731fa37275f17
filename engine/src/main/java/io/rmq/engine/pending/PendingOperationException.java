package io.rmq.engine.pending;

/**
 * A cancel, find, reschedule or reprioritize that failed on the way to Redis: its message says whether Redis may
 * have carried it out (RMQ-0501, a reply that was lost) or not (RMQ-0500); the cause is the client's error.
 */
public final class PendingOperationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String topic;
    private final boolean maybeDone;

    PendingOperationException(String message, String topic, boolean maybeDone, Throwable cause) {
        super(message, cause);
        this.topic = topic;
        this.maybeDone = maybeDone;
    }

    /** The topic of the message. */
    public String topic() {
        return topic;
    }

    /** Whether Redis may have carried the operation out (its reply was lost). */
    public boolean maybeDone() {
        return maybeDone;
    }
}
