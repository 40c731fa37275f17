package io.rmq.engine.produce;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

import io.rmq.engine.i18n.EngineArguments;
import io.rmq.engine.i18n.EngineExceptions;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.scripts.SendResult;
import io.rmq.engine.scripts.TopicScripts;
import io.rmq.engine.support.CallGate;
import io.rmq.engine.support.SlotBatcher;
import io.rmq.engine.topic.FlowFeatures;
import io.rmq.engine.topic.KeyLimits;
import io.rmq.engine.topic.PriorityAging;
import io.rmq.engine.topic.SlotRouter;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;

/**
 * Sends messages to one topic: routes each to its slot and stores or merges it with the
 * {@code send} script. The sends of a slot that arrive while a call for the slot is under way travel
 * together in the next call (see {@link SlotBatcher}), so a busy producer costs one round trip per
 * slot and batch, not per message; a send alone leaves at once. At most {@value #SEND_CALLS_UNDER_WAY} calls of
 * the producer are under way together ({@link CallGate}; on a Redis Cluster one per slot): under load the calls are
 * fewer and larger. Each send completes with its own result.
 *
 * <p><b>Failures</b> are {@link SendFailedException}s, which say whether the message may have been stored
 * ({@link WriteState}): a call refused before it was written stored nothing; one whose reply was lost may have.
 *
 * <p><b>Durable sends</b> ({@link ProducerOptions#durable()}): the calls go out on a connection of the
 * producer's own (on a cluster: one per master), and a send completes only once the required replicas have
 * the write ({@code WAIT}, one for everything written meanwhile; see {@link DurableConnection}), or fails with
 * {@link DurabilityException} when they do not within the timeout. Every durable send is settled at the latest
 * {@link SendDeadlines#REPLY_ALLOWANCE} after its durability timeout, counted from the call that sent it
 * ({@link DurableSend}). A slot's next call leaves once the previous call's write has replied, not its
 * {@code WAIT}.
 *
 * <p><b>Growth</b> (see {@code docs/topic-growth.md}): a send routed by an amount the topic has grown beyond is
 * refused by the slot's split marker ({@code RMQ_SPLIT}); the producer then remembers that slot as split and
 * routes its messages again by the doubled amount: a message whose new slot is the old one goes there, one whose
 * new slot is the other half first tries to merge into a pending copy that the old slot held before the split
 * ({@code merge_pending.lua}), and goes to the new slot when it has none. Nothing is lost or stored twice on the
 * way: a refused call stored nothing.
 *
 * <p>Thread-safe. A producer without durability holds no resources of its own; a durable one holds its
 * connection, closed with the engine.
 */
public final class TopicProducer {

    /** Most messages one send call carries: bounds the script's run time. */
    private static final int SENDS_PER_CALL = 256;
    /**
     * Most send calls of this producer under way at once, over all its slots (not on a Redis Cluster, whose nodes work
     * apart): under load a slot's messages gather while the other slots' calls are out, so the calls are fewer and
     * larger (a call's fixed cost in Redis is spread over more messages); a producer with fewer calls out sends at
     * once.
     */
    static final int SEND_CALLS_UNDER_WAY = 4;

    private final TopicScripts scripts;
    private final TopicDefinition topic;
    private final ProducerOptions options;
    /** The connections of durable sends; {@code null} without durability. */
    private final DurableSends durable;
    /** By {@link #route(int, int)}: one batcher per slot and the amount its sends are routed by. */
    private final Map<Long, SlotBatcher<PendingSend>> batchers = new ConcurrentHashMap<>();
    /** Shared by the batchers: bounds the send calls under way together (not on a Redis Cluster). */
    private final CallGate sendCalls;
    /** Slots found split, by {@link #route(int, int)}: their messages are routed by the doubled amount. */
    private final Set<Long> split = ConcurrentHashMap.newKeySet();
    /** Split slots that hold no pre-split member any more: nothing there to merge into. */
    private final Set<Long> drained = ConcurrentHashMap.newKeySet();
    /** Whether the topic limits keys: each send then records its message's key ({@link #updateKeyLimits}). */
    private volatile boolean recordKeys;
    /** Keys recorded because this producer's channel configures limits per key, or the topic's flow hash has them. */
    private volatile boolean configuredKeys;
    private volatile boolean recordedKeys;

