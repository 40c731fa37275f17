package io.rmq.connector;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

import io.rmq.connector.i18n.RmqExceptions;

/**
 * The message an incoming channel with {@code batch=true} emits: the payloads of messages popped together, in
 * one {@code List}, with an {@link IncomingRmqBatchMetadata}. {@code ack()} commits every message of the batch;
 * {@code nack(reason)} settles every one as the channel's failure strategy says (by default: rolls each back, to
 * be retried or buried on its own attempt count). Each completes once all of them are settled. Immutable;
 * thread-safe.
 */
final class IncomingRmqBatch implements Message<List<Object>> {

    private final List<IncomingRmqMessage> messages;
    private final List<Object> payloads;
    private final Metadata metadata;

    IncomingRmqBatch(String channel, List<IncomingRmqMessage> messages) {
        this.messages = List.copyOf(messages);
        List<Object> p = new ArrayList<>(messages.size());
        List<IncomingRmqMetadata> m = new ArrayList<>(messages.size());
        for (IncomingRmqMessage message : messages) {
            p.add(message.getPayload());
            m.add(message.rmqMetadata());
        }
        this.payloads = Collections.unmodifiableList(p);
        this.metadata = Metadata.of(new IncomingRmqBatchMetadata(channel, m));
    }

    /** The messages of the batch, in the order of the payloads. */
    List<IncomingRmqMessage> messages() {
        return messages;
    }

    @Override
    public List<Object> getPayload() {
        return payloads;
    }

    @Override
    public Metadata getMetadata() {
        return metadata;
    }

    @Override
    public CompletionStage<Void> ack() {
        return all(IncomingRmqMessage::ack);
    }

    @Override
    public CompletionStage<Void> ack(Metadata ignored) {
        return ack();
    }

    @Override
    public CompletionStage<Void> nack(Throwable reason) {
        return nack(reason, null);
    }

    @Override
    public CompletionStage<Void> nack(Throwable reason, Metadata ignored) {
        if (reason == null) {
            throw RmqExceptions.ex.nullArgument("reason");
        }
        return all(m -> m.nack(reason));
    }

    @Override
    public Supplier<CompletionStage<Void>> getAck() {
        return this::ack;
    }

    @Override
    public Function<Metadata, CompletionStage<Void>> getAckWithMetadata() {
        return this::ack;
    }

    @Override
    public Function<Throwable, CompletionStage<Void>> getNack() {
        return this::nack;
    }

    @Override
    public BiFunction<Throwable, Metadata, CompletionStage<Void>> getNackWithMetadata() {
        return this::nack;
    }

    private CompletionStage<Void> all(Function<IncomingRmqMessage, CompletionStage<Void>> settle) {
        CompletableFuture<?>[] settled = new CompletableFuture<?>[messages.size()];
        for (int i = 0; i < settled.length; i++) {
            settled[i] = settle.apply(messages.get(i)).toCompletableFuture();
        }
        return CompletableFuture.allOf(settled);
    }
}
