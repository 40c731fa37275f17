package io.rmq.connector;

import java.util.List;

/**
 * The metadata of a batch an incoming channel with {@code batch=true} emits: the channel, and the
 * {@link IncomingRmqMetadata} of each message of the batch (topic, slot, attempt, score), in the order of the
 * payloads. Read it with {@code message.getMetadata(IncomingRmqBatchMetadata.class)}. Immutable and thread-safe.
 */
public final class IncomingRmqBatchMetadata {

    private final String channel;
    private final List<IncomingRmqMetadata> messages;

    /**
     * @param channel  the incoming channel's name
     * @param messages the metadata of each message, in the order of the payloads
     */
    public IncomingRmqBatchMetadata(String channel, List<IncomingRmqMetadata> messages) {
        this.channel = channel;
        this.messages = List.copyOf(messages);
    }

    /** The incoming channel's name. */
    public String getChannel() {
        return channel;
    }

    /** The metadata of each message of the batch, in the order of the payloads; never empty. */
    public List<IncomingRmqMetadata> getMessages() {
        return messages;
    }

    /** How many messages the batch holds. */
    public int size() {
        return messages.size();
    }

    @Override
    public String toString() {
        return "IncomingRmqBatchMetadata[channel=" + channel + ", messages=" + messages + "]";
    }
}
