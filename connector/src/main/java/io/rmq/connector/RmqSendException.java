package io.rmq.connector;

import io.rmq.engine.produce.SendFailedException;
import io.rmq.engine.produce.WriteState;

/**
 * The reason an outgoing message was nacked because Redis did not take it as asked: RMQ-2103 (nothing was
 * written), RMQ-2105 (written, the reply lost: it may have been stored) or RMQ-2040 (stored by the master, not
 * confirmed by the replicas in time). {@link #writeState()} says which, so that an application can decide to
 * send the message again without reading the text: {@link WriteState#NOT_WRITTEN} stores it once, the others may
 * store it twice (a pending duplicate merges).
 *
 * <p>Other nack reasons carry the same information: {@link WriteState#of(Throwable)} reads it from any of them
 * (the engine's own errors, RMQ-0xxx, are {@link SendFailedException}s; reasons without one, such as invalid
 * metadata or a message too large, mean nothing was written). Extends {@link IllegalStateException}, as the
 * reasons of these nacks always did.
 */
public final class RmqSendException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final WriteState writeState;

    RmqSendException(String message, SendFailedException cause) {
        super(message, cause);
        this.writeState = cause.writeState();
    }

    /** What the send may have left in Redis. */
    public WriteState writeState() {
        return writeState;
    }
}
