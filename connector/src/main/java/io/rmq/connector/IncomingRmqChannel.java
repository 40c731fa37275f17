package io.rmq.connector;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import io.rmq.connector.config.IncomingChannelConfig;
import io.rmq.connector.config.PayloadType;
import io.rmq.connector.i18n.RmqExceptions;
import io.rmq.connector.i18n.RmqLogging;
import io.rmq.connector.metrics.DeliveryMeter;
import io.rmq.connector.metrics.IncomingMetrics;
import io.rmq.connector.tracing.RmqTracing;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.DeliveryListener;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.topic.TopicKeys;

/**
 * An incoming channel: a single-subscriber Reactive Streams {@link Publisher} over a
 * {@link TopicConsumer}. Each {@link Message} is one popped member; {@code ack()} commits it and
 * {@code nack(reason)} rolls it back. Demand from the subscriber is passed to the consumer, which
 * pops only while there is demand and prefetches at most {@code batch-size} messages. A failed message (nacked,
 * or content that cannot become a payload) is settled by the channel's failure strategy ({@link ChannelFailures}).
 * With {@code batch=true} each {@link Message} carries a {@code List} of the payloads one pop gave
 * ({@link IncomingRmqBatch}), and the subscriber's demand counts batches ({@link BatchCollector}). The application
 * may pause and resume the channel ({@link #pause()}): it then pops nothing and returns its prefetch.
 *
 * <p><b>Reactive Streams.</b> The stream never completes: a queue has no end. The channel accepts
 * one subscriber; a second one, or one arriving after the channel was closed, receives
 * {@code onSubscribe} then {@code onError} (rule 1.9). {@code onNext} and {@code onError} are
 * serialized through a {@link SerialExecutor} (rule 1.3), which also bounds the
 * {@code request -> onNext -> request} recursion (rule 3.3). A non-positive {@code request} signals
 * {@code onError} with an {@link IllegalArgumentException} (rule 3.9). After {@code cancel()} the
 * channel drops its reference to the subscriber (rule 3.13) and signals nothing more once the
 * message being handed over, if any, is out; messages popped for it but not handed over are rolled
 * back or released. The verification against the Reactive Streams TCK, and the rules it cannot
 * check here, are described in {@code docs/reactive-streams-tck.md}.
 *
 * <p><b>Lifecycle.</b> Created by the connector, subscribed once, closed by the connector at shutdown
 * or by the subscriber's {@code cancel()}; both stop the consumer gracefully. Thread-safe.
 */
final class IncomingRmqChannel implements Publisher<Message<?>> {

    private static final RmqLogging LOG = RmqLogging.log;

    /** Given to subscribers that are refused, so that they can be sent {@code onError}. */
    private static final Subscription REFUSED = new Subscription() {
        @Override
        public void request(long n) {
        }

        @Override
        public void cancel() {
        }
    };

    private final IncomingChannelConfig config;
    private final CompletionStage<TopicKeys> registered;
    private final TopicConsumer consumer;
    private final IncomingMetrics metrics;
    /** {@link RmqTracing#OFF} when the channel does not trace. */
    private final RmqTracing tracing;
    private final String topicName;
    private final SerialExecutor signals;
    /** {@link #emit}, as one object for every message. */
    private final Consumer<IncomingRmqMessage> emitter = this::emit;
    private final ChannelStatus status;
    private final ChannelFailures failures;
    /** With {@code batch=true}, else null. */
    private final BatchCollector batches;
    /** {@link #emitBatch}, as one object. */
    private final Consumer<List<IncomingRmqMessage>> batchEmitter = this::emitBatch;
    private final AtomicBoolean subscribed = new AtomicBoolean();
    /** Set once by cancel, failure or close: no more demand is passed on and no subscriber is accepted. */
    private final AtomicBoolean terminated = new AtomicBoolean();
    /** The subscriber until it cancels or is sent {@code onError}; {@code null} before and after. */
    private volatile Subscriber<? super Message<?>> subscriber;

    IncomingRmqChannel(IncomingChannelConfig config, RmqEngine engine, IncomingMetrics metrics, RmqTracing tracing) {
        LOG.channelConfigured(config.channel(), config.toString());
        this.config = config;
        this.metrics = metrics;
        this.tracing = config.tracing().enabled() ? tracing : RmqTracing.OFF;
        ConsumerOptions options = this.tracing.active()
                ? config.consumerOptions().toBuilder().traced(true).traceLinks(config.tracing().maxLinks()).build()
                : config.consumerOptions();
        this.topicName = config.topic().name();
        this.signals = new SerialExecutor("incoming channel '" + config.channel() + "'");
        this.registered = engine.registerTopic(config.topic());
        this.consumer = engine.consumer(new TopicKeys(config.topic()), options, config.channel());
        this.status = ChannelStatus.incoming(config.channel(), topicName, engine, registered,
                config.consumerOptions().coordination().isPresent(), consumer::isCoordinationConnected,
                consumer::isThrottled);
        this.failures = new ChannelFailures(config.channel(), topicName, config.failureStrategy(), this::fail);
        this.batches = config.batch() ? new BatchCollector(config.batchSize(), consumer::request,
                batch -> signals.execute(batchEmitter, batch)) : null;
        RmqConnectorSupport.failFastOnConflict(engine, registered, config.channel());
    }

