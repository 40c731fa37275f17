package io.rmq.connector;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import io.rmq.connector.config.IncomingChannelConfig;
import io.rmq.connector.config.PayloadType;
import io.rmq.connector.i18n.RmqLogging;
import io.rmq.engine.Delivery;
import io.rmq.engine.RmqClient;
import io.rmq.engine.TopicConsumer;
import io.rmq.engine.TopicKeys;

/**
 * An incoming channel: a single-subscriber Reactive Streams {@link Publisher} over a
 * {@link TopicConsumer}. Each {@link Message} is one popped member; {@code ack()} commits it and
 * {@code nack(reason)} rolls it back. Demand from the subscriber is passed to the consumer, which
 * pops only while there is demand and prefetches at most {@code batch-size} messages.
 *
 * <p>Lifecycle: created by the connector, subscribed once, closed by the connector at shutdown or
 * by the subscriber's {@code cancel()}; both stop the consumer gracefully.
 */
final class IncomingRmqChannel implements Publisher<Message<?>> {

    private static final RmqLogging LOG = RmqLogging.log;

    private final IncomingChannelConfig config;
    private final CompletionStage<TopicKeys> registered;
    private final TopicConsumer consumer;
    private final AtomicBoolean subscribed = new AtomicBoolean();
    private final AtomicBoolean terminated = new AtomicBoolean();
    private final String topicName;
    private volatile Subscriber<? super Message<?>> subscriber;

    IncomingRmqChannel(IncomingChannelConfig config, RmqClient client) {
        this.config = config;
        this.topicName = config.topic().name();
        this.registered = client.registerTopic(config.topic());
        this.consumer = client.consumer(new TopicKeys(config.topic()), config.consumerOptions(), config.channel());
        RmqConnectorSupport.failFastOnConflict(registered, config.channel());
    }

    String channel() {
        return config.channel();
    }

    @Override
    public void subscribe(Subscriber<? super Message<?>> s) {
        Objects.requireNonNull(s, "subscriber");
        if (!subscribed.compareAndSet(false, true)) {
            s.onSubscribe(new Subscription() {
                @Override
                public void request(long n) {
                }

                @Override
                public void cancel() {
                }
            });
            s.onError(new IllegalStateException("Channel '" + config.channel() + "' accepts a single subscriber"));
            return;
        }
        this.subscriber = s;
        s.onSubscribe(new Subscription() {
            @Override
            public void request(long n) {
                if (terminated.get()) {
                    return;
                }
                if (n <= 0) {
                    fail(new IllegalArgumentException("Channel '" + config.channel()
                            + "': request(" + n + ") violates Reactive Streams rule 3.9, demand must be positive"));
                    return;
                }
                consumer.request(n);
            }

            @Override
            public void cancel() {
                if (terminated.compareAndSet(false, true)) {
                    consumer.closeAsync();
                }
            }
        });
        registered.whenComplete((keys, failure) -> {
            if (failure != null) {
                fail(RmqConnectorSupport.unwrap(failure));
            } else if (!terminated.get()) {
                consumer.start(this::deliver);
                LOG.incomingChannelStarted(config.channel(), topicName, config.topic().type().name(),
                        config.topic().slotAmount());
            }
        });
    }

    private void deliver(Delivery delivery) {
        if (terminated.get()) {
            delivery.rollback(new IllegalStateException("channel '" + config.channel() + "' was cancelled"));
            return;
        }
        Object payload;
        try {
            payload = decode(delivery.content());
        } catch (RuntimeException e) {
            LOG.errorDecodingMessage(config.channel(), topicName, delivery.slot(), e);
            delivery.rollback(e);
            return;
        }
        IncomingRmqMetadata metadata = new IncomingRmqMetadata(config.channel(), delivery.topic(), delivery.slot(),
                delivery.attempt(), delivery.score());
        subscriber.onNext(Message.of(payload, Metadata.of(metadata), delivery::commit,
                reason -> delivery.rollback(reason)));
    }

    private Object decode(byte[] content) {
        if (config.codec().isPresent()) {
            return config.codec().get().decode(content);
        }
        return config.payloadType() == PayloadType.BYTES ? content : new String(content, StandardCharsets.UTF_8);
    }

    private void fail(Throwable failure) {
        if (terminated.compareAndSet(false, true)) {
            consumer.closeAsync();
            Subscriber<? super Message<?>> s = subscriber;
            if (s != null) {
                s.onError(failure);
            }
        }
    }

    /** Stops gracefully; waits at most the shutdown timeout plus a margin. */
    CompletionStage<Void> close() {
        terminated.set(true);
        CompletionStage<Void> stop = consumer.closeAsync();
        return stop.toCompletableFuture()
                .orTimeout(config.consumerOptions().shutdownTimeout().toMillis() + 5_000, TimeUnit.MILLISECONDS)
                .exceptionally(f -> null)
                .thenRun(() -> LOG.channelStopped(config.channel()));
    }

    /** Messages popped and not yet committed or rolled back. */
    int heldCount() {
        return consumer.heldCount();
    }

    static CompletionStage<Void> done() {
        return CompletableFuture.completedFuture(null);
    }
}
