package io.rmq.engine.settlement;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;

import io.rmq.engine.scripts.TopicScripts;
import io.rmq.engine.scripts.TraceEntry;

/**
 * One popped member: prepared (in the prepare queue) until it is committed or rolled back. The
 * first of {@link #commit()} and {@link #rollback(Throwable)} wins; later calls do nothing.
 * Thread-safe.
 */
public final class Delivery {

    static final int PREFETCHED = 0;
    static final int DELIVERED = 1;
    static final int FINISHED = 2;

    /**
     * The most characters of a failure recorded with a rolled-back message ({@code <exception class>:
     * <message>}), shown with its dead or retried message by the admin API.
     */
    public static final int MAX_FAILURE_LENGTH = 512;

    /** Most digits of a score read without {@link Double#parseDouble}: any such integer is exact as a double. */
    private static final int EXACT_DIGITS = 15;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Delivery.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Commits and rolls back deliveries: the consumer's settlement. */
    public interface Settler {
        CompletionStage<Void> commit(Delivery delivery);

        CompletionStage<Void> rollback(Delivery delivery, Throwable reason);

        CompletionStage<Void> deadLetter(Delivery delivery, Throwable reason);
    }

    private final Settler settler;
    private final String topic;
    private final int slot;
    private final TopicScripts.PoppedMember member;
    /**
     * PREFETCHED (0, the initial value), DELIVERED or FINISHED; a field of its own rather than an
     * AtomicInteger: one object less per message.
     */
    private volatile int state;
    /** The traceparent of this delivery's process span, given back with a rollback; {@code null}: none. */
    private volatile String attemptContext;

    public Delivery(Settler settler, String topic, int slot, TopicScripts.PoppedMember member) {
        this.settler = settler;
        this.topic = topic;
        this.slot = slot;
        this.member = member;
    }

    /** Deliveries for the members one pop of {@code slot} returned. */
    public static List<Delivery> of(Settler settler, String topic, int slot, List<TopicScripts.PoppedMember> members) {
        List<Delivery> out = new ArrayList<>(members.size());
        for (TopicScripts.PoppedMember m : members) {
            out.add(new Delivery(settler, topic, slot, m));
        }
        return out;
    }

    /** The topic's name. */
    public String topic() {
        return topic;
    }

    public int slot() {
        return slot;
    }

    /** The message content (the sorted-set member). Do not modify. */
    public byte[] content() {
        return member.content();
    }

    /** The member's score in the store queue when popped: its due time in ms, or its priority. */
    public double score() {
        return parseScore(member.rawScore());
    }

    /**
     * A score as Redis wrote it. Due times and priorities are integers, read here digit by digit without
     * allocating; anything else (a fraction, an exponent, {@code inf}) goes through {@link Double#parseDouble}.
     */
    public static double parseScore(byte[] raw) {
        int i = raw.length > 0 && raw[0] == '-' ? 1 : 0;
        if (raw.length > i && raw.length - i <= EXACT_DIGITS) {
            long value = 0;
            for (int j = i; j < raw.length; j++) {
                int digit = raw[j] - '0';
                if (digit < 0 || digit > 9) {
                    return Double.parseDouble(new String(raw, StandardCharsets.US_ASCII));
                }
                value = value * 10 + digit;
            }
            // -0 stays -0.0, as Double.parseDouble("-0") gives
            return i == 1 ? -(double) value : value;
        }
        return Double.parseDouble(new String(raw, StandardCharsets.US_ASCII));
    }

    /**
     * The message's key for limits per key, when its consumer limits keys: its flow key or slot basis, {@code ~slot}
     * for a message sent without one recorded; {@code null} when the consumer does not limit keys or the message has
     * no key.
     */
    public String flowKey() {
        return member.flowKey();
    }

    /**
     * The Redis clock when the message was popped (moved to the prepare queue), in ms since the epoch: a message
     * with an expiry was popped before it expired.
     */
    public long poppedAtMillis() {
        return member.poppedAtMillis();
    }

