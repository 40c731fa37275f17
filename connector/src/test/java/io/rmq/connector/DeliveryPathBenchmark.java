package io.rmq.connector;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import io.rmq.engine.settlement.BenchmarkDeliveries;
import io.rmq.engine.settlement.Delivery;

/**
 * JMH benchmarks of the incoming channel's share of consuming a message: a popped delivery becomes a
 * {@link Message} with its metadata, goes through the channel's {@link SerialExecutor} to a subscriber
 * that acks it, and the ack commits the delivery (gathered per slot, with batches that complete at once
 * instead of a script call). {@code *Before} methods do the same the way the channel did it before
 * ({@code Message.of}, a task object per signal), for comparison in one run. Decoding: text payloads as the
 * channel decodes them, against the strict decoder it used before for all of them.
 * See {@code docs/profiling.md}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DeliveryPathBenchmark {

    private static final String SCORE = "1764240000123";

    private final BenchmarkDeliveries deliveries = new BenchmarkDeliveries();
    private final SerialExecutor signals = new SerialExecutor("benchmark");
    private final AckingSubscriber subscriber = new AckingSubscriber();
    private final java.util.function.Consumer<IncomingRmqMessage> emitter = subscriber::onNext;
    private final ChannelFailures failures = new ChannelFailures("benchmark", "benchmark",
            io.rmq.connector.config.FailureStrategy.RETRY, f -> { });
    private byte[] content;

    @Setup
    public void setUp() {
        content = new byte[100];
        Arrays.fill(content, (byte) 'x');
        subscriber.onSubscribe(null);
    }

    /** One delivery through the channel as it is: metadata, message, serial executor, onNext, ack. */
    @Benchmark
    public long deliverAndAck() {
        Delivery delivery = handedOver();
        signals.execute(emitter, new IncomingRmqMessage(content, metadata(delivery), delivery, null, failures));
        return subscriber.acked;
    }

    /** The same as the channel did it before: {@code Message.of} with {@code Metadata.of} and a task per signal. */
    @Benchmark
    public long deliverAndAckBefore() {
        Delivery delivery = handedOver();
        Message<?> message = Message.of(content, Metadata.of(metadata(delivery)), delivery::commit, delivery::rollback);
        signals.execute(() -> subscriber.onNext(message));
        return subscriber.acked;
    }

    /** A popped delivery, handed over as the consumer loop hands it to the channel. */
    private Delivery handedOver() {
        Delivery delivery = deliveries.delivery(content, SCORE);
        BenchmarkDeliveries.markDelivered(delivery);
        return delivery;
    }

    private static IncomingRmqMetadata metadata(Delivery delivery) {
        return new IncomingRmqMetadata("in", delivery.topic(), delivery.slot(), delivery.attempt(), delivery.score());
    }

    /** A 100-byte text payload, decoded as the channel decodes text. */
    @Benchmark
    public String decodeText() {
        String text = new String(content, StandardCharsets.UTF_8);
        if (text.indexOf('\uFFFD') < 0) {
            return text;
        }
        return decodeTextBefore();
    }

    /** The same with the strict decoder alone, as before. */
    @Benchmark
    public String decodeTextBefore() {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder();
        CharBuffer out = CharBuffer.allocate(content.length);
        decoder.decode(ByteBuffer.wrap(content), out, true);
        decoder.flush(out);
        return out.flip().toString();
    }

    /** Acks each message on arrival, as an {@code @Incoming} method returning {@code message.ack()} does. */
    private static final class AckingSubscriber implements Subscriber<Message<?>> {
        long acked;

        @Override
        public void onSubscribe(Subscription s) {
        }

        @Override
        public void onNext(Message<?> message) {
            message.ack().thenRun(() -> acked++);
        }

        @Override
        public void onError(Throwable t) {
        }

        @Override
        public void onComplete() {
        }
    }
}
