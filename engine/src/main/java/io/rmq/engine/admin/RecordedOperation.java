package io.rmq.engine.admin;

/**
 * An operation's record in Redis ({@link RmqAdmin#recordOperation}), kept up to date by the operation's progress
 * while it runs; {@link #close()} removes it when the operation ends.
 */
public interface RecordedOperation extends AutoCloseable {

    /** Removes the record; one that Redis cannot remove now is dropped once it expires (about 30 seconds). */
    @Override
    void close();
}
