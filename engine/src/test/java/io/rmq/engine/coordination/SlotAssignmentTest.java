package io.rmq.engine.coordination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;


class SlotAssignmentTest {

    private static final Instant AT = Instant.ofEpochMilli(1_718_000_000_000L);

    private static SlotAssignment sample() {
        return new SlotAssignment(7, "a$1@host-a:1#aa", AT,
                new String[] { "a$1@host-a:1#aa", "a$1@host-a:1#aa", "b$1@host-b:2#bb", null, "a$1@host-a:1#aa" },
                new long[] { 3, 3, 7, 0, 5 });
    }

    @Test
    void itRoundTripsThroughItsTextForm() {
        SlotAssignment a = sample();

        SlotAssignment read = SlotAssignment.decode(a.encode());

        assertThat(read.generation()).isEqualTo(7);
        assertThat(read.leader()).isEqualTo("a$1@host-a:1#aa");
        assertThat(read.updatedAt()).isEqualTo(AT);
        assertThat(read.slotAmount()).isEqualTo(5);
        assertThat(read.sameOwnership(a)).isTrue();
        assertThat(read.ownerOf(3)).isEmpty();
        assertThat(read.epochOf(3)).isZero();
    }

    @Test
    void theTextFormIsReadableWithZkCli() {
        assertThat(new String(sample().encode(), StandardCharsets.UTF_8)).isEqualTo("""
                rmq-slot-assignment 1
                generation 7
                slot-amount 5
                leader a$1@host-a:1#aa
                updated-at 1718000000000
                worker a$1@host-a:1#aa 0@3 1@3 4@5
                worker b$1@host-b:2#bb 2@7
                """);
    }

    @Test
    void itTellsWhoOwnsWhat() {
        SlotAssignment a = sample();

        assertThat(a.slotsOf("a$1@host-a:1#aa")).containsExactly(Map.entry(0, 3L), Map.entry(1, 3L), Map.entry(4, 5L));
        assertThat(a.slotsByWorker()).containsOnlyKeys("a$1@host-a:1#aa", "b$1@host-b:2#bb");
        assertThat(a.describe()).contains("generation 7 of 5 slots")
                .contains("a$1@host-a:1#aa: 3 slots 0-1, 4")
                .contains("b$1@host-b:2#bb: 1 slot 2")
                .contains("(no owner: 1 slot)");
    }

    @Test
    void slotNumbersAreShownAsRanges() {
        assertThat(SlotAssignment.ranges(List.of(0, 1, 2, 3, 8, 12, 13))).isEqualTo("0-3, 8, 12-13");
        assertThat(SlotAssignment.ranges(List.of())).isEmpty();
    }

    @Test
    void otherDataIsRefusedWithAClearMessage() {
        assertThatThrownBy(() -> SlotAssignment.decode("hello".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not an RMQ slot assignment");
        assertThatThrownBy(() -> SlotAssignment.decode(
                "rmq-slot-assignment 1\ngeneration x\nslot-amount 1\nleader l\nupdated-at 0\n".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("malformed");
    }

    @Test
    void workerNodesRoundTripAndToleratePartialData() {
        WorkerInfo w = new WorkerInfo("in$2@h:9#01", "h:9", "in$2", AT);

        assertThat(WorkerInfo.decode("in$2@h:9#01", w.encode())).isEqualTo(w);
        assertThat(WorkerInfo.decode("node-name", null)).isEqualTo(new WorkerInfo("node-name", "node-name", "node-name",
                Instant.EPOCH));
    }

    @Test
    void eachTopicHasItsOwnNodeNamedAfterItsRedisKeyBase() {
        CoordinationPaths plain = CoordinationPaths.of("/rmq", new CoordinatedTopic("", "prices", 8));
        CoordinationPaths prefixed = CoordinationPaths.of("/apps/rmq", new CoordinatedTopic("shop/eu:", "prices", 8));
        CoordinationPaths dotted = CoordinationPaths.of("/rmq", new CoordinatedTopic("", ".", 8));

        assertThat(plain.workers()).isEqualTo("/rmq/topics/prices/workers");
        assertThat(plain.leader()).isEqualTo("/rmq/topics/prices/leader");
        assertThat(plain.assignment()).isEqualTo("/rmq/topics/prices/assignment");
        assertThat(prefixed.topic()).isEqualTo("/apps/rmq/topics/shop%2Feu%3Aprices");
        assertThat(dotted.topic()).isEqualTo("/rmq/topics/%2E");
        assertThat(plain.worker("w")).isEqualTo("/rmq/topics/prices/workers/w");
    }

    @Test
    void workerIdsKeepOnlyCharactersSafeInNodeNamesAndAssignmentLines() {
        assertThat(WorkerInfo.safe("in$1")).isEqualTo("in$1");
        assertThat(WorkerInfo.safe("a b/c\u00e9")).isEqualTo("a_b_c_");
        assertThat(WorkerInfo.safe("")).isEqualTo("_");
    }
}