    String channel() {
        return config.channel();
    }

    /**
     * Pauses the channel for this application instance: it pops nothing more and hands nothing more over; what
     * it popped and has not handed over goes back to the store queue (with its score, no attempt counted),
     * except a batch gathered already, which waits; messages the application holds are settled as usual.
     */
    void pause() {
        consumer.pause();
        LOG.channelPaused(config.channel(), true);
    }

    /** Resumes after {@link #pause()}. */
    void resume() {
        consumer.resume();
        LOG.channelPaused(config.channel(), false);
    }

    /** Whether the application paused the channel. */
    boolean isPaused() {
        return consumer.isPaused();
    }

    /** How the channel stands now. */
    ChannelSnapshot snapshot() {
        return status.snapshot();
    }

    @Override
    public void subscribe(Subscriber<? super Message<?>> s) {
        Objects.requireNonNull(s, "subscriber (Reactive Streams rule 1.9)");
        if (!subscribed.compareAndSet(false, true)) {
            refuse(s, RmqExceptions.ex.channelAlreadySubscribed(config.channel()));
            return;
        }
        if (terminated.get()) {
            refuse(s, RmqExceptions.ex.channelClosed(config.channel()));
            return;
        }
        subscriber = s;
        // Through the executor: a message popped meanwhile is queued behind onSubscribe, not beside it.
        signals.execute(() -> {
            try {
                s.onSubscribe(new ChannelSubscription());
            } catch (RuntimeException e) {
                cancel(); // rule 2.13: a subscriber that throws is considered to have cancelled
                throw e;
            }
        });
        // Off the subscribing thread: the consumer starts once subscribe() has returned, so that a failure of the very
        // first message (failure-strategy=fail) reaches the subscriber as a runtime failure of the channel, not as an
        // error of the subscription itself (which SmallRye reports as a deployment error).
        registered.whenCompleteAsync((keys, failure) -> {
            if (failure != null) {
                fail(RmqConnectorSupport.unwrap(failure));
            } else if (!terminated.get()) {
                start();
            }
        });
    }

    private static void refuse(Subscriber<?> s, Throwable reason) {
        s.onSubscribe(REFUSED);
        s.onError(reason);
    }

    private void start() {
        try {
            consumer.start(new DeliveryListener() {
                @Override
                public void onDelivery(Delivery delivery) {
                    deliver(delivery);
                }

                @Override
                public void onHandOverEnd() {
                    if (batches != null) {
                        batches.handOverEnd();
                    }
                }

                @Override
                public void onThrottled(long waitedNanos) {
                    metrics.throttled(waitedNanos);
                }
            });
        } catch (IllegalStateException e) {
            return; // cancelled or closed between the check and the start: the consumer is closed
        }
        LOG.incomingChannelStarted(config.channel(), topicName, config.topic().type().name(),
                config.topic().slotAmount());
    }

    /** The subscription of the one subscriber; its methods may be called from any thread. */
    private final class ChannelSubscription implements Subscription {
        @Override
        public void request(long n) {
            if (terminated.get()) {
                return; // rule 3.6
            }
            if (n <= 0) {
                fail(RmqExceptions.ex.nonPositiveDemand(config.channel(), n));
                return;
            }
            if (batches == null) {
                consumer.request(n);
            } else {
                batches.request(n);
            }
        }

        @Override
        public void cancel() {
            IncomingRmqChannel.this.cancel();
        }
    }

    private void cancel() {
        if (terminated.compareAndSet(false, true)) {
            status.cancelled();
            subscriber = null; // rule 3.13
            settleGathered();
            consumer.closeAsync();
        }
    }

    /** Called by the consumer, on its thread, once per unit of demand. */
    private void deliver(Delivery delivery) {
        RmqTracing.ProcessSpan span = tracing.process(config.channel(), delivery, config.tracing().maxLinks());
        Object payload;
        try {
            payload = decode(delivery.content(), delivery.slot());
        } catch (NotUtf8 e) {
            LOG.contentNotUtf8(config.channel(), topicName, delivery.slot(), e.reason.getMessage());
            undeliverable(delivery, e.reason, span);
            return;
        } catch (RuntimeException e) {
            LOG.errorDecodingMessage(config.channel(), topicName, delivery.slot(), e);
            undeliverable(delivery, e, span);
            return;
        }
        IncomingRmqMetadata metadata = new IncomingRmqMetadata(config.channel(), delivery.topic(), delivery.slot(),
                delivery.attempt(), delivery.score(), delivery.priority(), delivery.flowKey());
        DeliveryMeter meter = metrics.meter(delivery); // null without metrics: nothing more allocated
        IncomingRmqMessage message = new IncomingRmqMessage(payload, metadata, delivery, meter, failures, span);
        if (batches == null) {
            signals.execute(emitter, message);
        } else {
            batches.add(message);
        }
    }