    /**
     * The priority of a {@code PRIORITY} message: its score, or with priority aging its priority
     * {@code score + k * (since - E0)} (the score is then the aged score it ranks by).
     */
    public double priority() {
        return member.priority() != null ? member.priority() : score();
    }

    /** The member as popped, for releasing it with its score. */
    TopicScripts.PoppedMember member() {
        return member;
    }

    /**
     * What the slot's trace hash recorded about the message when it was popped (the sends it stands for, their
     * contexts, its last failed delivery's), or {@code null} when the consumer does not trace or nothing was recorded.
     */
    public TraceEntry trace() {
        return TraceEntry.parse(member.trace());
    }

    /**
     * The W3C traceparent of this delivery's process span: a rollback records it with the message, so that its next
     * delivery links this one. Call before {@link #rollback}; ignored unless the consumer traces.
     */
    public void attemptContext(String traceparent) {
        this.attemptContext = traceparent;
    }

    /** The trace entry a rollback gives back: the one popped, with this delivery as its last attempt; or {@code null}. */
    String traceForRetry() {
        String attempt = attemptContext;
        TraceEntry popped = trace();
        if (attempt == null) {
            return popped == null ? null : popped.wire();
        }
        return (popped == null ? new TraceEntry(0, List.of(), attempt) : popped.withAttempt(attempt)).wire();
    }

    /** The delivery number of this message: 1 on the first delivery. */
    public int attempt() {
        return member.attempt();
    }

    /**
     * Commits: the message is removed from the prepare queue. Returns at once; the removal is
     * gathered with other commits of the slot and reaches Redis within one round trip. A commit made
     * on the consumer's thread while it hands messages to the listener (in the listener's call) first
     * waits for the end of that hand-over: at most about 1 ms, or, when a listener call is under way
     * then, until it returns; so the commits of a batch travel together. Should the process die
     * before the removal, the message is redelivered after its prepare deadline (at least once).
     */
    public CompletionStage<Void> commit() {
        return settler.commit(this);
    }

    /**
     * Rolls back a failed delivery: the message is retried (timed types after a backoff, priority
     * messages behind the pending ones) or moves to the dead queue after its last allowed delivery.
     * The reason's class and message are recorded as the message's last failure (at most
     * {@value #MAX_FAILURE_LENGTH} characters).
     * Completes when Redis has done so.
     */
    public CompletionStage<Void> rollback(Throwable reason) {
        return settler.rollback(this, reason);
    }

    /**
     * Moves a failed delivery straight to the dead queue, whatever retries it has left, with the reason recorded as
     * its last failure as {@link #rollback} records it. The first of commit, rollback and this wins. Completes when
     * Redis has done so.
     */
    public CompletionStage<Void> deadLetter(Throwable reason) {
        return settler.deadLetter(this, reason);
    }

    /** A failure as recorded with a rolled-back message: class and message, at most {@value #MAX_FAILURE_LENGTH} characters. */
    static String failureText(Throwable reason) {
        String text = reason == null ? "rolled back without a reason"
                : reason.getClass().getName() + (reason.getMessage() == null ? "" : ": " + reason.getMessage());
        text = text.replace('\t', ' ');
        return text.length() <= MAX_FAILURE_LENGTH ? text : text.substring(0, MAX_FAILURE_LENGTH - 1) + "\u2026";
    }

    public boolean markDelivered() {
        return STATE.compareAndSet(this, PREFETCHED, DELIVERED);
    }

    /** Moves to FINISHED; returns the state it left, or -1 when it was finished already. */
    public int finish() {
        int s = state;
        while (s != FINISHED) {
            if (STATE.compareAndSet(this, s, FINISHED)) {
                return s;
            }
            s = state;
        }
        return -1;
    }

    boolean isDelivered() {
        return state == DELIVERED;
    }

    boolean isFinished() {
        return state == FINISHED;
    }

    @Override
    public String toString() {
        return "Delivery[" + topic + "_" + slot + ", attempt " + member.attempt() + ", " + member.content().length + " bytes]";
    }
}
