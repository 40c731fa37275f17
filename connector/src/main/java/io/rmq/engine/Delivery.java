package io.rmq.engine;

import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One popped member: prepared (in the prepare queue) until it is committed or rolled back. The
 * first of {@link #commit()} and {@link #rollback(Throwable)} wins; later calls do nothing.
 * Thread-safe.
 */
public final class Delivery {

    static final int PREFETCHED = 0;
    static final int DELIVERED = 1;
    static final int FINISHED = 2;

    private final TopicConsumer owner;
    private final int slot;
    private final byte[] content;
    private final byte[] rawScore;
    private final int attempt;
    private final AtomicInteger state = new AtomicInteger(PREFETCHED);

    Delivery(TopicConsumer owner, int slot, byte[] content, byte[] rawScore, int attempt) {
        this.owner = owner;
        this.slot = slot;
        this.content = content;
        this.rawScore = rawScore;
        this.attempt = attempt;
    }

    public String topic() {
        return owner.topic().name();
    }

    public int slot() {
        return slot;
    }

    /** The message content (the sorted-set member). Do not modify. */
    public byte[] content() {
        return content;
    }

    /** The member's score in the store queue when popped: its due time in ms, or its priority. */
    public double score() {
        return Double.parseDouble(new String(rawScore, java.nio.charset.StandardCharsets.US_ASCII));
    }

    byte[] rawScore() {
        return rawScore;
    }

    /** The delivery number of this message: 1 on the first delivery. */
    public int attempt() {
        return attempt;
    }

    /**
     * Commits: the message is removed from the prepare queue. Returns at once; the removal is
     * gathered with other commits of the slot and reaches Redis within one round trip. Should the
     * process die before that, the message is redelivered after its prepare deadline (at least once).
     */
    public CompletionStage<Void> commit() {
        return owner.commit(this);
    }

    /**
     * Rolls back a failed delivery: the message is retried (timed types after a backoff, priority
     * messages behind the pending ones) or moves to the dead queue after its last allowed delivery.
     * Completes when Redis has done so.
     */
    public CompletionStage<Void> rollback(Throwable reason) {
        return owner.rollback(this, reason);
    }

    boolean markDelivered() {
        return state.compareAndSet(PREFETCHED, DELIVERED);
    }

    /** Moves to FINISHED; returns the state it left, or -1 when it was finished already. */
    int finish() {
        int s = state.get();
        while (s != FINISHED) {
            if (state.compareAndSet(s, FINISHED)) {
                return s;
            }
            s = state.get();
        }
        return -1;
    }

    boolean isDelivered() {
        return state.get() == DELIVERED;
    }

    boolean isFinished() {
        return state.get() == FINISHED;
    }

    @Override
    public String toString() {
        return "Delivery[" + topic() + "_" + slot + ", attempt " + attempt + ", " + content.length + " bytes]";
    }
}
