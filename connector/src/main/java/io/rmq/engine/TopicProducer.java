package io.rmq.engine;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Sends messages to one topic: routes each to its slot and stores or merges it with the
 * {@code send} script (one Redis round trip, pipelined with other sends on the shared connection).
 * Thread-safe; holds no resources of its own.
 */
public final class TopicProducer {

    private final RmqEngine client;
    private final TopicKeys keys;
    private final byte[] wakeChannel;
    private final byte[] typeName;

    TopicProducer(RmqEngine client, TopicKeys keys) {
        this.client = client;
        this.keys = keys;
        this.wakeChannel = RmqEngine.bytes(keys.wakeChannel());
        this.typeName = RmqEngine.bytes(keys.topic().type().name());
    }

    public TopicDefinition topic() {
        return keys.topic();
    }

    /** Sends a {@code RANGE_MERGE} message: due {@code range} after now, merged with a pending duplicate. */
    public CompletionStage<SendResult> sendInRange(byte[] content, Duration range, String slotBasis) {
        requireType(TopicType.RANGE_MERGE);
        if (range == null || range.isNegative() || range.isZero()) {
            return failed(new IllegalArgumentException("a RANGE_MERGE message needs a time range > 0 ms, was " + range));
        }
        return send(content, Long.toString(range.toMillis()), slotBasis);
    }

    /** Sends a {@code PRIORITY} message; a higher priority is consumed first. */
    public CompletionStage<SendResult> sendWithPriority(byte[] content, double priority, String slotBasis) {
        requireType(TopicType.PRIORITY);
        if (!Double.isFinite(priority)) {
            return failed(new IllegalArgumentException("a PRIORITY message needs a finite priority, was " + priority));
        }
        return send(content, Double.toString(priority), slotBasis);
    }

    /** Sends a {@code FIXED_TIME} message due at {@code deliverAt} (a time in the past means due at once). */
    public CompletionStage<SendResult> sendAt(byte[] content, Instant deliverAt, String slotBasis) {
        requireType(TopicType.FIXED_TIME);
        if (deliverAt == null) {
            return failed(new IllegalArgumentException("a FIXED_TIME message needs a delivery time"));
        }
        return send(content, Long.toString(deliverAt.toEpochMilli()), slotBasis);
    }

    private CompletionStage<SendResult> send(byte[] content, String value, String slotBasis) {
        Objects.requireNonNull(content, "content");
        int slot = SlotRouter.slotOf(slotBasis, content, keys.topic().slotAmount());
        SlotKeys slotKeys = keys.slot(slot);
        ScriptRunner scripts;
        try {
            scripts = client.scripts();
        } catch (RuntimeException e) {
            return failed(e);
        }
        return scripts.<List<Object>>run(RedisScript.SEND,
                new byte[][] { RmqEngine.bytes(slotKeys.store()), RmqEngine.bytes(slotKeys.prepare()) },
                typeName, RmqEngine.bytes(value), content, wakeChannel, RmqEngine.bytes(Integer.toString(slot)))
                .thenApply(reply -> new SendResult(((Long) reply.get(0)) == 1L, slot,
                        Double.parseDouble(new String((byte[]) reply.get(1), StandardCharsets.US_ASCII))));
    }

    private void requireType(TopicType expected) {
        if (keys.topic().type() != expected) {
            throw new IllegalArgumentException("topic '" + keys.topic().name() + "' is of type "
                    + keys.topic().type() + ", not " + expected);
        }
    }

    private static <T> CompletionStage<T> failed(Throwable t) {
        return CompletableFuture.failedFuture(t);
    }
}