    /**
     * @param crc     the CRC32 of the slot basis (or content): its slot under any amount
     * @param durable its deadline and progress; {@code null} without durability
     */
    private record PendingSend(TopicScripts.Send send, long crc, CompletableFuture<SendResult> result,
            DurableSend durable) {
    }

    /** @param durable where durable sends go; {@code null} when {@code options} asks for no replica */
    public TopicProducer(TopicScripts scripts, ProducerOptions options, DurableSends durable) {
        this(scripts, options, durable, CompletableFuture.completedFuture(null));
    }

    /**
     * @param durable   where durable sends go; {@code null} when {@code options} asks for no replica
     * @param reachable completes once Redis was reached: the topic's aging epoch is read then (priority aging)
     */
    public TopicProducer(TopicScripts scripts, ProducerOptions options, DurableSends durable,
            CompletionStage<Void> reachable) {
        this.scripts = scripts;
        this.topic = scripts.keys().topic();
        this.options = options;
        this.durable = durable;
        // on a Redis Cluster the slots' calls go to several nodes, each of which works on its own: no common bound
        this.sendCalls = new CallGate(SEND_CALLS_UNDER_WAY, () -> !scripts.onCluster());
        if (options.priorityAging().on()) {
            if (topic.type() != TopicType.PRIORITY) {
                throw EngineArguments.arg.agingNeedsPriorityTopic(topic.name(), topic.type().name());
            }
            scripts.applyPriorityAging(options.priorityAging(), reachable).whenComplete((aging, failure) -> {
                if (failure != null) {
                    EngineLogging.log.agingEpochFailed(topic.name(), String.valueOf(failure.getMessage()));
                }
            });
        }
    }

    /**
     * Changes the priority aging of this producer's sends from the next send call on ({@link PriorityAging#OFF}:
     * none). Aging needs a {@code PRIORITY} topic. Settings without an epoch take the topic's, fixed by the first
     * producer that ever asked ({@code aging_epoch.lua}); until it is read the sends go on as before. The stage
     * completes with the settings in force.
     *
     * @throws IllegalArgumentException when aging is asked of a topic that is not {@code PRIORITY}
     */
    public CompletionStage<PriorityAging> updatePriorityAging(PriorityAging aging) {
        if (aging.on() && topic.type() != TopicType.PRIORITY) {
            throw EngineArguments.arg.agingNeedsPriorityTopic(topic.name(), topic.type().name());
        }
        return scripts.applyPriorityAging(aging);
    }

    /** The priority aging of this producer's sends ({@link PriorityAging#OFF} when off or its epoch is not read yet). */
    public PriorityAging priorityAging() {
        return scripts.priorityAging();
    }

    /**
     * The topic's limits per key, as this producer knows them: with a limit ({@link KeyLimits#on()}) each message sent
     * from now on records its key (its slot basis) for the consumers' limits; a message without a slot basis records
     * none and is not limited. {@link KeyLimits#NONE}: nothing is recorded, as before.
     */
    public void updateKeyLimits(KeyLimits limits) {
        this.configuredKeys = limits != null && limits.on();
        this.recordKeys = configuredKeys || recordedKeys;
    }

    /**
     * The topic's flow hash changed (generation {@code gen}, its {@code fields}; the engine tells every producer of the
     * topic): limits per key set there make this producer record keys, and an aging pace set there replaces the
     * configured one (both also when changed live). Without a hash ({@code gen} 0) the configured values stay.
     */
    public void followFlow(long gen, Map<String, String> fields) {
        if (gen == 0) {
            return;
        }
        FlowFeatures recorded;
        try {
            recorded = FlowFeatures.fromFlowFields(fields);
        } catch (IllegalArgumentException e) {
            EngineLogging.log.flowFeaturesUnreadable(topic.name(), "the producer", e.getMessage());
            return;
        }
        recordedKeys = recorded.keyLimits().on();
        recordKeys = configuredKeys || recordedKeys;
        PriorityAging aging = recorded.priorityAging().on() ? recorded.priorityAging() : options.priorityAging();
        if (topic.type() == TopicType.PRIORITY && aging.pacePerMilli() != scripts.priorityAging().pacePerMilli()) {
            scripts.applyPriorityAging(aging);
        }
    }

    /** Whether this producer's sends record their keys (limits per key configured, or set in the topic's flow hash). */
    public boolean recordsKeys() {
        return recordKeys;
    }

