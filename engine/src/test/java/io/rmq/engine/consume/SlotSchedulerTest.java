package io.rmq.engine.consume;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

class SlotSchedulerTest {

    private static final Duration POLL = Duration.ofSeconds(5);

    private static Map<Integer, Long> epochs(long... slotAndEpoch) {
        Map<Integer, Long> out = new TreeMap<>();
        for (int i = 0; i < slotAndEpoch.length; i += 2) {
            out.put((int) slotAndEpoch[i], slotAndEpoch[i + 1]);
        }
        return out;
    }

    @Test
    void withoutCoordinationEverySlotIsAssignedClaimedAndDue() {
        SlotScheduler s = new SlotScheduler(4, POLL, true);

        assertThat(s.assignedSlots()).containsExactly(0, 1, 2, 3);
        assertThat(s.nextUnclaimedSlot()).isEqualTo(-1);
        assertThat(s.nextDueSlot(System.nanoTime())).isZero();
        assertThat(s.epoch(2)).isZero();
    }

    @Test
    void aSlotNotPoppedComesFirstAgain() {
        SlotScheduler s = new SlotScheduler(4, POLL, true);
        long now = System.nanoTime();

        assertThat(s.nextDueSlot(now)).isZero();
        int throttled = s.nextDueSlot(now);
        s.notPopped(throttled);

        assertThat(throttled).isEqualTo(1);
        assertThat(s.nextDueSlot(now)).isEqualTo(1);
    }

    @Test
    void theRoundRobinStartsAtTheGivenSlot() {
        SlotScheduler s = new SlotScheduler(4, POLL, true, 6);
        long now = System.nanoTime();

        assertThat(s.nextDueSlot(now)).isEqualTo(2);
        assertThat(s.nextDueSlot(now)).isEqualTo(3);
        assertThat(s.nextDueSlot(now)).isZero();
    }

    @Test
    void consumersOfOneJvmStartSpreadOverTheSlots() {
        java.util.Set<Integer> starts = new java.util.HashSet<>();
        for (int i = 0; i < 4; i++) {
            starts.add(ConsumerLoop.firstSlot(16));
        }

        assertThat(starts).as("four consumers, four different first slots").hasSize(4);
        assertThat(starts).allSatisfy(slot -> assertThat(slot).isBetween(0, 15));
    }

    @Test
    void aSlotItsLastPopDrainedWithMembersDueLaterIsAskedForTwiceWhatItFoundAndAFullPopMakesItDenseAgain() {
        SlotScheduler s = new SlotScheduler(2, POLL, true);
        long now = System.nanoTime();
        assertThat(s.popCount(0, 128)).as("nothing known yet: all the room").isEqualTo(128);

        s.popStarted(0, 128);
        s.popDone(0, 128, 20, 5, now);
        assertThat(s.popCount(0, 128)).isEqualTo(40);
        assertThat(s.popCount(0, 30)).as("never more than the room").isEqualTo(30);

        s.popStarted(0, 40);
        s.popDone(0, 40, 3, 5, now);
        assertThat(s.popCount(0, 128)).as("at least " + SlotScheduler.SPARSE_POP_MIN)
                .isEqualTo(SlotScheduler.SPARSE_POP_MIN);

        s.popStarted(0, 16);
        s.popDone(0, 16, 16, 0, now);
        assertThat(s.popCount(0, 128)).as("it filled its count: more may be due").isEqualTo(128);

        s.popStarted(1, 128);
        s.popDone(1, 128, -1, 5, now);
        assertThat(s.popCount(1, 128)).as("a pop whose size is not known leaves the slot dense").isEqualTo(128);

        s.popStarted(1, 128);
        s.popDone(1, 128, 20, -1, now);
        assertThat(s.popCount(1, 128)).as("drained with nothing waiting later, as a backlog ends: dense")
                .isEqualTo(128);
    }

