package io.rmq.tck.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

import io.rmq.connector.IncomingRmqBatchMetadata;
import io.rmq.connector.IncomingRmqMetadata;
import io.rmq.tck.support.Inbox;
import io.rmq.tck.support.RedisProbe;

/**
 * Batch consumption ({@code batch=true}): the messages popped together reach the application as one
 * {@code List}, in the order they were popped (oldest due first), whether the method takes a
 * {@code Message<List<String>>} (with {@link IncomingRmqBatchMetadata}) or the {@code List<String>} itself;
 * one ack commits every message of the batch, and one nack settles every one of them by the channel's
 * {@code failure-strategy} (here {@code dead-letter}: all of them dead, each with the batch's reason).
 *
 * <p>Messages are written with one {@code ZADD} (due at once, popped together) into {@code FIXED_TIME} topics
 * of one slot.
 *
 * <p>A contract rule class: the contract suite runs it on Weld embedded and Open Liberty
 * ({@code io.rmq.tck.BatchIT}), the Quarkus example on Quarkus ({@code BatchContractIT}); {@link #CHANNELS}
 * are its channels, and its beans (the nested classes) are part of the application under test.
 */
public abstract class BatchRules {

    static final String MESSAGES = "batch-messages";
    static final String PAYLOADS = "batch-payloads";

    /** The channels of these rules. */
    public static final ContractChannels CHANNELS = ContractChannels.declare()
            .incoming(MESSAGES, topic("failure-strategy", "dead-letter"))
            .incoming(PAYLOADS, topic());

    private static Object[] topic(Object... more) {
        Object[] base = {"topic-type", "FIXED_TIME", "slot-amount", 1, "poll-interval", 200, "batch", true,
            "batch-size", 10};
        Object[] all = new Object[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    /** Takes each batch as a {@code Message<List<String>>}: acks it, or nacks it when it holds a "bad" payload. */
    @ApplicationScoped
    public static class MessageBatches {
        private final List<List<String>> batches = new CopyOnWriteArrayList<>();
        private final List<IncomingRmqBatchMetadata> metadata = new CopyOnWriteArrayList<>();

        public List<List<String>> batches() {
            return List.copyOf(batches);
        }

        public List<IncomingRmqBatchMetadata> metadata() {
            return List.copyOf(metadata);
        }

        @Incoming(MESSAGES)
        public CompletionStage<Void> consume(Message<List<String>> batch) {
            batches.add(List.copyOf(batch.getPayload()));
            metadata.add(batch.getMetadata(IncomingRmqBatchMetadata.class)
                    .orElseThrow(() -> new AssertionError("a batch without IncomingRmqBatchMetadata")));
            return batch.getPayload().stream().anyMatch(p -> p.startsWith("bad"))
                    ? batch.nack(new IllegalStateException("a bad payload in the batch")) : batch.ack();
        }
    }

    /** Takes each batch as its payloads; the runtime acks the batch when the method returns. */
    @ApplicationScoped
    public static class PayloadBatches {
        private final List<List<String>> batches = new CopyOnWriteArrayList<>();

        public List<List<String>> batches() {
            return List.copyOf(batches);
        }

        @Incoming(PAYLOADS)
        public void consume(List<String> payloads) {
            batches.add(List.copyOf(payloads));
        }
    }

    @Inject
    MessageBatches messageBatches;

    @Inject
    PayloadBatches payloadBatches;

    @Inject
    RedisProbe probe;

    @Test
    public void aBatchMessageHoldsThePoppedPayloadsAndOneAckCommitsThemAll() {
        probe.zaddPending(MESSAGES, 1, "m-1", 2, "m-2", 3, "m-3");

        await().atMost(Inbox.WAIT).until(() -> messageBatches.batches().stream().anyMatch(b -> b.contains("m-1")));
        int index = indexOf(messageBatches.batches(), "m-1");
        assertThat(messageBatches.batches().get(index)).as("popped together, in order").containsExactly("m-1", "m-2", "m-3");
        IncomingRmqBatchMetadata metadata = messageBatches.metadata().get(index);
        assertThat(metadata.getChannel()).isEqualTo(MESSAGES);
        assertThat(metadata.getMessages()).extracting(IncomingRmqMetadata::getScore).containsExactly(1.0, 2.0, 3.0);
        await().atMost(Inbox.WAIT).until(() -> probe.pending(MESSAGES).isEmpty() && probe.preparing(MESSAGES) == 0);
        // a plain commit counts its messages one round trip after removing them
        await().atMost(Inbox.WAIT).untilAsserted(() -> assertThat(probe.counter(MESSAGES, "acked")).as("every message committed").isEqualTo(3));
    }

    @Test
    public void oneNackSettlesEveryMessageOfTheBatchByTheFailureStrategy() {
        probe.zaddPending(MESSAGES, 11, "bad-1", 12, "n-2");

        await().atMost(Inbox.WAIT).until(() -> probe.dead(MESSAGES).size() == 2 && probe.preparing(MESSAGES) == 0);
        assertThat(probe.dead(MESSAGES)).containsExactlyInAnyOrder("bad-1", "n-2");
        assertThat(probe.failure(MESSAGES, "n-2")).as("each with the batch's reason").contains("a bad payload in the batch");
        assertThat(messageBatches.batches()).contains(List.of("bad-1", "n-2"));
    }

    @Test
    public void aMethodTakingTheListGetsThePayloadsAndItsReturnCommitsThemAll() {
        probe.zaddPending(PAYLOADS, 1, "p-1", 2, "p-2", 3, "p-3");

        await().atMost(Inbox.WAIT).until(() -> !payloadBatches.batches().isEmpty());
        assertThat(payloadBatches.batches().get(0)).as("popped together, in order").containsExactly("p-1", "p-2", "p-3");
        await().atMost(Inbox.WAIT).until(() -> probe.pending(PAYLOADS).isEmpty() && probe.preparing(PAYLOADS) == 0);
        await().atMost(Inbox.WAIT).untilAsserted(() -> assertThat(probe.counter(PAYLOADS, "acked")).as("every message committed").isEqualTo(3));
    }

    private static int indexOf(List<List<String>> batches, String payload) {
        for (int i = 0; i < batches.size(); i++) {
            if (batches.get(i).contains(payload)) {
                return i;
            }
        }
        throw new AssertionError("no batch holds " + payload + ": " + batches);
    }
}