    /** How this producer confirms its sends. */
    public ProducerOptions options() {
        return options;
    }

    public TopicDefinition topic() {
        return topic;
    }

    /** Sends a {@code RANGE_MERGE} message: due {@code range} after now, merged with a pending duplicate. */
    public CompletionStage<SendResult> sendInRange(byte[] content, Duration range, String slotBasis) {
        return sendInRange(content, range, slotBasis, null);
    }

    /**
     * Sends a {@code RANGE_MERGE} message that expires at {@code expiry} ({@code null}: never); merged into a pending
     * duplicate, the duplicate's due time and expiry stand.
     */
    public CompletionStage<SendResult> sendInRange(byte[] content, Duration range, String slotBasis, Expiry expiry) {
        return sendInRange(content, range, slotBasis, expiry, null);
    }

    /** {@link #sendInRange(byte[], Duration, String, Expiry)} with the trace context of its send ({@code null}: none). */
    public CompletionStage<SendResult> sendInRange(byte[] content, Duration range, String slotBasis, Expiry expiry,
            SendTrace trace) {
        return sendInRange(content, range, slotBasis, expiry, trace, null);
    }

    /**
     * {@link #sendInRange(byte[], Duration, String, Expiry, SendTrace)} for {@code tenant} (fair share; {@code null}: none,
     * {@code ""}: the default tenant): written to the tenant's queue of its slot, merged only with that tenant's
     * pending duplicate. A tenant's queue keeps no expiry: a message with both fails (RMQ-0635).
     */
    public CompletionStage<SendResult> sendInRange(byte[] content, Duration range, String slotBasis, Expiry expiry,
            SendTrace trace, String tenant) {
        requireType(TopicType.RANGE_MERGE);
        if (range == null || range.isNegative() || range.isZero()) {
            return failed(EngineExceptions.ex.badTimeRange(String.valueOf(range)));
        }
        return send(content, Long.toString(range.toMillis()), slotBasis, expiry, trace, tenant);
    }

    /** Sends a {@code PRIORITY} message; a higher priority is consumed first. */
    public CompletionStage<SendResult> sendWithPriority(byte[] content, double priority, String slotBasis) {
        return sendWithPriority(content, priority, slotBasis, null);
    }

    /**
     * Sends a {@code PRIORITY} message that expires at {@code expiry} ({@code null}: never); merged into a pending
     * duplicate, this send's priority and expiry (or none) replace the duplicate's.
     */
    public CompletionStage<SendResult> sendWithPriority(byte[] content, double priority, String slotBasis, Expiry expiry) {
        return sendWithPriority(content, priority, slotBasis, expiry, null);
    }

    /** {@link #sendWithPriority(byte[], double, String, Expiry)} with the trace context of its send ({@code null}: none). */
    public CompletionStage<SendResult> sendWithPriority(byte[] content, double priority, String slotBasis, Expiry expiry,
            SendTrace trace) {
        return sendWithPriority(content, priority, slotBasis, expiry, trace, null);
    }

    /**
     * {@link #sendWithPriority(byte[], double, String, Expiry, SendTrace)} for {@code tenant} (fair share; {@code null}: none,
     * {@code ""}: the default tenant): written to the tenant's queue of its slot, merged only with that tenant's
     * pending duplicate. A tenant's queue keeps no expiry: a message with both fails (RMQ-0635).
     */
    public CompletionStage<SendResult> sendWithPriority(byte[] content, double priority, String slotBasis, Expiry expiry,
            SendTrace trace, String tenant) {
        requireType(TopicType.PRIORITY);
        if (!Double.isFinite(priority)) {
            return failed(EngineExceptions.ex.badPriority(priority));
        }
        return send(content, Double.toString(priority), slotBasis, expiry, trace, tenant);
    }

    /** Sends a {@code FIXED_TIME} message due at {@code deliverAt} (a time in the past means due at once). */
    public CompletionStage<SendResult> sendAt(byte[] content, Instant deliverAt, String slotBasis) {
        return sendAt(content, deliverAt, slotBasis, null);
    }

    /**
     * Sends a {@code FIXED_TIME} message due at {@code deliverAt} that expires at {@code expiry} ({@code null}: never);
     * merged into a pending duplicate, this send's time and expiry (or none) replace the duplicate's.
     */
    public CompletionStage<SendResult> sendAt(byte[] content, Instant deliverAt, String slotBasis, Expiry expiry) {
        return sendAt(content, deliverAt, slotBasis, expiry, null);
    }

