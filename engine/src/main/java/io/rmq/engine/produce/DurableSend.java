package io.rmq.engine.produce;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import io.rmq.engine.i18n.EngineExceptions;
import io.rmq.engine.scripts.SendResult;

/**
 * One durable send on its way: its deadline, how far it got, and its result. The deadline is the durability
 * timeout after the send was handed to the producer, so it falls at or before the timeout after its write.
 * Whatever settles it first wins (the {@code WAIT} that confirms it, a failure, or {@link #expire()} at its
 * deadline, see {@link SendDeadlines}); every later outcome is ignored.
 *
 * <p>The phase says what an expiry means: {@code QUEUED} (not handed to Redis yet: nothing stored, RMQ-0374),
 * {@code WRITING} (written, no reply yet: may have been stored, RMQ-0373), {@code WRITTEN} (stored, not
 * confirmed: {@link DurabilityException}). A send leaves {@code QUEUED} only through {@link #claim()}, which an
 * expiry races with atomically, so a send said to be not written is never written afterwards. Thread-safe.
 */
final class DurableSend {

    private static final int QUEUED = 0;
    private static final int WRITING = 1;
    private static final int WRITTEN = 2;
    /** Expired while queued: never to be written. */
    private static final int DROPPED = 3;

    private final String topic;
    private final ProducerOptions options;
    private final long deadlineNanos;
    private final CompletableFuture<SendResult> result = new CompletableFuture<>();
    private final AtomicInteger phase = new AtomicInteger(QUEUED);
    private volatile SendResult written;
    /** Replicas that the latest {@code WAIT} covering this write reported. */
    private volatile long reached;

    DurableSend(String topic, ProducerOptions options, long acceptedNanos) {
        this.topic = topic;
        this.options = options;
        this.deadlineNanos = acceptedNanos + options.durabilityTimeout().toNanos();
    }

    CompletableFuture<SendResult> result() {
        return result;
    }

    /** When the durability timeout of this send runs out ({@link System#nanoTime()}). */
    long deadlineNanos() {
        return deadlineNanos;
    }

    boolean isDone() {
        return result.isDone();
    }

    /** Takes the send for a write; {@code false} when it expired first (it must then not be written). */
    boolean claim() {
        return phase.compareAndSet(QUEUED, WRITING);
    }

    /** Gives a claimed send back to the queue: its call stored nothing (a split slot, or nothing to merge into). */
    boolean unclaim() {
        return phase.compareAndSet(WRITING, QUEUED) && !result.isDone();
    }

    /** The write's reply came: stored or merged as {@code r}; it waits for its replicas now. */
    void written(SendResult r) {
        written = r;
        phase.set(WRITTEN);
    }

    /** A {@code WAIT} that covers this write saw {@code n} replicas, fewer than required. */
    void reached(long n) {
        reached = n;
    }

    /** The required replicas have the write. */
    void confirm() {
        result.complete(written);
    }

    void fail(Throwable failure) {
        result.completeExceptionally(failure);
    }

    /** Fails with {@link DurabilityException}: stored, and not confirmed in time. */
    void notConfirmed() {
        result.completeExceptionally(new DurabilityException(topic, reached, options.durableReplicas(),
                options.durabilityTimeout().toMillis()));
    }

    /** Settles the send at its deadline, as its phase says (see the class comment); nothing once settled. */
    void expire() {
        if (result.isDone()) {
            return;
        }
        if (phase.compareAndSet(QUEUED, DROPPED)) {
            result.completeExceptionally(new SendFailedException(EngineExceptions.ex.notWrittenInTime(topic,
                    options.durabilityTimeout().toMillis()), topic, WriteState.NOT_WRITTEN, null));
        } else if (phase.get() == WRITTEN) {
            notConfirmed();
        } else {
            result.completeExceptionally(new SendFailedException(EngineExceptions.ex.sendReplyLost(topic, "no reply"
                    + " within the durability timeout of " + options.durabilityTimeout().toMillis() + " ms"), topic,
                    WriteState.MAYBE_WRITTEN, null));
        }
    }
}
