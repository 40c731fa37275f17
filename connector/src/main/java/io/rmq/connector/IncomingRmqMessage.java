package io.rmq.connector;

import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

import io.rmq.connector.i18n.RmqExceptions;
import io.rmq.connector.metrics.DeliveryMeter;
import io.rmq.connector.tracing.RmqTracing;
import io.rmq.engine.settlement.Delivery;

/**
 * The message an incoming channel emits for one delivery: {@code ack()} commits it and
 * {@code nack(reason)} settles it as the channel's failure strategy says (by default: rolls it back), and the
 * delivery's meter, when metrics are on, observes which. It behaves as
 * {@code Message.of(payload, Metadata.of(metadata), ack, nack)} would, in one object per message: the
 * {@link Metadata} is built only when asked for ({@link #getMetadata(Class)} finds the one metadata
 * without it), and the ack and nack functions only when a wrapping message asks for them.
 *
 * <p>Immutable apart from that cached {@link Metadata}; thread-safe.
 */
final class IncomingRmqMessage implements Message<Object> {

    private final Object payload;
    private final IncomingRmqMetadata metadata;
    private final Delivery delivery;
    /** Null without metrics. */
    private final DeliveryMeter meter;
    private final ChannelFailures failures;
    /** Null without tracing. */
    private final RmqTracing.ProcessSpan span;
    private volatile Metadata all;

    IncomingRmqMessage(Object payload, IncomingRmqMetadata metadata, Delivery delivery, DeliveryMeter meter,
            ChannelFailures failures) {
        this(payload, metadata, delivery, meter, failures, null);
    }

    IncomingRmqMessage(Object payload, IncomingRmqMetadata metadata, Delivery delivery, DeliveryMeter meter,
            ChannelFailures failures, RmqTracing.ProcessSpan span) {
        this.payload = payload;
        this.metadata = metadata;
        this.delivery = delivery;
        this.meter = meter;
        this.failures = failures;
        this.span = span;
    }

    /**
     * Rolls back a message the channel could not hand over (its subscriber went away), its span ending as a retry;
     * completes when Redis has done so.
     */
    CompletionStage<Void> abandon(Throwable reason) {
        if (span != null) {
            delivery.attemptContext(span.traceparent());
            span.settled("retry", reason);
        }
        return delivery.rollback(reason);
    }

    IncomingRmqMetadata rmqMetadata() {
        return metadata;
    }

    Delivery delivery() {
        return delivery;
    }

    DeliveryMeter meter() {
        return meter;
    }

    @Override
    public Object getPayload() {
        return payload;
    }

    @Override
    public Metadata getMetadata() {
        Metadata m = all;
        if (m == null) {
            m = Metadata.of(metadata);
            all = m; // a race builds two equal instances, no harm
        }
        return m;
    }

    /** As the default does over {@link #getMetadata()}, whose only element is the {@link IncomingRmqMetadata}. */
    @Override
    public <M> Optional<M> getMetadata(Class<? extends M> clazz) {
        if (clazz == null) {
            throw RmqExceptions.ex.nullArgument("clazz");
        }
        return clazz.isInstance(metadata) ? Optional.of(clazz.cast(metadata)) : Optional.empty();
    }

    @Override
    public CompletionStage<Void> ack() {
        if (meter != null) {
            meter.acked();
        }
        if (span != null) {
            span.settled("ack", null);
        }
        return delivery.commit();
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
        if (meter != null) {
            meter.nacked();
        }
        if (span != null) {
            delivery.attemptContext(span.traceparent());
            span.settled(failures.outcome(), reason);
        }
        return failures.failed(delivery, reason);
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
}