    /** {@link #sendAt(byte[], Instant, String, Expiry)} with the trace context of its send ({@code null}: none). */
    public CompletionStage<SendResult> sendAt(byte[] content, Instant deliverAt, String slotBasis, Expiry expiry,
            SendTrace trace) {
        return sendAt(content, deliverAt, slotBasis, expiry, trace, null);
    }

    /**
     * {@link #sendAt(byte[], Instant, String, Expiry, SendTrace)} for {@code tenant} (fair share; {@code null}: none,
     * {@code ""}: the default tenant): written to the tenant's queue of its slot, merged only with that tenant's
     * pending duplicate. A tenant's queue keeps no expiry: a message with both fails (RMQ-0635).
     */
    public CompletionStage<SendResult> sendAt(byte[] content, Instant deliverAt, String slotBasis, Expiry expiry,
            SendTrace trace, String tenant) {
        requireType(TopicType.FIXED_TIME);
        if (deliverAt == null) {
            return failed(EngineExceptions.ex.missingDeliveryTime());
        }
        return send(content, Long.toString(deliverAt.toEpochMilli()), slotBasis, expiry, trace, tenant);
    }

    private CompletionStage<SendResult> send(byte[] content, String value, String slotBasis, Expiry expiry,
            SendTrace trace, String tenant) {
        Objects.requireNonNull(content, "content");
        if (tenant != null && expiry != null) {
            return failed(EngineExceptions.ex.tenantWithExpiry(topic.name(), tenant));
        }
        long crc = SlotRouter.crc(slotBasis, content);
        // with limits per key the key is recorded: the slot basis, or none ("") for a message routed by its content
        String flowKey = recordKeys ? (slotBasis == null ? "" : slotBasis) : null;
        TopicScripts.Send send = new TopicScripts.Send(value, content, expiry == null ? null : expiry.wireValue(),
                trace == null ? null : trace.traceparent(), trace == null ? 0 : trace.maxLinks(), tenant,
                flowKey);
        PendingSend pending;
        if (durable == null) {
            pending = new PendingSend(send, crc, new CompletableFuture<>(), null);
        } else {
            DurableSend tracked = durable.track();
            pending = new PendingSend(send, crc, tracked.result(), tracked);
        }
        int amount = topic.slotAmount();
        routeFrom(pending, amount, (int) (crc % amount));
        return pending.result();
    }

    /**
     * Sends {@code pending} to slot {@code slot} routed by {@code amount}, or, when that slot is known to be
     * split, on by the doubled amount (first merging into a pre-split copy when the new slot is the other half).
     */
    private void routeFrom(PendingSend pending, int amount, int slot) {
        int a = amount;
        int t = slot;
        while (!split.isEmpty() && split.contains(route(a, t))) {
            int next = (int) (pending.crc() % (2L * a));
            if (next != t && !drained.contains(route(a, t))) {
                mergeFirst(pending, a, t, next);
                return;
            }
            a *= 2;
            t = next;
        }
        long route = route(a, t);
        SlotBatcher<PendingSend> batcher = batchers.get(route); // no lambda allocated once the slot has one
        if (batcher == null) {
            batcher = batchers.computeIfAbsent(route, this::newBatcher);
        }
        batcher.add(pending);
    }

    private SlotBatcher<PendingSend> newBatcher(long route) {
        int slot = (int) route;
        int routedBy = (int) (route >>> 32);
        return new SlotBatcher<>(SENDS_PER_CALL, sendCalls, batch -> sendNow(slot, routedBy, batch));
    }

    /** While old slot {@code slot} holds pre-split members: merge into a pending copy there, else go to {@code next}. */
    private void mergeFirst(PendingSend pending, int amount, int slot, int next) {
        if (durable != null) {
            mergeFirstDurably(pending, amount, slot, next);
            return;
        }
        scripts.mergePending(slot, 2 * amount, List.of(pending.send())).whenComplete((reply, failure) -> {
            if (failure != null) {
                pending.result().completeExceptionally(SendFailedException.of(failure, topic.name()));
                return;
            }
            if (!reply.held()) {
                drained.add(route(amount, slot));
            }
            SendResult merged = reply.results().get(0);
            if (merged != null) {
                pending.result().complete(merged);
            } else {
                routeFrom(pending, 2 * amount, next);
            }
        });
    }

