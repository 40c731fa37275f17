package io.rmq.engine.produce;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.rmq.engine.redis.RedisUnavailableException;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.redis.WrongKeyTypeException;

/**
 * What a failed send may have left in Redis, and so what sending it again does. Every failure of a
 * {@link TopicProducer} send carries it ({@link SendFailedException#writeState()}); an outgoing channel's nack
 * reason too. {@link #of(Throwable)} reads it from any failure.
 *
 * <table>
 * <caption>the states and what a new send of the same message does</caption>
 * <tr><th>state</th><th>what happened</th><th>sending it again</th></tr>
 * <tr><td>{@link #NOT_WRITTEN}</td><td>nothing reached Redis (refused while disconnected, no master for the
 * slot, invalid, or not written within the durability timeout), or Redis answered with an error</td>
 * <td>stores it once</td></tr>
 * <tr><td>{@link #WRITTEN_UNCONFIRMED}</td><td>the master stored or merged it, but the replicas did not confirm
 * it in time (RMQ-0370), or the connection was lost before they could (RMQ-0372)</td><td>may store it twice;
 * a pending duplicate merges (the same member in the same slot)</td></tr>
 * <tr><td>{@link #MAYBE_WRITTEN}</td><td>the write was sent but its reply was lost or came too late: the
 * connection was reset or closed, the command timed out (RMQ-0373)</td><td>as {@link #WRITTEN_UNCONFIRMED}</td></tr>
 * </table>
 */
public enum WriteState {

    /** Nothing was stored: sending the message again stores it once. */
    NOT_WRITTEN,
    /** The master stored (or merged) the message; its replicas did not confirm it in time. */
    WRITTEN_UNCONFIRMED,
    /** The write was sent, but its reply was lost or came too late: the message may have been stored. */
    MAYBE_WRITTEN;

    /** Whether the message may be in Redis: sending it again may then store it twice. */
    public boolean mayHaveBeenWritten() {
        return this != NOT_WRITTEN;
    }

    /**
     * The state a send's failure carries: that of the first {@link SendFailedException} in its chain of causes
     * (an outgoing channel's nack reason has one whenever Redis was involved); {@link #NOT_WRITTEN} when it has
     * none, since a send then failed before anything was sent (invalid metadata, a payload the codec refused, a
     * closed channel).
     */
    public static WriteState of(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SendFailedException sent) {
                return sent.writeState();
            }
        }
        return NOT_WRITTEN;
    }

    /**
     * The state of a failure of a call that carried writes to Redis, told by its type: refused before it was
     * written ({@link RedisUnavailableException}, see {@link ScriptRunner}) or answered with an error reply
     * (the scripts check before they write), else the reply was lost: the write may have been carried out.
     * A key of the wrong type met by a script may come after its first write.
     */
    static WriteState ofCallFailure(Throwable failure) {
        Throwable t = failure;
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        if (t instanceof SendFailedException sent) {
            return sent.writeState();
        }
        if (t instanceof RedisUnavailableException) {
            return NOT_WRITTEN;
        }
        if (t instanceof WrongKeyTypeException || t instanceof RedisCommandTimeoutException
                || t instanceof CancellationException) {
            return MAYBE_WRITTEN;
        }
        if (t instanceof RedisCommandExecutionException) {
            return NOT_WRITTEN;
        }
        return MAYBE_WRITTEN; // "Connection reset", "Connection disconnected", "Connection closed", ...
    }
}
