package io.rmq.connector;

import io.rmq.connector.config.OutgoingChannelConfig;
import io.rmq.connector.i18n.RmqExceptions;
import io.rmq.engine.produce.DurabilityException;
import io.rmq.engine.produce.SendFailedException;
import io.rmq.engine.produce.WriteState;
import io.rmq.engine.redis.WrongKeyTypeException;

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

    /**
     * The reason a failed write is nacked with, saying whether the message may have been written
     * ({@link WriteState}): replicas not reached by a durable send, with the channel's setting (RMQ-2040,
     * written); a reply that was lost (RMQ-2105, may have been written); the engine's own errors (RMQ-0xxx,
     * naming the key or the definitions) as they are; the client's other errors (not connected) with the channel,
     * topic and Redis they concern (RMQ-2103, not written).
     *
     * @param cause           why the write of a message of the channel of {@code config} failed
     * @param redisDisplayUri the channel's Redis, its password hidden
     */
    static Throwable nackReason(Throwable cause, OutgoingChannelConfig config, String redisDisplayUri) {
        if (!(cause instanceof SendFailedException failed)) {
            return cause; // failed before reaching for Redis: nothing written
        }
        String channel = config.channel();
        String topic = config.topic().name();
        if (failed instanceof DurabilityException notReplicated) {
            return new RmqSendException(RmqExceptions.ex.sendNotReplicated(channel, topic, notReplicated.reached(),
                    notReplicated.required(), config.producerOptions().durabilityTimeout().toMillis()), failed);
        }
        if (failed.writeState() == WriteState.MAYBE_WRITTEN && !(failed.getCause() instanceof WrongKeyTypeException)) {
            String reason = failed.getCause() == null
                    ? "none within 'durability-timeout' = " + config.producerOptions().durabilityTimeout().toMillis()
                            + " ms"
                    : String.valueOf(failed.getCause().getMessage());
            return new RmqSendException(RmqExceptions.ex.sendReplyLost(channel, topic, redisDisplayUri, reason), failed);
        }
        if (String.valueOf(failed.getMessage()).startsWith("RMQ-")) {
            return failed;
        }
        return new RmqSendException(RmqExceptions.ex.sendFailed(channel, topic, redisDisplayUri, failed), failed);
    }
}