    /** {@link #mergeFirst} of a durable send: a merged send waits for its replicas, one not merged goes on. */
    private void mergeFirstDurably(PendingSend pending, int amount, int slot, int next) {
        DurableSend tracked = pending.durable();
        durable.forSlot(slot).whenComplete((connection, notConnected) -> {
            if (!tracked.claim()) {
                return; // expired before it was written
            }
            if (notConnected != null) {
                tracked.fail(SendFailedException.notWritten(notConnected, topic.name()));
                return;
            }
            connection.mergePending(slot, 2 * amount, pending.send(), tracked).whenComplete((reply, failure) -> {
                if (failure != null) {
                    tracked.fail(SendFailedException.of(failure, topic.name()));
                    return;
                }
                if (!reply.held()) {
                    drained.add(route(amount, slot));
                }
                if (reply.results().get(0) == null && tracked.unclaim()) {
                    routeFrom(pending, 2 * amount, next); // nothing to merge into: nothing written yet
                }
            });
        });
    }

    private static long route(int amount, int slot) {
        return ((long) amount << 32) | slot;
    }

    private CompletionStage<Void> sendNow(int slot, int routedBy, List<PendingSend> batch) {
        if (durable != null) {
            return sendDurably(slot, routedBy, batch);
        }
        List<TopicScripts.Send> sends = new ArrayList<>(batch.size());
        batch.forEach(p -> sends.add(p.send()));
        return scripts.send(slot, routedBy, sends).handle((results, failure) -> {
            if (failure != null && TopicScripts.refusedAsSplit(failure)) {
                // the slot was split by a growth: nothing was stored; route these again by the doubled amount
                split.add(route(routedBy, slot));
                batch.forEach(p -> routeFrom(p, routedBy, slot));
                return null;
            }
            SendFailedException failed = failure == null ? null : SendFailedException.of(failure, topic.name());
            for (int i = 0; i < batch.size(); i++) {
                if (failed != null) {
                    batch.get(i).result().completeExceptionally(failed);
                } else {
                    batch.get(i).result().complete(results.get(i));
                }
            }
            return null;
        });
    }

    /**
     * Writes the sends of {@code batch} that have not expired on the durable connection of the slot's master;
     * the stage completes once the write has replied (each send is then confirmed by its connection's
     * {@code WAIT}, or settled at its deadline).
     */
    private CompletionStage<Void> sendDurably(int slot, int routedBy, List<PendingSend> batch) {
        return durable.forSlot(slot).<CompletionStage<Void>>handle((connection, notConnected) -> {
            List<PendingSend> claimed = new ArrayList<>(batch.size());
            for (PendingSend p : batch) {
                if (p.durable().claim()) { // not expired while it waited for the slot or the connection
                    claimed.add(p);
                }
            }
            if (claimed.isEmpty()) {
                return CompletableFuture.<Void>completedFuture(null);
            }
            if (notConnected != null) {
                SendFailedException failed = SendFailedException.notWritten(notConnected, topic.name());
                claimed.forEach(p -> p.durable().fail(failed));
                return CompletableFuture.<Void>completedFuture(null);
            }
            List<TopicScripts.Send> sends = new ArrayList<>(claimed.size());
            List<DurableSend> each = new ArrayList<>(claimed.size());
            claimed.forEach(p -> {
                sends.add(p.send());
                each.add(p.durable());
            });
            return connection.send(slot, routedBy, sends, each).<Void>handle((results, failure) -> {
                if (failure == null) {
                    return null; // stored: the connection confirms each send, or its deadline settles it
                }
                if (TopicScripts.refusedAsSplit(failure)) {
                    split.add(route(routedBy, slot));
                    claimed.stream().filter(p -> p.durable().unclaim()).forEach(p -> routeFrom(p, routedBy, slot));
                    return null;
                }
                SendFailedException failed = SendFailedException.of(failure, topic.name());
                claimed.forEach(p -> p.durable().fail(failed));
                return null;
            });
        }).thenCompose(replied -> replied);
    }

    private void requireType(TopicType expected) {
        if (topic.type() != expected) {
            throw EngineExceptions.ex.wrongTopicType(topic.name(), topic.type().name(), expected.name());
        }
    }

    private static <T> CompletionStage<T> failed(Throwable t) {
        return CompletableFuture.failedFuture(t);
    }
}