    @Test
    void theEarliestPopDueIsAMembersDueTimeNotASafetyPollARetryOrAParkedCheck() {
        SlotScheduler s = new SlotScheduler(4, POLL, true);
        long now = System.nanoTime();
        s.popStarted(0, 16);
        s.popDone(0, 16, 0, POLL.toMillis() * 10, now); // its next member is due long after the safety poll
        s.popStarted(1, 16);
        s.popDone(1, 16, 0, -1, now); // nothing waits: parked
        s.popStarted(2, 16);
        s.popFailed(2, 16, now); // retried in a second
        s.popStarted(3, 16);
        s.popDone(3, 16, 0, POLL.toMillis() * 10, now);

        assertThat(s.earliestDue()).as("the safety polls and the retry are due").isNotEqualTo(Long.MAX_VALUE);
        assertThat(s.earliestPopDue()).as("no member is due before the safety poll").isEqualTo(Long.MAX_VALUE);

        s.popStarted(0, 16);
        s.popDone(0, 16, 0, 1_500, now);
        assertThat(s.earliestPopDue()).isEqualTo(now + 1_500_000_000L);

        s.wake(3, 700); // a member due in 0.7 s was written
        assertThat(s.earliestPopDue()).isBetween(now + 700_000_000L, System.nanoTime() + 700_000_000L);
    }

    @Test
    void aWakeNoticeForAMemberDueLaterMakesTheSlotSparseUntilAPopFillsItsCount() {
        SlotScheduler s = new SlotScheduler(3, POLL, true);
        long now = System.nanoTime();
        for (int slot = 0; slot < 3; slot++) {
            s.popStarted(slot, 128);
            s.popDone(slot, 128, 0, -1, now); // empty: nothing waits
        }

        s.wake(0, 1_500);
        s.wake(1, 0);
        assertThat(s.popCount(0, 128)).as("a member due in 1.5 s: a scheduled slot").isEqualTo(SlotScheduler.SPARSE_POP_MIN);
        assertThat(s.popCount(1, 128)).as("a member due now may start a backlog: dense").isEqualTo(128);

        s.popStarted(0, 16);
        s.popDone(0, 16, 16, 0, now);
        assertThat(s.popCount(0, 128)).as("the first pop was full: a backlog, dense again").isEqualTo(128);

        s.popStarted(2, 128);
        s.wake(2, 1_500); // arrives while the slot is popped: the pop's outcome decides
        s.popDone(2, 128, 0, -1, now);
        assertThat(s.popCount(2, 128)).isEqualTo(128);
    }

    @Test
    void withoutCoordinationAGrownTopicsNewSlotsAreAssignedAndDueAtOnce() {
        SlotScheduler s = new SlotScheduler(2, POLL, true);
        long now = System.nanoTime();
        s.popStarted(0, 4);
        s.popDone(0, 4, -1, now);

        s.grow(4, true);

        assertThat(s.slotAmount()).isEqualTo(4);
        assertThat(s.assignedSlots()).containsExactly(0, 1, 2, 3);
        assertThat(s.nextUnclaimedSlot()).isEqualTo(-1);
        List<Integer> due = new java.util.ArrayList<>();
        long later = System.nanoTime();
        for (int slot = s.nextDueSlot(later); slot >= 0; slot = s.nextDueSlot(later)) {
            due.add(slot);
            s.popStarted(slot, 1);
        }
        assertThat(due).as("slot 0 stays parked").containsExactly(1, 2, 3);
        s.grow(2, true);
        assertThat(s.slotAmount()).as("never shrinks").isEqualTo(4);
    }

    @Test
    void slotsAssignedByHandStayAsTheyAreWhenTheTopicGrows() {
        SlotScheduler s = new SlotScheduler(4, POLL, true);
        s.assign(new int[] { 1, 3 });

        s.grow(8, true);

        assertThat(s.assignedSlots()).containsExactly(1, 3);
        s.assign(new int[] { 1, 3, 7 });
        assertThat(s.assignedSlots()).containsExactly(1, 3, 7);
    }

