package io.rmq.engine.consume;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rmq.engine.coordination.SlotOwnership;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.scripts.PopStatus;
import io.rmq.engine.scripts.TopicScripts;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.LogRecorder;
import io.rmq.testing.ManualClock;

class SlotOwnershipTrackerTest {

    private static final TopicDefinition TOPIC = new TopicDefinition("t", 4, TopicType.FIXED_TIME);

    private final SlotScheduler scheduler = new SlotScheduler(4, Duration.ofSeconds(5), false);
    private final PrefetchBuffer prefetch = new PrefetchBuffer(4, true);
    private final List<String> released = new ArrayList<>();
    private final ManualClock clock = new ManualClock();
    private LogRecorder log;

    @BeforeEach
    void setUp() {
        log = LogRecorder.record(EngineLogging.LOGGER_NAME);
    }

    @AfterEach
    void tearDown() {
        log.close();
    }

    private SlotOwnershipTracker tracker(Duration longWait) {
        return new SlotOwnershipTracker("c$1", TOPIC, scheduler, prefetch,
                (slot, deliveries) -> deliveries.forEach(d -> released.add(slot + ":" + new String(d.content(), StandardCharsets.UTF_8))),
                longWait, clock);
    }

    private static SlotOwnership owning(long... slotAndEpoch) {
        Map<Integer, Long> epochs = new TreeMap<>();
        for (int i = 0; i < slotAndEpoch.length; i += 2) {
            epochs.put((int) slotAndEpoch[i], slotAndEpoch[i + 1]);
        }
        return new SlotOwnership(new TreeMap<>(epochs), true, 1);
    }

    private static TopicScripts.PopReply reply(PopStatus status, long detail) {
        return new TopicScripts.PopReply(status, 1_000, -1, detail, List.of());
    }

    private static Delivery delivery(int slot, String content) {
        return new Delivery(null, TOPIC.name(), slot, new TopicScripts.PoppedMember(content.getBytes(StandardCharsets.UTF_8),
                "1".getBytes(StandardCharsets.US_ASCII), 1));
    }

    @Test
    void aFencedSlotIsNoLongerPoppedAndItsPrefetchIsReleased() {
        SlotOwnershipTracker t = tracker(Duration.ofMinutes(1));
        t.apply(owning(1, 5, 2, 5));
        prefetch.addAll(List.of(delivery(1, "a"), delivery(2, "b")));

        SlotOwnershipTracker.Outcome outcome = t.popped(1, 5, reply(PopStatus.FENCED, 6));

        assertThat(outcome).isEqualTo(SlotOwnershipTracker.Outcome.DELIVER); // nothing was popped anyway
        assertThat(scheduler.assignedSlots()).containsExactly(2);
        assertThat(released).containsExactly("1:a");
        assertThat(log.messagesContaining("RMQ-0222")).singleElement().asString().contains("epoch 6");
    }

    @Test
    void aFencedReplyToAPopUnderAnOlderEpochOfThisConsumerChangesNothing() {
        SlotOwnershipTracker t = tracker(Duration.ofMinutes(1));
        t.apply(owning(1, 5));
        t.apply(owning(1, 7)); // lost and regained meanwhile

        t.popped(1, 5, reply(PopStatus.FENCED, 7));

        assertThat(scheduler.assignedSlots()).containsExactly(1);
        assertThat(scheduler.epoch(1)).isEqualTo(7);
    }

    @Test
    void membersPoppedForASlotThatMovedMeanwhileAreReleased() {
        SlotOwnershipTracker t = tracker(Duration.ofMinutes(1));
        t.apply(owning(1, 5));
        t.apply(owning(2, 6));

        assertThat(t.popped(1, 5, reply(PopStatus.POPPED, 5))).isEqualTo(SlotOwnershipTracker.Outcome.RELEASE);
        assertThat(t.popped(2, 6, reply(PopStatus.POPPED, 6))).isEqualTo(SlotOwnershipTracker.Outcome.DELIVER);
    }

    @Test
    void withoutCoordinationEverythingIsDelivered() {
        SlotScheduler all = new SlotScheduler(4, Duration.ofSeconds(5), true);
        SlotOwnershipTracker t = new SlotOwnershipTracker("c", TOPIC, all, prefetch, (s, d) -> { }, Duration.ofMinutes(1), clock);

        assertThat(t.popped(3, 0, reply(PopStatus.POPPED, 0))).isEqualTo(SlotOwnershipTracker.Outcome.DELIVER);
    }

    @Test
    void aLostSessionGivesEverySlotUp() {
        SlotOwnershipTracker t = tracker(Duration.ofMinutes(1));
        t.apply(owning(0, 5, 3, 5));
        prefetch.addAll(List.of(delivery(0, "a"), delivery(3, "b")));

        t.apply(new SlotOwnership(new TreeMap<>(), false, 1));

        assertThat(scheduler.assignedSlots()).isEmpty();
        assertThat(scheduler.isPaused()).isTrue();
        assertThat(released).containsExactlyInAnyOrder("0:a", "3:b");
    }

    @Test
    void aSuspendedConnectionPausesButKeepsTheSlotsAndThePrefetch() {
        SlotOwnershipTracker t = tracker(Duration.ofMinutes(1));
        t.apply(owning(0, 5));
        prefetch.addAll(List.of(delivery(0, "a")));

        t.apply(new SlotOwnership(owning(0, 5).epochs(), false, 1));

        assertThat(scheduler.assignedSlots()).containsExactly(0);
        assertThat(scheduler.isPaused()).isTrue();
        assertThat(released).isEmpty();
        assertThat(prefetch.size()).isEqualTo(1);
    }

    @Test
    void aHandoverThatWaitsTooLongIsReportedOnce() {
        SlotOwnershipTracker t = tracker(Duration.ofSeconds(30));
        t.apply(owning(2, 9));

        t.popped(2, 9, reply(PopStatus.HANDOVER, 3));
        clock.advance(Duration.ofSeconds(30));
        t.popped(2, 9, reply(PopStatus.HANDOVER, 3));
        assertThat(log.messagesContaining("RMQ-0224")).as("not longer than the limit yet").isEmpty();
        clock.advance(Duration.ofMillis(1));
        t.popped(2, 9, reply(PopStatus.HANDOVER, 3));
        t.popped(2, 9, reply(PopStatus.HANDOVER, 2));
        t.popped(2, 9, reply(PopStatus.POPPED, 9));

        assertThat(log.messagesContaining("RMQ-0224")).singleElement().asString()
                .contains("slot 2").contains("waited 30001 ms").contains("3 message(s) of its previous owner");
    }
}
