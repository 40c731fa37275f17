package io.rmq.connector;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import io.rmq.connector.config.OutgoingChannelConfig;
import io.rmq.connector.i18n.RmqExceptions;
import io.rmq.connector.i18n.RmqLogging;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.SendResult;
import io.rmq.engine.TopicKeys;
import io.rmq.engine.TopicProducer;
import io.rmq.engine.TopicType;

/**
 * An outgoing channel: a Reactive Streams {@link Subscriber} that writes each message to its slot.
 * Up to {@code max-inflight} writes are pipelined on the shared connection. A message is acked once
 * Redis has stored or merged it, and nacked, with nothing written, when its payload or metadata is
 * invalid for the topic, when Redis fails, or when it arrives after the channel was closed.
 *
 * <p><b>Demand.</b> It requests {@code max-inflight} messages on subscription and one more each time
 * a message has been acked or nacked (the ack or nack stage completed), so at most
 * {@code max-inflight} messages are in its hands at once. Calls to the {@link Subscription} are
 * serialized through a {@link SerialExecutor} (Reactive Streams rule 2.7): they come from the
 * threads on which Redis replies arrive. Null signals throw {@link NullPointerException} (rule 2.13);
 * a second {@code onSubscribe} is cancelled (rule 2.5). The verification against the Reactive
 * Streams TCK is described in {@code docs/reactive-streams-tck.md}.
 *
 * <p><b>Lifecycle.</b> Created by the connector, subscribed once; {@link #close()} cancels the
 * subscription and completes when the writes under way have been answered. Thread-safe.
 */
final class OutgoingRmqChannel implements Subscriber<Message<?>> {

    private static final RmqLogging LOG = RmqLogging.log;

    private final OutgoingChannelConfig config;
    private final CompletionStage<TopicKeys> registered;
    /** Completes when the latest send that waited for the registration was issued. */
    private CompletionStage<?> issueOrder;
    private final TopicProducer producer;
    private final SerialExecutor upstream;
    private final AtomicBoolean subscribed = new AtomicBoolean();
    private final AtomicInteger inflight = new AtomicInteger();
    private final CompletableFuture<Void> drained = new CompletableFuture<>();
    private volatile Subscription subscription;
    /** No more demand: the upstream completed or failed, or the channel is closing. */
    private volatile boolean completed;
    /** Closed by the connector: messages still arriving are nacked. */
    private volatile boolean closed;

    OutgoingRmqChannel(OutgoingChannelConfig config, RmqEngine client) {
        this.config = config;
        this.upstream = new SerialExecutor("outgoing channel '" + config.channel() + "'");
        this.registered = client.registerTopic(config.topic());
        this.issueOrder = CompletableFuture.completedFuture(null);
        this.producer = client.producer(new TopicKeys(config.topic()));
        RmqConnectorSupport.failFastOnConflict(client, registered, config.channel());
        LOG.outgoingChannelStarted(config.channel(), config.topic().name(), config.topic().type().name(),
                config.topic().slotAmount());
    }

    String channel() {
        return config.channel();
    }

    @Override
    public void onSubscribe(Subscription s) {
        Objects.requireNonNull(s, "subscription (Reactive Streams rule 2.13)");
        if (!subscribed.compareAndSet(false, true)) {
            s.cancel(); // rule 2.5
            return;
        }
        subscription = s;
        if (closed) {
            upstream.execute(s::cancel); // closed before the runtime subscribed
            return;
        }
        upstream.execute(() -> s.request(config.maxInflight()));
    }

    /**
     * Runs a send once the topic is registered. Sends that arrive before that are issued in arrival
     * order (callbacks on one future would run last-in, first-out and turn "the last priority stands"
     * around); once registered, sends go out at once. Called from onNext only, which Reactive Streams
     * serializes.
     */
    private CompletionStage<SendResult> afterRegistration(java.util.function.Supplier<CompletionStage<SendResult>> send) {
        if (registered.toCompletableFuture().isDone()) {
            return registered.thenCompose(keys -> send.get());
        }
        CompletableFuture<Void> issued = new CompletableFuture<>();
        CompletionStage<SendResult> result = issueOrder
                .handle((previous, failure) -> null)
                .thenCompose(previous -> registered)
                .thenCompose(keys -> {
                    try {
                        return send.get();
                    } finally {
                        issued.complete(null);
                    }
                });
        result.whenComplete((r, f) -> issued.complete(null));
        issueOrder = issued;
        return result;
    }

    @Override
    public void onNext(Message<?> message) {
        Objects.requireNonNull(message, "message (Reactive Streams rule 2.13)");
        inflight.incrementAndGet();
        CompletionStage<SendResult> sent;
        if (closed) {
            sent = CompletableFuture.failedFuture(RmqExceptions.ex.channelClosed(config.channel()));
        } else {
            try {
                byte[] content = encode(message.getPayload());
                OutgoingRmqMetadata metadata = message.getMetadata(OutgoingRmqMetadata.class).orElse(null);
                sent = afterRegistration(() -> send(content, metadata));
            } catch (RuntimeException invalid) {
                LOG.messageNackedInvalidMetadata(config.channel(), invalid.getMessage());
                sent = CompletableFuture.failedFuture(invalid);
            }
        }
        sent.whenComplete((result, failure) -> settle(message, failure));
    }