    @Test
    void withCoordinationAGrownTopicsNewSlotsWaitForTheLeaderAndAreClaimedFirst() {
        SlotScheduler s = new SlotScheduler(2, POLL, false);
        s.assign(epochs(0, 3));
        s.claimed(0, 3);

        s.grow(4, false);

        assertThat(s.assignedSlots()).containsExactly(0);
        s.assign(epochs(0, 3, 3, 4));
        assertThat(s.nextUnclaimedSlot()).isEqualTo(3);
        assertThat(s.nextDueSlot(System.nanoTime())).isZero();
    }

    @Test
    void aCoordinatedConsumerStartsWithNoSlotAndClaimsEachNewOneBeforePoppingIt() {
        SlotScheduler s = new SlotScheduler(4, POLL, false);
        assertThat(s.assignedSlots()).isEmpty();
        assertThat(s.nextDueSlot(System.nanoTime())).isEqualTo(-1);

        s.assign(epochs(1, 7, 3, 9));

        assertThat(s.nextDueSlot(System.nanoTime())).as("nothing is popped before its claim").isEqualTo(-1);
        assertThat(s.nextUnclaimedSlot()).isEqualTo(1);
        s.popStarted(1, 0);
        assertThat(s.nextUnclaimedSlot()).isEqualTo(3);
        s.popDone(1, 0, 0, System.nanoTime());
        s.claimed(1, 7);
        assertThat(s.nextDueSlot(System.nanoTime())).isEqualTo(1);
        assertThat(s.epoch(1)).isEqualTo(7);
    }

    @Test
    void aClaimUnderAnOlderEpochDoesNotCount() {
        SlotScheduler s = new SlotScheduler(4, POLL, false);
        s.assign(epochs(2, 5));
        s.assign(epochs(2, 6));

        s.claimed(2, 5);

        assertThat(s.nextUnclaimedSlot()).isEqualTo(2);
        s.claimed(2, 6);
        assertThat(s.nextUnclaimedSlot()).isEqualTo(-1);
    }

    @Test
    void aFailedClaimIsMadeAgain() {
        SlotScheduler s = new SlotScheduler(4, POLL, false);
        s.assign(epochs(1, 7, 3, 9));
        assertThat(s.nextUnclaimedSlot()).isEqualTo(1);
        s.popStarted(1, 0);
        assertThat(s.nextUnclaimedSlot()).isEqualTo(3);
        s.popStarted(3, 0);
        assertThat(s.nextUnclaimedSlot()).isEqualTo(-1);

        s.popFailed(1, 0, System.nanoTime());

        assertThat(s.nextUnclaimedSlot()).isEqualTo(1);
    }

    @Test
    void aClaimUnderAnEpochThatChangedWhileItWasUnderWayIsMadeAgainUnderTheNewOne() {
        SlotScheduler s = new SlotScheduler(4, POLL, false);
        s.assign(epochs(2, 5));
        assertThat(s.nextUnclaimedSlot()).isEqualTo(2);
        s.popStarted(2, 0);
        s.assign(epochs(2, 6));
        assertThat(s.nextUnclaimedSlot()).as("still being popped").isEqualTo(-1);

        s.claimed(2, 5); // the reply to the claim under epoch 5
        s.popDone(2, 0, 0, System.nanoTime());

        assertThat(s.nextUnclaimedSlot()).isEqualTo(2);
        assertThat(s.epoch(2)).isEqualTo(6);
    }

    @Test
    void aPausedConsumerNeitherClaimsNorPopsAndResumesWithEverySlotDue() {
        SlotScheduler s = new SlotScheduler(4, POLL, false);
        s.assign(epochs(0, 1, 1, 1));
        s.claimed(0, 1);
        s.popStarted(0, 8);
        s.popDone(0, 8, -1, System.nanoTime()); // nothing waits: next poll in 5 s

        s.pause(true);

        assertThat(s.nextUnclaimedSlot()).isEqualTo(-1);
        assertThat(s.nextDueSlot(System.nanoTime())).isEqualTo(-1);
        assertThat(s.earliestDue()).isEqualTo(Long.MAX_VALUE);
        s.pause(false);
        assertThat(s.nextUnclaimedSlot()).isEqualTo(1);
        assertThat(s.nextDueSlot(System.nanoTime())).isZero();
    }

