package io.rmq.connector;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import io.rmq.connector.config.OutgoingChannelConfig;
import io.rmq.connector.i18n.RmqExceptions;
import io.rmq.connector.i18n.RmqLogging;
import io.rmq.connector.metrics.OutgoingMetrics;
import io.rmq.connector.tracing.RmqTracing;
import io.rmq.connector.config.ScheduleDeclaration;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.schedule.ScheduleRunner;
import io.rmq.engine.produce.DurabilityException;
import io.rmq.engine.produce.Expiry;
import io.rmq.engine.produce.SendRules;
import io.rmq.engine.produce.SendTrace;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.produce.WriteState;
import io.rmq.engine.scripts.SendResult;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;

/**
 * An outgoing channel: a Reactive Streams {@link Subscriber} that writes each message to its slot.
 * Up to {@code max-inflight} writes are pipelined on the shared connection. A message is acked once
 * Redis has stored or merged it, and nacked, with nothing written, when its payload or metadata is
 * invalid for the topic, when its content is larger than {@code max-message-size}, when Redis fails,
 * or when it arrives after the channel was closed. A nack's reason says whether the message may have been
 * written ({@link WriteState#of(Throwable)}; {@link RmqSendException}). With {@code durability=replicas:<n>} the
 * writes go on a connection of the channel's own, and a message is acked only once n replicas have it, nacked
 * (RMQ-2040) when they do not within {@code durability-timeout}.
 *
 * <p><b>Demand.</b> It requests {@code max-inflight} messages on subscription and one more for each
 * message that has been acked or nacked (the ack or nack stage completed; messages that settle while
 * a request is on its way are asked for together, in one {@code request(n)}), so at most
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
    /** The channel's {@code time-to-live} as an expiry, or {@code null}. */
    private final Expiry defaultExpiry;
    private final CompletionStage<TopicKeys> registered;
    /** Completes when the latest send that waited for the registration was issued. */
    private CompletionStage<?> issueOrder;
    private final TopicProducer producer;
    private final PayloadEncoder encoder;
    private final OutgoingMetrics metrics;
    /** {@link RmqTracing#OFF} when the channel does not trace. */
    private final RmqTracing tracing;
    private final SerialExecutor upstream;
    private final ChannelStatus status;
    /** Runs the schedules of the topic here once the topic is registered and the declared ones recorded. */
    private final CompletableFuture<ScheduleRunner> schedules;
    /** The Redis URI with any password hidden, for errors. */
    private final String redisDisplayUri;
    private final AtomicBoolean subscribed = new AtomicBoolean();
    private final AtomicInteger inflight = new AtomicInteger();
    /** Messages settled and not yet asked for again (see {@link #onSettled()}). */
    private final AtomicInteger owed = new AtomicInteger();
    /** Whether RMQ-1040 was logged and no durable send was confirmed since. */
    private final AtomicBoolean replicasMissing = new AtomicBoolean();
    private final CompletableFuture<Void> drained = new CompletableFuture<>();
    private volatile Subscription subscription;
    /** No more demand: the upstream completed or failed, or the channel is closing. */
    private volatile boolean completed;
    /** Closed by the connector: messages still arriving are nacked. */
    private volatile boolean closed;

    OutgoingRmqChannel(OutgoingChannelConfig config, RmqEngine engine, OutgoingMetrics metrics, RmqTracing tracing) {
        LOG.channelConfigured(config.channel(), config.toString());
        this.config = config;
        this.tracing = config.tracing().enabled() ? tracing : RmqTracing.OFF;
        this.defaultExpiry = config.defaultTimeToLive().map(Expiry::after).orElse(null);
        this.metrics = metrics;
        this.upstream = new SerialExecutor("outgoing channel '" + config.channel() + "'");
        this.registered = engine.registerTopic(config.topic());
        this.issueOrder = CompletableFuture.completedFuture(null);
        this.producer = engine.producer(new TopicKeys(config.topic()), config.producerOptions());
        producer.updateKeyLimits(config.keyLimits());
        this.encoder = new PayloadEncoder(config.codec(), config.channel(), config.topic().name());
        this.status = ChannelStatus.outgoing(config.channel(), config.topic().name(), engine, registered);
        this.redisDisplayUri = engine.displayUri();
        RmqConnectorSupport.failFastOnConflict(engine, registered, config.channel());
        this.schedules = registered.thenCompose(keys -> recordSchedules(engine, keys))
                .thenApply(ignored -> engine.runSchedules(config.topic().keyPrefix(), Set.of(config.topic().name())))
                .toCompletableFuture();
        LOG.outgoingChannelStarted(config.channel(), config.topic().name(), config.topic().type().name(),
                config.topic().slotAmount());
    }

    String channel() {
        return config.channel();
    }

    /**
     * Records the schedules the channel declares, with the registered topic's definition (its grown amount, if
     * it grew); one that cannot be recorded is logged (RMQ-2341) and the others are recorded.
     */
    private CompletionStage<Void> recordSchedules(RmqEngine engine, TopicKeys keys) {
        List<ScheduleDeclaration> declared = config.schedules();
        List<CompletableFuture<?>> records = new ArrayList<>();
        for (ScheduleDeclaration d : declared) {
            CompletionStage<?> record;
            try {
                record = engine.schedules().define(d.definition(keys.topic(), config));
            } catch (IllegalArgumentException e) {
                record = CompletableFuture.failedFuture(e);
            }
            records.add(record.toCompletableFuture().exceptionally(failure -> {
                LOG.scheduleNotRecorded(config.channel(), d.name(),
                        failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure);
                return null;
            }));
        }
        return CompletableFuture.allOf(records.toArray(CompletableFuture[]::new)).thenRun(() -> {
            if (!declared.isEmpty()) {
                LOG.schedulesRecorded(config.channel(), keys.topic().name(),
                        declared.stream().map(ScheduleDeclaration::name).toList().toString());
            }
        });
    }

    /** How the channel stands now. */
    ChannelSnapshot snapshot() {
        return status.snapshot();
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
    private CompletionStage<SendResult> afterRegistration(Supplier<CompletionStage<SendResult>> send) {
        CompletableFuture<TopicKeys> registration = registered.toCompletableFuture();
        if (registration.isDone()) {
            // the common case, once started: no stage per message
            return registration.isCompletedExceptionally() ? registered.thenCompose(keys -> send.get()) : send.get();
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
        if (closed) {
            settle(message, RmqExceptions.ex.channelClosed(config.channel()));
            return;
        }
        byte[] content;
        try {
            content = encoder.encode(message.getPayload());
        } catch (RuntimeException unencodable) {
            settle(message, unencodable); // logged by the encoder
            return;
        }
        if (content.length > config.maxMessageSize()) {
            LOG.messageNackedTooLarge(config.channel(), config.topic().name(), content.length, config.maxMessageSize());
            settle(message, RmqExceptions.ex.messageTooLarge(config.channel(), config.topic().name(), content.length,
                    config.maxMessageSize()));
            return;
        }
        Supplier<CompletionStage<SendResult>> write;
        RmqTracing.SendSpan span = tracing.send(config.channel(), config.topic());
        try {
            write = writeOf(content, message.getMetadata(OutgoingRmqMetadata.class).orElse(null), span);
        } catch (IllegalArgumentException invalid) {
            LOG.messageNackedInvalidMetadata(config.channel(), invalid.getMessage());
            if (span != null) {
                span.failed(invalid);
            }
            settle(message, invalid);
            return;
        }
        afterRegistration(write).whenComplete((result, failure) -> {
            Throwable cause = failure == null ? null : RmqConnectorSupport.unwrap(failure);
            if (span != null) {
                if (cause == null) {
                    span.sent(result);
                } else {
                    span.failed(cause);
                }
            }
            if (cause instanceof DurabilityException notReplicated) {
                if (replicasMissing.compareAndSet(false, true)) {
                    LOG.durableSendsNotReplicated(config.channel(), config.topic().name(), notReplicated.reached(),
                            notReplicated.required(), config.producerOptions().durabilityTimeout().toMillis());
                }
            } else if (cause != null && !closed) {
                LOG.errorSendingMessage(config.channel(), config.topic().name(), cause);
            }
            if (cause == null) {
                if (replicasMissing.compareAndSet(true, false)) {
                    LOG.durableSendsReplicatedAgain(config.channel(), config.topic().name(),
                            config.producerOptions().durableReplicas());
                }
                metrics.sent(result);
            }
            settle(message, cause == null ? null : RmqSendException.nackReason(cause, config, redisDisplayUri));
        });
    }

    /** Acks the message, or nacks it when {@code failure} is set, then, once that is done, asks for the next one. */
    private void settle(Message<?> message, Throwable failure) {
        CompletionStage<Void> settled;
        try {
            if (failure == null) {
                settled = message.ack();
            } else {
                settled = message.nack(failure);
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
        // Under load many messages settle while one request is on its way: they are asked for again
        // together, in one request(n), rather than one executor task and one request(1) each.
        if (!completed && owed.getAndIncrement() == 0) {
            upstream.execute(this::requestOwed);
        }
    }

    /** Serialized: asks the upstream for as many messages as have settled since the last request. */
    private void requestOwed() {
        int n = owed.getAndSet(0);
        Subscription s = subscription;
        if (n > 0 && s != null && !completed) {
            s.request(n);
        }
    }

    /**
     * The write of one message, its metadata checked against the topic's type first ({@link SendRules});
     * nothing is written until the write is run.
     *
     * @throws IllegalArgumentException when the metadata does not fit the topic (RMQ-2004, RMQ-2005, RMQ-2010)
     */
    private Supplier<CompletionStage<SendResult>> writeOf(byte[] content, OutgoingRmqMetadata md, RmqTracing.SendSpan span) {
        TopicType type = config.topic().type();
        SendRules.Parameters given = md == null
                ? new SendRules.Parameters(Optional.empty(), OptionalDouble.empty(), Optional.empty(), Optional.empty(), null)
                : new SendRules.Parameters(md.getTimeRange(), md.getPriority(), md.getDeliverAt(), md.getDelay(),
                        md.getSlotBasis().orElse(null), expiryOf(md));
        Optional<SendRules.Parameter> misplaced = SendRules.misplaced(type, given);
        if (misplaced.isPresent()) {
            throw RmqExceptions.ex.metadataNotForTopicType(config.channel(), config.topic().name(), type.name(),
                    misplaced.get().description());
        }
        SendRules.Parameters parameters = given.orDefaults(config.defaultTimeRange(), config.defaultPriority())
                .orDefaultExpiry(defaultExpiry);
        Optional<SendRules.Parameter> missing = SendRules.missing(type, parameters);
        if (missing.isPresent()) {
            throw missing.get() == SendRules.Parameter.TIME_RANGE
                    ? RmqExceptions.ex.missingTimeRange(config.channel(), config.topic().name())
                    : RmqExceptions.ex.missingPriority(config.channel(), config.topic().name());
        }
        String traceparent = span == null ? null : span.traceparent();
        String tenant = md == null ? null : md.getTenant().orElse(null);
        if (tenant == null) {
            tenant = config.tenantFromKey(parameters.slotBasis()).orElse(null);
        }
        return SendRules.write(producer, type, content, traceparent == null ? parameters
                : parameters.withTrace(new SendTrace(traceparent, config.tracing().maxLinks())), tenant);
    }

    /** The expiry the metadata gives, or {@code null}. */
    private static Expiry expiryOf(OutgoingRmqMetadata md) {
        return md.getExpiresAt().map(Expiry::at).orElseGet(() -> md.getTimeToLive().map(Expiry::after).orElse(null));
    }

    @Override
    public void onError(Throwable t) {
        Objects.requireNonNull(t, "failure (Reactive Streams rule 2.13)");
        completed = true;
        status.failed(t);
        LOG.upstreamFailed(config.channel(), t);
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
        schedules.thenAccept(ScheduleRunner::close);
        completed = true;
        status.stopped();
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
