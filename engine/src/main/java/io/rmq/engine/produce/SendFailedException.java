package io.rmq.engine.produce;

import java.util.concurrent.CompletionException;

import io.rmq.engine.i18n.EngineExceptions;
import io.rmq.engine.redis.RmqClient;
import io.rmq.engine.redis.WrongKeyTypeException;

/**
 * A send of a {@link TopicProducer} that failed, with what it may have left in Redis ({@link #writeState()}):
 * every failure of a send that reached for Redis is one (the cause is the client's or the engine's error, and
 * the message is the cause's, or RMQ-0372, RMQ-0373, RMQ-0374 for a durable send); {@link DurabilityException}
 * is the one for replicas that did not confirm in time.
 */
public class SendFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String topic;
    private final WriteState writeState;

    SendFailedException(String message, String topic, WriteState writeState, Throwable cause) {
        super(message, cause);
        this.topic = topic;
        this.writeState = writeState;
    }

    /** The topic the message was sent to. */
    public String topic() {
        return topic;
    }

    /** What the send may have left in Redis: whether sending the message again may store it twice. */
    public WriteState writeState() {
        return writeState;
    }

    /**
     * The failure of a send call, as a {@code SendFailedException}: as it is when it is one already, else with
     * its state told by {@link WriteState#ofCallFailure}; a reply that was lost is said in RMQ-0373.
     */
    static SendFailedException of(Throwable failure, String topic) {
        Throwable t = failure;
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        if (t instanceof SendFailedException sent) {
            return sent;
        }
        WriteState state = WriteState.ofCallFailure(t);
        String message = state == WriteState.MAYBE_WRITTEN && !(t instanceof WrongKeyTypeException)
                ? EngineExceptions.ex.sendReplyLost(topic, RmqClient.rootMessage(t)) : t.getMessage();
        return new SendFailedException(message, topic, state, t);
    }

    /** A failure met before anything was sent (no connection to the slot's master): nothing was stored. */
    static SendFailedException notWritten(Throwable failure, String topic) {
        Throwable t = failure;
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return new SendFailedException(t.getMessage(), topic, WriteState.NOT_WRITTEN, t);
    }
}