    @Test
    void aFencedSlotIsUnassignedAndItsWakeNoticesIgnored() {
        SlotScheduler s = new SlotScheduler(4, POLL, false);
        s.assign(epochs(0, 1, 1, 1));
        s.claimed(0, 1);
        s.claimed(1, 1);

        s.unassign(0);
        s.wake(0, 0);

        assertThat(s.assignedSlots()).containsExactly(1);
        assertThat(s.isAssigned(0)).isFalse();
        assertThat(s.nextDueSlot(System.nanoTime())).isEqualTo(1);
    }

    @Test
    void aSlotWithNothingWaitingIsPolledByOneExistenceCheckWithTheOtherIdleSlots() {
        SlotScheduler s = new SlotScheduler(4, POLL, true);
        long now = System.nanoTime();
        for (int slot = 0; slot < 4; slot++) {
            popReturned(s, slot, slot == 3 ? 60_000 : -1, now); // slot 3 has a member due in a minute
        }
        long later = now + POLL.toNanos();

        assertThat(s.nextDueSlot(later)).as("slot 3 is popped at the safety poll, the parked ones are not")
                .isEqualTo(3);
        s.popStarted(3, 8);
        assertThat(s.parkedDue(now)).as("not due before the safety poll").isEmpty();
        int[] parked = s.parkedDue(later);
        assertThat(parked).containsExactly(0, 1, 2);
        assertThat(s.parkedDue(later)).as("a check is under way").isEmpty();

        s.checkDone(parked, false, later);
        assertThat(s.nextDueSlot(later + POLL.toNanos())).as("still parked").isEqualTo(-1);
        assertThat(s.earliestDue()).isEqualTo(later + POLL.toNanos());
        parked = s.parkedDue(later + POLL.toNanos());
        assertThat(parked).containsExactly(0, 1, 2);

        s.checkDone(parked, true, later + POLL.toNanos());
        assertThat(s.nextDueSlot(later + POLL.toNanos())).as("a member was found: every checked slot is popped")
                .isZero();
    }

    @Test
    void aWakeNoticeUnparksASlotEvenWhileItsCheckIsUnderWay() {
        SlotScheduler s = new SlotScheduler(2, POLL, true);
        long now = System.nanoTime();
        popReturned(s, 0, -1, now);
        popReturned(s, 1, -1, now);

        s.wake(0, 0);
        assertThat(s.nextDueSlot(System.nanoTime())).isZero();

        int[] parked = s.parkedDue(now + POLL.toNanos());
        assertThat(parked).containsExactly(1);
        s.wake(1, 0);
        s.checkDone(parked, false, now + POLL.toNanos());
        assertThat(s.nextDueSlot(System.nanoTime() + 1)).as("the notice applies once the check returns").isEqualTo(1);
    }

    @Test
    void slotsParkedAtDifferentTimesAreCheckedTogetherFromTheFirstCheckOn() {
        SlotScheduler s = new SlotScheduler(3, POLL, true);
        long now = System.nanoTime();
        for (int slot = 0; slot < 3; slot++) {
            popReturned(s, slot, -1, now + slot * 1_000_000L); // their pops returned a millisecond apart
        }

        int[] first = s.parkedDue(now + POLL.toNanos());
        assertThat(first).as("slot 0 is due: the others come along").containsExactly(0, 1, 2);
        s.checkDone(first, false, now + POLL.toNanos());
        assertThat(s.parkedDue(now + 2 * POLL.toNanos())).containsExactly(0, 1, 2);
    }

    /** A pop of 8 members of the slot started and returned at {@code at} with this next delay. */
    private static void popReturned(SlotScheduler s, int slot, long nextDelayMillis, long at) {
        s.popStarted(slot, 8);
        s.popDone(slot, 8, nextDelayMillis, at);
    }
}
