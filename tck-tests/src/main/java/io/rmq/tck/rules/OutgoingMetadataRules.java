package io.rmq.tck.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.zip.CRC32;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.junit.jupiter.api.Test;

import io.rmq.connector.OutgoingRmqMetadata;
import io.rmq.tck.support.Outbox;
import io.rmq.tck.support.RedisProbe;

/**
 * Outgoing channels: a message is acked once Redis has stored it, where its metadata (or the
 * channel's defaults) says; a message whose payload or metadata cannot be used for the topic is
 * nacked with a reason naming the channel, and nothing is written. No incoming channel here: what
 * was written stays in Redis to be looked at.
 *
 * <p>A contract rule class: the contract suite runs it on Weld embedded and Open Liberty
 * ({@code io.rmq.tck.OutgoingMetadataIT}), the Quarkus example on Quarkus ({@code OutgoingMetadataContractIT}); {@link #CHANNELS}
 * are its channels, and its beans (the nested classes) are part of the application under test.
 */
public abstract class OutgoingMetadataRules {

    /** The {@code slot-amount} of the channel meta-routed-out. */
    static final int ROUTED_SLOTS = 8;

    /** The channels of these rules: outgoing channels only. */
    public static final ContractChannels CHANNELS = ContractChannels.declare()
            .outgoing("meta-tasks-out", "topic", "meta-tasks", "topic-type", "PRIORITY", "slot-amount", 1)
            .outgoing("meta-routine-tasks-out", "topic", "meta-tasks", "topic-type", "PRIORITY", "slot-amount", 1, "priority", 7)
            .outgoing("meta-prices-out", "topic", "meta-prices", "topic-type", "RANGE_MERGE", "slot-amount", 1)
            .outgoing("meta-timeouts-out", "topic", "meta-timeouts", "topic-type", "FIXED_TIME", "slot-amount", 1)
            .outgoing("meta-routed-out", "topic", "meta-routed", "topic-type", "FIXED_TIME", "slot-amount", ROUTED_SLOTS);

    /** The application's emitters. */
    @ApplicationScoped
    public static class Producers {
        @Inject
        @Channel("meta-tasks-out")
        Emitter<Object> tasks;

        @Inject
        @Channel("meta-routine-tasks-out")
        Emitter<Object> routineTasks;

        @Inject
        @Channel("meta-prices-out")
        Emitter<Object> prices;

        @Inject
        @Channel("meta-timeouts-out")
        Emitter<Object> timeouts;

        @Inject
        @Channel("meta-routed-out")
        Emitter<Object> routed;

        public Emitter<Object> tasks() {
            return tasks;
        }

        public Emitter<Object> routineTasks() {
            return routineTasks;
        }

        public Emitter<Object> prices() {
            return prices;
        }

        public Emitter<Object> timeouts() {
            return timeouts;
        }

        public Emitter<Object> routed() {
            return routed;
        }
    }

    @Inject
    Producers producers;

    @Inject
    RedisProbe probe;

    @Test
    public void aMessageIsAckedOnceRedisHoldsItWithTheScoreItsMetadataGives() {
        Outbox.sendAndAwaitAck(producers.tasks(), "refund order-9", OutgoingRmqMetadata.builder().withPriority(42.5).build());
        assertThat(probe.pendingScore("meta-tasks", "refund order-9")).isEqualTo(42.5);

        Instant at = Instant.ofEpochMilli(probe.redisTimeMillis() + 3_600_000);
        Outbox.sendAndAwaitAck(producers.timeouts(), "close:order-9", OutgoingRmqMetadata.builder().withDeliverAt(at).build());
        assertThat(probe.pendingScore("meta-timeouts", "close:order-9")).isEqualTo((double) at.toEpochMilli());

        Outbox.sendAndAwaitAck(producers.timeouts(), "raw-bytes:é".getBytes(StandardCharsets.UTF_8),
                OutgoingRmqMetadata.builder().withDeliverAt(at).build());
        assertThat(probe.pendingScore("meta-timeouts", "raw-bytes:é")).as("a byte[] payload is the member as it is").isNotNull();
    }