    /**
     * Rolls back a message that cannot become a payload. It took a unit of the subscriber's demand
     * without reaching the subscriber, so that unit is asked for again: a subscriber that requests one
     * message at a time would otherwise wait forever, and the channel would stall behind one bad message.
     */
    private void undeliverable(Delivery delivery, Throwable reason, RmqTracing.ProcessSpan span) {
        if (span != null) {
            delivery.attemptContext(span.traceparent());
            span.settled(failures.outcome(), reason);
        }
        failures.failed(delivery, reason);
        if (batches != null) {
            batches.skipped();
        } else if (!terminated.get()) {
            consumer.request(1);
        }
    }

    /** Serialized: hands a message to the subscriber, or rolls it back when there is none any more. */
    private void emit(IncomingRmqMessage message) {
        Delivery delivery = message.delivery();
        DeliveryMeter meter = message.meter();
        Subscriber<? super Message<?>> s = subscriber;
        if (s == null) {
            message.abandon(RmqExceptions.ex.channelClosed(config.channel()));
            return;
        }
        if (meter != null) {
            meter.handedOver();
        }
        try {
            s.onNext(message);
        } catch (RuntimeException e) {
            // rule 2.13 broken by the subscriber: treat it as a failed delivery, to be retried
            message.nack(e);
            throw e;
        }
    }

    /** Serialized: hands a batch to the subscriber, or rolls it back when there is none any more. */
    private void emitBatch(List<IncomingRmqMessage> messages) {
        Subscriber<? super Message<?>> s = subscriber;
        if (s == null) {
            messages.forEach(m -> m.abandon(RmqExceptions.ex.channelClosed(config.channel())));
            return;
        }
        for (IncomingRmqMessage m : messages) {
            if (m.meter() != null) {
                m.meter().handedOver();
            }
        }
        IncomingRmqBatch batch = new IncomingRmqBatch(config.channel(), messages);
        try {
            s.onNext(batch);
        } catch (RuntimeException e) {
            batch.nack(e); // rule 2.13 broken by the subscriber, as in emit
            throw e;
        }
    }

    /** Rolls back the messages of a batch gathered and never handed over, when the channel ends. */
    private void settleGathered() {
        if (batches != null) {
            batches.takeAll().forEach(m -> m.delivery().rollback(RmqExceptions.ex.channelClosed(config.channel())));
        }
    }

    private Object decode(byte[] content, int slot) {
        if (config.codec().isPresent()) {
            return RmqConnectorSupport.callCodec(config.codec().get(), config.channel(), "decode",
                    codec -> codec.decode(content));
        }
        return config.payloadType() == PayloadType.BYTES ? content : utf8(content, slot);
    }

    /**
     * The content as a String; content that is not UTF-8 (written by another client) is refused rather
     * than delivered with replacement characters, which would lose what it held.
     */
    private String utf8(byte[] content, int slot) {
        String text = new String(content, StandardCharsets.UTF_8);
        if (text.indexOf('\uFFFD') < 0) {
            return text; // the lenient decoding replaces what is malformed with U+FFFD: none, so all was UTF-8
        }
        // malformed, or a U+FFFD written as such: the strict decoder tells which
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder(); // reports malformed input
        ByteBuffer in = ByteBuffer.wrap(content);
        CharBuffer out = CharBuffer.allocate(content.length); // UTF-8 never decodes to more chars than bytes
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            throw new NotUtf8(RmqExceptions.ex.contentNotUtf8(config.channel(), topicName, slot, content.length,
                    in.position()));
        }
        return out.flip().toString();
    }

    /** Carries RMQ-2101 out of {@link #decode}, apart from the codec's failures. */
    private static final class NotUtf8 extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient IllegalArgumentException reason;

        NotUtf8(IllegalArgumentException reason) {
            super(null, null, false, false);
            this.reason = reason;
        }
    }

    /** Ends the stream with {@code onError}, unless it was cancelled, failed or closed before. */
    private void fail(Throwable failure) {
        if (terminated.compareAndSet(false, true)) {
            status.failed(failure);
            settleGathered();
            consumer.closeAsync();
            signals.execute(() -> {
                Subscriber<? super Message<?>> s = subscriber;
                subscriber = null;
                if (s != null) {
                    s.onError(failure);
                }
            });
        }
    }

    /**
     * Stops gracefully: stops popping, releases the prefetched messages and waits for the messages being
     * processed, within the consumer's own bound ({@link TopicConsumer#closeAsync()}: the shutdown
     * timeout plus a margin). A subscriber arriving later is refused.
     */
    CompletionStage<Void> close() {
        terminated.set(true);
        status.stopped();
        settleGathered();
        return consumer.closeAsync().thenRun(() -> LOG.channelStopped(config.channel()));
    }
}
