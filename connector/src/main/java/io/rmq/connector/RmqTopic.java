package io.rmq.connector;

import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

import io.rmq.connector.metrics.RmqMetrics;
import io.rmq.engine.pending.CancelOutcome;
import io.rmq.engine.pending.Cancellation;
import io.rmq.engine.pending.MessageState;
import io.rmq.engine.pending.PendingMessages;
import io.rmq.engine.pending.PendingOperationException;
import io.rmq.engine.pending.Rescheduling;
import io.rmq.engine.topic.TopicDefinition;

/**
 * The messages of one channel's topic after they were sent, reached by their payload: cancel one while it is
 * pending, find what Redis holds about it, reschedule or reprioritize it. Obtained from {@link RmqTopics} by the
 * name of an outgoing or incoming channel of the connector. The payload is encoded with the channel's codec
 * exactly as the outgoing channel encodes it (without a codec: a {@code String} as UTF-8, a {@code byte[]} as it
 * is), and the slot basis is the one it was sent with ({@code null} when none was given); see
 * {@link PendingMessages} for what each operation does in Redis.
 *
 * <p>Each operation comes synchronous (waits for Redis, at most the connection's command timeout) and
 * asynchronous ({@code ...Async}). A payload the channel cannot encode fails with the outgoing channel's error
 * (RMQ-2006, RMQ-2104, or the codec's); Redis failures with {@link PendingOperationException} (RMQ-0500, RMQ-0501).
 * Cancelled and rescheduled messages are counted in {@code rmq.messages.cancelled} and
 * {@code rmq.messages.rescheduled}. Thread-safe.
 */
public final class RmqTopic {

    private final String channel;
    private final PendingMessages pending;
    private final PayloadEncoder encoder;
    private final RmqMetrics metrics;

    RmqTopic(String channel, PendingMessages pending, PayloadEncoder encoder, RmqMetrics metrics) {
        this.channel = channel;
        this.pending = pending;
        this.encoder = encoder;
        this.metrics = metrics;
    }

    /** The channel this view was obtained by. */
    public String channel() {
        return channel;
    }

    /** The channel's topic as configured: name, type, slot amount, key prefix. */
    public TopicDefinition topic() {
        return pending.topic();
    }

    /** Removes the message if it is pending; says whether it was, and whether a copy is in flight (not cancelled). */
    public Cancellation cancel(Object payload, String slotBasis) {
        return await(cancelAsync(payload, slotBasis));
    }

    /** {@link #cancel}, asynchronously. */
    public CompletionStage<Cancellation> cancelAsync(Object payload, String slotBasis) {
        return withContent(payload, content -> pending.cancel(content, slotBasis)).thenApply(c -> {
            if (c.outcome() == CancelOutcome.CANCELLED) {
                metrics.cancelled(topic());
            }
            return c;
        });
    }

    /** What Redis holds about the message: pending or in flight, due time or priority, attempts, death, expiry. */
    public MessageState find(Object payload, String slotBasis) {
        return await(findAsync(payload, slotBasis));
    }

    /** {@link #find}, asynchronously. */
    public CompletionStage<MessageState> findAsync(Object payload, String slotBasis) {
        return withContent(payload, content -> pending.find(content, slotBasis));
    }

    /**
     * Sets the due time of a pending message of a RANGE_MERGE or FIXED_TIME topic, whatever the merge rule.
     *
     * @throws IllegalArgumentException RMQ-0502 on a PRIORITY topic
     */
    public Rescheduling reschedule(Object payload, String slotBasis, Instant dueAt) {
        return await(rescheduleAsync(payload, slotBasis, dueAt));
    }

    /** {@link #reschedule}, asynchronously. */
    public CompletionStage<Rescheduling> rescheduleAsync(Object payload, String slotBasis, Instant dueAt) {
        return counted(withContent(payload, content -> pending.reschedule(content, slotBasis, dueAt)));
    }

    /**
     * Sets the priority of a pending message of a PRIORITY topic, whatever the merge rule.
     *
     * @throws IllegalArgumentException RMQ-0502 on a timed topic
     */
    public Rescheduling reprioritize(Object payload, String slotBasis, double priority) {
        return await(reprioritizeAsync(payload, slotBasis, priority));
    }

    /** {@link #reprioritize}, asynchronously. */
    public CompletionStage<Rescheduling> reprioritizeAsync(Object payload, String slotBasis, double priority) {
        return counted(withContent(payload, content -> pending.reprioritize(content, slotBasis, priority)));
    }

    private CompletionStage<Rescheduling> counted(CompletionStage<Rescheduling> change) {
        return change.thenApply(r -> {
            if (r.rescheduled()) {
                metrics.rescheduled(topic());
            }
            return r;
        });
    }

    /** Runs {@code operation} on the payload's content; a payload that cannot be encoded fails the stage. */
    private <T> CompletionStage<T> withContent(Object payload, Function<byte[], CompletionStage<T>> operation) {
        byte[] content;
        try {
            content = encoder.encode(payload);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return operation.apply(content);
    }

    private static <T> T await(CompletionStage<T> stage) {
        try {
            return stage.toCompletableFuture().join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }
}
