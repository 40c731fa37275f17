package io.rmq.connector;

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

/** Application beans for the connector tests. */
final class ConnectorBeans {

    private ConnectorBeans() {
    }

    /** Sends through the outgoing channel "out" and records acks and nacks. */
    @ApplicationScoped
    public static class Sender {
        @Inject
        @Channel("out")
        Emitter<Object> emitter;

        final List<Object> acked = new CopyOnWriteArrayList<>();
        final List<Throwable> nacked = new CopyOnWriteArrayList<>();

        public List<Object> acked() {
            return acked;
        }

        public List<Throwable> nacked() {
            return nacked;
        }

        public CompletionStage<Void> send(Object payload, OutgoingRmqMetadata metadata) {
            CompletableFuture<Void> settled = new CompletableFuture<>();
            Message<Object> m = Message.of(payload, metadata == null ? Metadata.empty() : Metadata.of(metadata),
                    () -> {
                        acked.add(payload);
                        settled.complete(null);
                        return CompletableFuture.completedFuture(null);
                    },
                    reason -> {
                        nacked.add(reason);
                        settled.completeExceptionally(reason);
                        return CompletableFuture.completedFuture(null);
                    });
            emitter.send(m);
            return settled;
        }
    }

    /** Records what arrives on the incoming channel "in", with its metadata, and acks it. */
    @ApplicationScoped
    public static class Receiver {
        final List<String> payloads = new CopyOnWriteArrayList<>();
        final List<IncomingRmqMetadata> metadata = new CopyOnWriteArrayList<>();

        public List<String> payloads() {
            return payloads;
        }

        public List<IncomingRmqMetadata> metadata() {
            return metadata;
        }

        @Incoming("in")
        public CompletionStage<Void> consume(Message<String> message) {
            // metadata first: tests wait on the payloads, then read the metadata of what arrived
            message.getMetadata(IncomingRmqMetadata.class).ifPresent(metadata::add);
            payloads.add(message.getPayload());
            return message.ack();
        }
    }

    /** Fails on every message of the incoming channel "in" (SmallRye nacks it). */
    @ApplicationScoped
    public static class FailingReceiver {
        final List<Integer> attempts = new CopyOnWriteArrayList<>();

        public List<Integer> attempts() {
            return attempts;
        }

        @Incoming("in")
        public CompletionStage<Void> consume(Message<String> message) {
            attempts.add(message.getMetadata(IncomingRmqMetadata.class).map(IncomingRmqMetadata::getAttempt).orElse(-1));
            return message.nack(new IllegalStateException("cannot process " + message.getPayload()));
        }
    }

    /** A plain payload method on "in"; SmallRye acks after it returns. */
    @ApplicationScoped
    public static class PayloadReceiver {
        final List<String> payloads = new CopyOnWriteArrayList<>();

        public List<String> payloads() {
            return payloads;
        }

        @Incoming("in")
        public void consume(String payload) {
            payloads.add(payload);
        }
    }

    /** Processes "in" slowly, one message at a time. */
    @ApplicationScoped
    public static class SlowReceiver {
        final List<String> payloads = new CopyOnWriteArrayList<>();

        public List<String> payloads() {
            return payloads;
        }

        @Incoming("in")
        public void consume(String payload) throws InterruptedException {
            Thread.sleep(50); // the slow processing itself, not a wait for anything
            payloads.add(payload);
        }
    }

    /** An application type written through a codec. */
    public record Price(String sku, int cents) {
    }

    /** Encodes {@link Price} as "sku=cents". */
    public static class PriceCodec implements RmqCodec {
        @Override
        public byte[] encode(Object payload) {
            Price p = (Price) payload;
            return (p.sku() + "=" + p.cents()).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }

        @Override
        public Object decode(byte[] content) {
            String[] parts = new String(content, java.nio.charset.StandardCharsets.UTF_8).split("=");
            return new Price(parts[0], Integer.parseInt(parts[1]));
        }
    }

    /** Receives {@link Price} payloads decoded by the codec on "in". */
    @ApplicationScoped
    public static class PriceReceiver {
        final List<Price> prices = new CopyOnWriteArrayList<>();

        public List<Price> prices() {
            return prices;
        }

        @Incoming("in")
        public void consume(Price price) {
            prices.add(price);
        }
    }
}
