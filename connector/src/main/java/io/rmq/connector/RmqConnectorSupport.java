package io.rmq.connector;

import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import io.rmq.connector.i18n.RmqExceptions;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.redis.WrongKeyTypeException;
import io.rmq.engine.topic.TopicConflictException;

/** Helpers shared by the incoming and outgoing channels. Stateless. */
final class RmqConnectorSupport {

    /**
     * How long deployment waits for the first connection attempt to Redis to succeed or fail (a slow
     * start of a loaded machine or a TLS handshake may take seconds).
     */
    static final long CONNECTION_WAIT_MILLIS = 30_000;
    /** How long deployment waits, once connected, for Redis to confirm a topic's definition. */
    static final long REGISTRATION_WAIT_MILLIS = 10_000;

    private RmqConnectorSupport() {
    }

    /**
     * Waits for the topic registration so that a conflicting definition, or a topic registry of the
     * wrong type, fails the deployment with a clear error. When the first connection attempt finds Redis
     * unreachable, the deployment goes on (the client keeps retrying and logs each attempt) and the
     * channel fails later, if at all, when the registration completes.
     */
    static void failFastOnConflict(RmqEngine client, CompletionStage<?> registration, String channel) {
        try {
            Boolean connected = client.firstConnectionAttempt().toCompletableFuture()
                    .get(CONNECTION_WAIT_MILLIS, TimeUnit.MILLISECONDS);
            if (Boolean.TRUE.equals(connected) || client.isConnected()) {
                registration.toCompletableFuture().get(REGISTRATION_WAIT_MILLIS, TimeUnit.MILLISECONDS);
            }
        } catch (ExecutionException e) {
            Throwable cause = unwrap(e);
            if (cause instanceof TopicConflictException conflict) {
                throw RmqExceptions.ex.topicConflict(channel, conflict);
            }
            if (cause instanceof WrongKeyTypeException wrongType) {
                throw RmqExceptions.ex.keyOfWrongType(channel, wrongType);
            }
        } catch (TimeoutException e) {
            // Redis slow or unreachable: the client keeps retrying and logs each attempt.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Calls a channel's codec: what the codec throws becomes RMQ-2007 (with the codec's exception as
     * cause), a {@code null} it returns RMQ-2008.
     *
     * @param operation {@code "encode"} or {@code "decode"}, for the message
     */
    static <T> T callCodec(RmqCodec codec, String channel, String operation, Function<RmqCodec, T> call) {
        T result;
        try {
            result = call.apply(codec);
        } catch (RuntimeException e) {
            throw RmqExceptions.ex.codecFailed(channel, codec.getClass().getName(), operation, e);
        }
        if (result == null) {
            throw RmqExceptions.ex.codecReturnedNull(channel, codec.getClass().getName(), operation);
        }
        return result;
    }

    static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