    /** Acks or nacks the message, then, once that is done, asks for the next one. */
    private void settle(Message<?> message, Throwable failure) {
        CompletionStage<Void> settled;
        try {
            if (failure == null) {
                settled = message.ack();
            } else {
                Throwable cause = RmqConnectorSupport.unwrap(failure);
                if (!(cause instanceof IllegalArgumentException) && !closed) {
                    LOG.errorSendingMessage(config.channel(), config.topic().name(), cause);
                }
                settled = message.nack(cause);
            }
        } catch (RuntimeException e) {
            settled = null; // the application's ack or nack threw: the message is settled all the same
        }
        if (settled == null) {
            settled = CompletableFuture.completedFuture(null);
        }
        settled.whenComplete((v, f) -> onSettled());
    }

    private void onSettled() {
        if (inflight.decrementAndGet() == 0 && completed) {
            drained.complete(null);
        }
        if (!completed) {
            upstream.execute(() -> {
                Subscription s = subscription;
                if (s != null && !completed) {
                    s.request(1);
                }
            });
        }
    }

    private CompletionStage<SendResult> send(byte[] content, OutgoingRmqMetadata md) {
        TopicType type = config.topic().type();
        String basis = md == null ? null : md.getSlotBasis().orElse(null);
        switch (type) {
            case RANGE_MERGE: {
                rejectIfPresent(md != null && md.getPriority().isPresent(), "a priority");
                rejectIfPresent(md != null && (md.getDeliverAt().isPresent() || md.getDelay().isPresent()),
                        "a delivery time or delay");
                Optional<Duration> range = md == null ? Optional.empty() : md.getTimeRange();
                Duration r = range.or(config::defaultTimeRange)
                        .orElseThrow(() -> RmqExceptions.ex.missingTimeRange(config.channel(), config.topic().name()));
                return producer.sendInRange(content, r, basis);
            }
            case PRIORITY: {
                rejectIfPresent(md != null && md.getTimeRange().isPresent(), "a time range");
                rejectIfPresent(md != null && (md.getDeliverAt().isPresent() || md.getDelay().isPresent()),
                        "a delivery time or delay");
                OptionalDouble p = md == null ? OptionalDouble.empty() : md.getPriority();
                if (p.isEmpty()) {
                    p = config.defaultPriority();
                }
                if (p.isEmpty()) {
                    throw RmqExceptions.ex.missingPriority(config.channel(), config.topic().name());
                }
                return producer.sendWithPriority(content, p.getAsDouble(), basis);
            }
            case FIXED_TIME:
            default: {
                rejectIfPresent(md != null && md.getPriority().isPresent(), "a priority");
                rejectIfPresent(md != null && md.getTimeRange().isPresent(), "a time range");
                Instant at = Instant.now();
                if (md != null && md.getDeliverAt().isPresent()) {
                    at = md.getDeliverAt().get();
                } else if (md != null && md.getDelay().isPresent()) {
                    at = at.plus(md.getDelay().get());
                }
                return producer.sendAt(content, at, basis);
            }
        }
    }

    private void rejectIfPresent(boolean present, String what) {
        if (present) {
            throw RmqExceptions.ex.metadataNotForTopicType(config.channel(), config.topic().name(),
                    config.topic().type().name(), what);
        }
    }

    private byte[] encode(Object payload) {
        if (config.codec().isPresent()) {
            return config.codec().get().encode(payload);
        }
        if (payload instanceof String s) {
            return s.getBytes(StandardCharsets.UTF_8);
        }
        if (payload instanceof byte[] b) {
            return b;
        }
        throw RmqExceptions.ex.unsupportedPayloadType(config.channel(), payload == null ? null : payload.getClass());
    }

    @Override
    public void onError(Throwable t) {
        Objects.requireNonNull(t, "failure (Reactive Streams rule 2.13)");
        completed = true;
        LOG.errorSendingMessage(config.channel(), config.topic().name(), t);
        drainedIfIdle();
    }

    @Override
    public void onComplete() {
        completed = true;
        drainedIfIdle();
    }

    private void drainedIfIdle() {
        if (inflight.get() == 0) {
            drained.complete(null);
        }
    }

    /**
     * Stops requesting and cancels the subscription; messages that still arrive are nacked. Completes
     * when the writes under way have been answered, or after 5 s.
     */
    CompletionStage<Void> close() {
        closed = true;
        completed = true;
        upstream.execute(() -> {
            Subscription s = subscription;
            if (s != null) {
                s.cancel();
            }
        });
        drainedIfIdle();
        return drained.orTimeout(5, TimeUnit.SECONDS).exceptionally(f -> null);
    }
}
