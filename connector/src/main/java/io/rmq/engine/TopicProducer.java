package io.rmq.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.rmq.engine.i18n.EngineExceptions;

/**
 * Sends messages to one topic: routes each to its slot and stores or merges it with the
 * {@code send} script (one Redis round trip, pipelined with other sends on the shared connection).
 * Thread-safe; holds no resources of its own.
 */
public final class TopicProducer {

    private final TopicScripts scripts;
    private final TopicDefinition topic;

    TopicProducer(TopicScripts scripts) {
        this.scripts = scripts;
        this.topic = scripts.keys().topic();
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
        return scripts.send(SlotRouter.slotOf(slotBasis, content, topic.slotAmount()), value, content);
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
