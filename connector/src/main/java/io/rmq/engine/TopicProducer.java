package io.rmq.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

import io.rmq.engine.i18n.EngineExceptions;

/**
 * Sends messages to one topic: routes each to its slot and stores or merges it with the
 * {@code send} script. The sends of a slot that arrive while a call for the slot is under way travel
 * together in the next call (see {@link SlotBatcher}), so a busy producer costs one round trip per
 * slot and batch, not per message; a send alone leaves at once. Each send completes with its own
 * result.
 *
 * <p><b>Durable sends</b> ({@link ProducerOptions#durable()}): the calls go out on a connection of the
 * producer's own (on a cluster: one per master), and a send completes only once the required replicas have
 * the write ({@code WAIT}, one for everything written meanwhile; see {@link DurableConnection}), or fails with
 * {@link DurabilityException} when they do not within the timeout.
 *
 * <p>Thread-safe. A producer without durability holds no resources of its own; a durable one holds its
 * connection, closed with the engine.
 */
public final class TopicProducer {

    /** Most messages one send call carries: bounds the script's run time. */
    private static final int SENDS_PER_CALL = 256;

    private final TopicScripts scripts;
    private final TopicDefinition topic;
    private final ProducerOptions options;
    /** The connections of durable sends; {@code null} without durability. */
    private final DurableSends durable;
    private final Map<Integer, SlotBatcher<PendingSend>> batchers = new ConcurrentHashMap<>();

    private record PendingSend(TopicScripts.Send send, CompletableFuture<SendResult> result) {
    }

    /** @param durable where durable sends go; {@code null} when {@code options} asks for no replica */
    TopicProducer(TopicScripts scripts, ProducerOptions options, DurableSends durable) {
        this.scripts = scripts;
        this.topic = scripts.keys().topic();
        this.options = options;
        this.durable = durable;
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
        requireType(TopicType.RANGE_MERGE);
        if (range == null || range.isNegative() || range.isZero()) {
            return failed(EngineExceptions.ex.badTimeRange(String.valueOf(range)));
        }
        return send(content, Long.toString(range.toMillis()), slotBasis);
    }

    /** Sends a {@code PRIORITY} message; a higher priority is consumed first. */
    public CompletionStage<SendResult> sendWithPriority(byte[] content, double priority, String slotBasis) {
        requireType(TopicType.PRIORITY);
        if (!Double.isFinite(priority)) {
            return failed(EngineExceptions.ex.badPriority(priority));
        }
        return send(content, Double.toString(priority), slotBasis);
    }

    /** Sends a {@code FIXED_TIME} message due at {@code deliverAt} (a time in the past means due at once). */
    public CompletionStage<SendResult> sendAt(byte[] content, Instant deliverAt, String slotBasis) {
        requireType(TopicType.FIXED_TIME);
        if (deliverAt == null) {
            return failed(EngineExceptions.ex.missingDeliveryTime());
        }
        return send(content, Long.toString(deliverAt.toEpochMilli()), slotBasis);
    }

    private CompletionStage<SendResult> send(byte[] content, String value, String slotBasis) {
        Objects.requireNonNull(content, "content");
        int slot = SlotRouter.slotOf(slotBasis, content, topic.slotAmount());
        PendingSend pending = new PendingSend(new TopicScripts.Send(value, content), new CompletableFuture<>());
        SlotBatcher<PendingSend> batcher = batchers.get(slot); // no lambda allocated once the slot has one
        if (batcher == null) {
            batcher = batchers.computeIfAbsent(slot, this::newBatcher);
        }
        batcher.add(pending);
        return pending.result();
    }

    private SlotBatcher<PendingSend> newBatcher(int slot) {
        return new SlotBatcher<>(SENDS_PER_CALL, batch -> sendNow(slot, batch));
    }

    private CompletionStage<Void> sendNow(int slot, List<PendingSend> batch) {
        List<TopicScripts.Send> sends = new ArrayList<>(batch.size());
        batch.forEach(p -> sends.add(p.send()));
        CompletionStage<List<SendResult>> sent = durable == null ? scripts.send(slot, sends)
                : durable.forSlot(slot).thenCompose(connection -> connection.send(slot, sends));
        return sent.handle((results, failure) -> {
            for (int i = 0; i < batch.size(); i++) {
                if (failure != null) {
                    batch.get(i).result().completeExceptionally(failure);
                } else {
                    batch.get(i).result().complete(results.get(i));
                }
            }
            return null;
        });
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