    @Test
    public void theChannelPriorityAppliesToAMessageWithoutOne() {
        Outbox.sendAndAwaitAck(producers.routineTasks(), "water the plants", null);
        assertThat(probe.pendingScore("meta-tasks", "water the plants")).isEqualTo(7.0);
    }

    @Test
    public void aFixedTimeMessageWithoutATimeIsDueAtOnce() {
        long before = probe.redisTimeMillis();
        Outbox.sendAndAwaitAck(producers.timeouts(), "close:order-10", null);
        assertThat(probe.pendingScore("meta-timeouts", "close:order-10")).isBetween(before - 1_000.0, probe.redisTimeMillis() + 0.0);
    }

    @Test
    public void thePriorityIsRequiredWhenTheChannelHasNone() {
        Throwable reason = Outbox.sendAndAwaitNack(producers.tasks(), "no priority", null);
        assertThat(reason).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'meta-tasks-out'").hasMessageContaining("PRIORITY").hasMessageContaining("'priority'");
        assertThat(probe.pendingScore("meta-tasks", "no priority")).as("nothing written").isNull();
    }

    @Test
    public void theTimeRangeIsRequiredWhenTheChannelHasNone() {
        Throwable reason = Outbox.sendAndAwaitNack(producers.prices(), "refresh:sku-1", null);
        assertThat(reason).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'meta-prices-out'").hasMessageContaining("RANGE_MERGE").hasMessageContaining("'time-range'");
        assertThat(probe.redis().exists(probe.storeKey("meta-prices", 0))).as("nothing written").isZero();
    }

    @Test
    public void metadataForAnotherTopicTypeIsRefused() {
        Throwable deliverAtForPriority = Outbox.sendAndAwaitNack(producers.tasks(), "misrouted-1",
                OutgoingRmqMetadata.builder().withPriority(1).withDeliverAt(Instant.now()).build());
        assertThat(deliverAtForPriority).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'meta-tasks-out'").hasMessageContaining("delivery time");

        Throwable priorityForFixedTime = Outbox.sendAndAwaitNack(producers.timeouts(), "misrouted-2",
                OutgoingRmqMetadata.builder().withPriority(5).build());
        assertThat(priorityForFixedTime).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'meta-timeouts-out'").hasMessageContaining("priority");

        Throwable rangeForFixedTime = Outbox.sendAndAwaitNack(producers.timeouts(), "misrouted-3",
                OutgoingRmqMetadata.builder().withTimeRange(Duration.ofSeconds(1)).build());
        assertThat(rangeForFixedTime).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'meta-timeouts-out'").hasMessageContaining("time range");

        assertThat(probe.pendingScore("meta-tasks", "misrouted-1")).isNull();
        assertThat(probe.pendingScore("meta-timeouts", "misrouted-2")).isNull();
        assertThat(probe.pendingScore("meta-timeouts", "misrouted-3")).isNull();
    }

    @Test
    public void aPayloadThatIsNeitherStringNorBytesIsRefusedWithoutACodec() {
        Throwable reason = Outbox.sendAndAwaitNack(producers.timeouts(), 42, null);
        assertThat(reason).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'meta-timeouts-out'").hasMessageContaining("java.lang.Integer").hasMessageContaining("'codec'");
        assertThat(probe.pendingScore("meta-timeouts", "42")).isNull();
    }

    @Test
    public void theSlotBasisChoosesTheSlotByCrc32() {
        Outbox.sendAndAwaitAck(producers.routed(), "close:order-4711", OutgoingRmqMetadata.builder().withSlotBasis("order-4711").build());
        int slot = crc32Slot("order-4711", ROUTED_SLOTS);
        assertThat(probe.redis().zscore(probe.storeKey("meta-routed", slot), "close:order-4711")).isNotNull();

        // without a slot basis, the content chooses
        Outbox.sendAndAwaitAck(producers.routed(), "close:order-4712", null);
        assertThat(probe.redis().zscore(probe.storeKey("meta-routed", crc32Slot("close:order-4712", ROUTED_SLOTS)), "close:order-4712"))
                .isNotNull();
    }

    /** The documented routing: {@code CRC32(UTF-8 bytes) mod slotAmount}. */
    private static int crc32Slot(String basis, int slots) {
        CRC32 crc = new CRC32();
        crc.update(basis.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % slots);
    }
}
