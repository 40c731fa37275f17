package io.rmq.engine.coordination;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class SlotBalancerTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    private static WorkerInfo worker(String instance, int n) {
        return new WorkerInfo(instance + "-w" + n, instance, "in$" + n, NOW);
    }

    private static List<WorkerInfo> workers(int instances, int perInstance) {
        List<WorkerInfo> out = new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            for (int w = 1; w <= perInstance; w++) {
                out.add(worker("host" + (char) ('a' + i), w));
            }
        }
        return out;
    }

    private static SlotAssignment balance(SlotAssignment previous, List<WorkerInfo> live, int slots, long generation) {
        return SlotBalancer.balance(previous, live, slots, generation, "leader", NOW);
    }

    @ParameterizedTest(name = "{0} slots over {1} instance(s) of {2} worker(s)")
    @CsvSource({"16, 3, 2", "16, 1, 1", "1, 2, 2", "2, 2, 3", "1024, 5, 3", "8, 8, 1", "4, 3, 4"})
    void everySlotHasExactlyOneOwnerAndTheSharesDifferByAtMostOne(int slots, int instances, int perInstance) {
        SlotAssignment a = balance(null, workers(instances, perInstance), slots, 1);

        for (int s = 0; s < slots; s++) {
            assertThat(a.ownerOf(s)).as("owner of slot %d", s).isPresent();
            assertThat(a.epochOf(s)).isEqualTo(1);
        }
        int owners = a.slotsByWorker().size();
        assertThat(owners).isEqualTo(Math.min(slots, instances * perInstance));
        int min = a.slotsByWorker().values().stream().mapToInt(List::size).min().orElseThrow();
        int max = a.slotsByWorker().values().stream().mapToInt(List::size).max().orElseThrow();
        assertThat(max - min).isLessThanOrEqualTo(1);
    }

    @Test
    void fewerSlotsThanWorkersAreSpreadOverInstancesNotPiledOntoTheFirst() {
        SlotAssignment a = balance(null, workers(2, 3), 2, 1);

        assertThat(a.ownerOf(0)).contains("hosta-w1");
        assertThat(a.ownerOf(1)).contains("hostb-w1");
    }

    @Test
    void aJoiningWorkerTakesOnlyItsShareAndTheOthersKeepTheirSlotsAndEpochs() {
        List<WorkerInfo> three = workers(3, 1);
        SlotAssignment before = balance(null, three, 16, 5);
        List<WorkerInfo> four = new ArrayList<>(three);
        four.add(worker("hostd", 1));

        SlotAssignment after = balance(before, four, 16, 6);

        assertThat(after.slotsOf("hostd-w1")).hasSize(4);
        assertThat(moved(before, after)).isEqualTo(4);
        for (int s = 0; s < 16; s++) {
            boolean kept = after.ownerOf(s).equals(before.ownerOf(s));
            assertThat(after.epochOf(s)).as("epoch of slot %d", s).isEqualTo(kept ? 5 : 6);
        }
    }

    @Test
    void aLeavingWorkersSlotsAreSpreadOverTheOthersAndNothingElseMoves() {
        List<WorkerInfo> four = workers(2, 2);
        SlotAssignment before = balance(null, four, 16, 1);
        List<WorkerInfo> three = four.subList(0, 3);

        SlotAssignment after = balance(before, three, 16, 2);

        assertThat(after.slotsByWorker()).doesNotContainKey(four.get(3).id());
        assertThat(moved(before, after)).isEqualTo(4);
        assertThat(after.slotsByWorker().values()).allSatisfy(slots -> assertThat(slots).hasSizeBetween(5, 6));
    }

    @Test
    void anUnchangedMembershipGivesTheSameOwnership() {
        List<WorkerInfo> live = workers(3, 2);
        SlotAssignment before = balance(null, live, 64, 1);

        SlotAssignment again = balance(before, live, 64, 2);

        assertThat(again.sameOwnership(before)).isTrue();
    }

    @Test
    void withoutLiveWorkersNoSlotHasAnOwner() {
        SlotAssignment before = balance(null, workers(1, 2), 8, 1);

        SlotAssignment after = balance(before, List.of(), 8, 2);

        assertThat(after.slotsByWorker()).isEmpty();
        assertThat(after.epochOf(0)).isZero();
        assertThat(balance(after, workers(1, 1), 8, 3).epochOf(0)).as("a slot that gets an owner again").isEqualTo(3);
    }

    @Test
    void aWorkerListedTwiceCountsOnce() {
        List<WorkerInfo> live = new ArrayList<>(workers(1, 2));
        live.add(worker("hosta", 1)); // e.g. a stale node of an expired session next to the new one

        SlotAssignment a = balance(null, live, 8, 1);

        assertThat(a.slotsByWorker()).hasSize(2);
        assertThat(a.slotsOf("hosta-w1")).hasSize(4);
    }

    @Test
    void aGrownTopicKeepsItsOldSlotsWithTheirOwnersAndSpreadsTheNewOnes() {
        SlotAssignment before = balance(null, workers(1, 2), 4, 1);

        SlotAssignment after = balance(before, workers(1, 2), 8, 2);

        assertThat(after.slotAmount()).isEqualTo(8);
        for (int s = 0; s < 4; s++) {
            assertThat(after.ownerOf(s)).as("slot %d", s).isEqualTo(before.ownerOf(s));
            assertThat(after.epochOf(s)).as("slot %d", s).isEqualTo(1);
        }
        for (int s = 4; s < 8; s++) {
            assertThat(after.epochOf(s)).as("slot %d", s).isEqualTo(2);
        }
        assertThat(after.slotsByWorker().values()).allSatisfy(slots -> assertThat(slots).hasSize(4));
    }

    @Test
    void anAssignmentForMoreSlotsIsNotReused() {
        SlotAssignment before = balance(null, workers(1, 2), 8, 1);

        SlotAssignment after = balance(before, workers(1, 2), 4, 2);

        assertThat(after.slotAmount()).isEqualTo(4);
        for (int s = 0; s < 4; s++) {
            assertThat(after.epochOf(s)).isEqualTo(2);
        }
    }

    @Test
    void theOrderTakesInstancesInTurn() {
        List<WorkerInfo> live = List.of(worker("b", 2), worker("a", 1), worker("a", 2), worker("b", 1), worker("a", 3));

        assertThat(SlotBalancer.interleave(live)).containsExactly("a-w1", "b-w1", "a-w2", "b-w2", "a-w3");
    }

    private static long moved(SlotAssignment before, SlotAssignment after) {
        Map<Integer, String> changes = new HashMap<>();
        for (int s = 0; s < before.slotAmount(); s++) {
            if (!before.ownerOf(s).equals(after.ownerOf(s))) {
                changes.put(s, after.ownerOf(s).orElse(null));
            }
        }
        return changes.size();
    }
}
