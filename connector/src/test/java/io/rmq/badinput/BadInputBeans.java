package io.rmq.badinput;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

import io.rmq.connector.IncomingRmqMetadata;
import io.rmq.connector.RmqCodec;

/** Application beans of the bad-input tests: a sender on "out", a receiver on "in", a codec that fails on demand. */
final class BadInputBeans {

    private BadInputBeans() {
    }

    /** Sends through "out"; each send's stage completes when the connector acks, and fails with the nack's reason. */
    @ApplicationScoped
    public static class Sender {
        @Inject
        @Channel("out")
        Emitter<Object> emitter;

        /** Sends {@code payload} with the given metadata objects (of any type). */
        public CompletableFuture<Void> send(Object payload, Object... metadata) {
            CompletableFuture<Void> settled = new CompletableFuture<>();
            emitter.send(Message.of(payload, Metadata.of(metadata), () -> {
                settled.complete(null);
                return CompletableFuture.completedFuture(null);
            }, reason -> {
                settled.completeExceptionally(reason);
                return CompletableFuture.completedFuture(null);
            }));
            return settled;
        }
    }

    /** Records what arrives on "in" and acks it, or nacks the first delivery of each message when told to. */
    @ApplicationScoped
    public static class Receiver {
        final List<Object> payloads = new CopyOnWriteArrayList<>();
        final List<IncomingRmqMetadata> metadata = new CopyOnWriteArrayList<>();
        volatile boolean nackFirstDelivery;
        volatile boolean nackAll;

        @Incoming("in")
        public CompletionStage<Void> consume(Message<Object> message) {
            payloads.add(message.getPayload());
            IncomingRmqMetadata md = message.getMetadata(IncomingRmqMetadata.class).orElseThrow();
            metadata.add(md);
            if (nackAll || (nackFirstDelivery && md.getAttempt() == 1)) {
                return message.nack(new IllegalStateException("cannot process " + message.getPayload()));
            }
            return message.ack();
        }

        public List<Object> payloads() {
            return payloads;
        }

        public List<IncomingRmqMetadata> metadata() {
            return metadata;
        }

        /** Nack every delivery from now on. */
        public void nackAll(boolean nack) {
            nackAll = nack;
        }

        /** Nack the first delivery of each message from now on. */
        public void nackFirstDelivery(boolean nack) {
            nackFirstDelivery = nack;
        }

        /** The payloads received, Strings as they are and byte arrays as UTF-8 text. */
        public List<String> texts() {
            return payloads.stream().map(p -> p instanceof byte[] b ? new String(b, StandardCharsets.UTF_8)
                    : String.valueOf(p)).toList();
        }
    }

    /** A codec of Strings that throws on "boom" and returns null on "null", both ways. */
    public static class FailingCodec implements RmqCodec {
        @Override
        public byte[] encode(Object payload) {
            return switch (String.valueOf(payload)) {
                case "boom" -> throw new IllegalStateException("cannot encode boom");
                case "null" -> null;
                default -> String.valueOf(payload).getBytes(StandardCharsets.UTF_8);
            };
        }

        @Override
        public Object decode(byte[] content) {
            String text = new String(content, StandardCharsets.UTF_8);
            return switch (text) {
                case "boom" -> throw new IllegalStateException("cannot decode boom");
                case "null" -> null;
                default -> text;
            };
        }
    }
}
