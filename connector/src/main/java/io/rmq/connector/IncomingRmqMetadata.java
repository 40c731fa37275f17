package io.rmq.connector;

import java.util.Objects;
import java.util.Optional;

import io.rmq.connector.i18n.RmqExceptions;

/**
 * Where a received message comes from and how often it has been delivered. The incoming channel
 * attaches it to every message it emits; read it with
 * {@code message.getMetadata(IncomingRmqMetadata.class)}. Immutable and thread-safe.
 */
public final class IncomingRmqMetadata {

    private final String channel;
    private final String topic;
    private final int slot;
    private final int attempt;
    private final double score;
    private final double priority;
    private final String flowKey;

    /**
     * Creates the metadata of one popped message.
     *
     * @param channel the incoming channel name
     * @param topic   the topic name
     * @param slot    the slot the message was popped from, {@code >= 0}
     * @param attempt the delivery attempt, {@code >= 1} (1 on the first delivery)
     * @param score   the member's score when it was popped
     * @throws IllegalArgumentException when an argument is out of range
     * @throws NullPointerException     when {@code channel} or {@code topic} is {@code null}
     */
    public IncomingRmqMetadata(String channel, String topic, int slot, int attempt, double score) {
        this(channel, topic, slot, attempt, score, score, null);
    }

    /**
     * Creates the metadata of one popped message of a {@code PRIORITY} topic with priority aging, whose score (the
     * aged score it ranked by) differs from its priority.
     *
     * @param priority the message's priority, {@code score + k * (since - E0)}
     * @see #IncomingRmqMetadata(String, String, int, int, double)
     */
    public IncomingRmqMetadata(String channel, String topic, int slot, int attempt, double score, double priority) {
        this(channel, topic, slot, attempt, score, priority, null);
    }

    /**
     * Creates the metadata of one message popped by a channel with limits per key.
     *
     * @param flowKey the message's key ({@code null}: none, or the channel does not limit keys)
     * @see #IncomingRmqMetadata(String, String, int, int, double)
     */
    public IncomingRmqMetadata(String channel, String topic, int slot, int attempt, double score, String flowKey) {
        this(channel, topic, slot, attempt, score, score, flowKey);
    }

    /**
     * Creates the metadata of one popped message with its priority (see
     * {@link #IncomingRmqMetadata(String, String, int, int, double, double)}) and its key (see
     * {@link #IncomingRmqMetadata(String, String, int, int, double, String)}).
     */
    public IncomingRmqMetadata(String channel, String topic, int slot, int attempt, double score, double priority,
            String flowKey) {
        this.flowKey = flowKey;
        this.channel = Objects.requireNonNull(channel, "channel");
        this.topic = Objects.requireNonNull(topic, "topic");
        if (slot < 0) {
            throw RmqExceptions.ex.invalidMetadataValue("slot", slot, "a slot >= 0 is required");
        }
        if (attempt < 1) {
            throw RmqExceptions.ex.invalidMetadataValue("attempt", attempt, "an attempt >= 1 is required");
        }
        this.slot = slot;
        this.attempt = attempt;
        this.score = score;
        this.priority = priority;
    }

    /**
     * The incoming channel that received the message.
     *
     * @return the channel name
     */
    public String getChannel() {
        return channel;
    }

    /**
     * The topic the message was popped from.
     *
     * @return the topic name
     */
    public String getTopic() {
        return topic;
    }

    /**
     * The slot the message was popped from.
     *
     * @return the slot, from 0 to the topic's slot amount - 1
     */
    public int getSlot() {
        return slot;
    }

    /**
     * The delivery attempt: 1 on the first delivery, 2 on the first retry, and so on up to
     * {@code 1 + max-retries}.
     *
     * @return the attempt, {@code >= 1}
     */
    public int getAttempt() {
        return attempt;
    }

    /**
     * The member's score when it was popped: for RANGE_MERGE and FIXED_TIME topics its due time in
     * milliseconds since the epoch (Redis clock), for PRIORITY topics its priority (with priority aging, the aged
     * score it ranked by: see {@link #getPriority()}).
     *
     * @return the score
     */
    public double getScore() {
        return score;
    }

    /**
     * The priority of a message of a PRIORITY topic: its score, or with priority aging (see
     * {@code docs/flow-control.md#priority-aging}) the priority it was sent with, {@code score + k * (since - E0)},
     * while {@link #getScore()} is the aged score it ranked by. For timed topics, the score.
     *
     * @return the priority
     */
    public double getPriority() {
        return priority;
    }

    /**
     * The message's key for limits per key ({@code key-concurrency}, {@code key-rate-limit}), when the channel limits
     * keys: the flow key or slot basis it was sent with, or {@code ~slot} for a message sent without one recorded
     * (its whole slot counts as one key).
     *
     * @return the key, or empty (the channel does not limit keys, or the message has no key)
     */
    public Optional<String> getFlowKey() {
        return Optional.ofNullable(flowKey);
    }

    /** Equal when every field is equal. */
    @Override
    public boolean equals(Object o) {
        return o instanceof IncomingRmqMetadata other
                && channel.equals(other.channel)
                && topic.equals(other.topic)
                && slot == other.slot
                && attempt == other.attempt
                && Double.compare(score, other.score) == 0
                && Double.compare(priority, other.priority) == 0
                && Objects.equals(flowKey, other.flowKey);
    }

    /** Consistent with {@link #equals(Object)}. */
    @Override
    public int hashCode() {
        return Objects.hash(channel, topic, slot, attempt, score, priority, flowKey);
    }

    @Override
    public String toString() {
        return "IncomingRmqMetadata[channel=" + channel + ", topic=" + topic + ", slot=" + slot + ", attempt="
                + attempt + ", score=" + score + (priority != score ? ", priority=" + priority : "")
                + (flowKey == null ? "" : ", flowKey=" + flowKey) + "]";
    }
}
