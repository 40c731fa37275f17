package io.rmq.engine.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class SlotBatcherTest {

    /** The calls of a group of batchers, answered when the test says. */
    private static final class Calls {
        final List<String> slots = new ArrayList<>();
        final List<List<Integer>> batches = new ArrayList<>();
        final List<CompletableFuture<Void>> replies = new ArrayList<>();

        synchronized CompletionStage<?> call(String slot, List<Integer> batch) {
            slots.add(slot);
            batches.add(List.copyOf(batch));
            CompletableFuture<Void> reply = new CompletableFuture<>();
            replies.add(reply);
            return reply;
        }

        void answer(int call) {
            CompletableFuture<Void> reply;
            synchronized (this) {
                reply = replies.get(call);
            }
            reply.complete(null);
        }
    }

    @Test
    void eachSlotHasOneCallUnderWayAndTheNextCarriesWhatArrivedMeanwhile() {
        Calls calls = new Calls();
        SlotBatcher<Integer> a = new SlotBatcher<>(100, batch -> calls.call("a", batch));
        SlotBatcher<Integer> b = new SlotBatcher<>(100, batch -> calls.call("b", batch));

        a.add(1);
        b.add(10);
        a.add(2);
        a.add(3);

        assertThat(calls.slots).containsExactly("a", "b");
        assertThat(calls.batches).containsExactly(List.of(1), List.of(10));
        CompletableFuture<Void> flushed = a.flushed().toCompletableFuture();
        calls.answer(0);
        assertThat(calls.slots).containsExactly("a", "b", "a");
        assertThat(calls.batches.get(2)).containsExactly(2, 3);
        assertThat(flushed).as("the items added before flushed() are not all answered yet").isNotDone();
        calls.answer(2);
        assertThat(flushed).isDone();
    }

    @Test
    void underConcurrentAddsEveryItemIsSentOnceInItsSlotsOrderAndOneCallAtATime() throws Exception {
        concurrentAdds(null);
    }

    @Test
    void withAGateTheSlotsTogetherHaveAtMostItsPlacesUnderWayAndEveryItemIsSentOnceInOrder() throws Exception {
        assertThat(concurrentAdds(new CallGate(3))).as("calls under way at once, all slots").isLessThanOrEqualTo(3);
    }

    /** Adds items to 8 slots from 8 threads, answers on 3 others; returns the most calls under way at once. */
    private static int concurrentAdds(CallGate gate) throws Exception {
        int slots = 8;
        int perSlot = 5_000;
        ExecutorService redis = Executors.newFixedThreadPool(3);
        List<List<Integer>> received = new ArrayList<>();
        List<SlotBatcher<Integer>> batchers = new ArrayList<>();
        AtomicInteger overlapping = new AtomicInteger();
        AtomicInteger allUnderWay = new AtomicInteger();
        AtomicInteger mostUnderWay = new AtomicInteger();
        for (int s = 0; s < slots; s++) {
            List<Integer> mine = new ArrayList<>();
            received.add(mine);
            AtomicInteger underWay = new AtomicInteger();
            batchers.add(new SlotBatcher<>(64, gate, batch -> {
                if (underWay.incrementAndGet() > 1) {
                    overlapping.incrementAndGet();
                }
                mostUnderWay.accumulateAndGet(allUnderWay.incrementAndGet(), Math::max);
                return CompletableFuture.runAsync(() -> {
                    synchronized (mine) {
                        mine.addAll(batch);
                    }
                    allUnderWay.decrementAndGet();
                    underWay.decrementAndGet();
                }, redis);
            }));
        }
        ExecutorService senders = Executors.newFixedThreadPool(slots);
        CountDownLatch start = new CountDownLatch(1);
        for (int s = 0; s < slots; s++) {
            SlotBatcher<Integer> batcher = batchers.get(s);
            senders.execute(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                for (int i = 0; i < perSlot; i++) {
                    batcher.add(i);
                }
            });
        }
        start.countDown();
        senders.shutdown();
        assertThat(senders.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        for (SlotBatcher<Integer> batcher : batchers) {
            batcher.flushed().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
        redis.shutdown();

        for (List<Integer> mine : received) {
            synchronized (mine) {
                assertThat(mine).hasSize(perSlot);
                for (int i = 0; i < perSlot; i++) {
                    assertThat(mine.get(i)).isEqualTo(i);
                }
            }
        }
        assertThat(overlapping.get()).as("calls of one slot under way at once").isZero();
        return mostUnderWay.get();
    }

    @Test
    void aGateThatDoesNotBoundNowLetsEveryCallLeaveAndBoundsAgainAfterwards() {
        Calls calls = new Calls();
        AtomicBoolean bounding = new AtomicBoolean(false);
        CallGate gate = new CallGate(1, bounding::get);
        SlotBatcher<Integer> a = new SlotBatcher<>(100, gate, batch -> calls.call("a", batch));
        SlotBatcher<Integer> b = new SlotBatcher<>(100, gate, batch -> calls.call("b", batch));

        a.add(1);
        b.add(10);
        assertThat(calls.slots).as("not bounding: both calls leave").containsExactly("a", "b");

        bounding.set(true);
        calls.answer(0);
        calls.answer(1);
        a.add(2);
        b.add(11);
        assertThat(calls.slots).as("bounding: one place, b waits").containsExactly("a", "b", "a");
        calls.answer(2);
        assertThat(calls.slots).containsExactly("a", "b", "a", "b");
    }

    @Test
    void slotsWaitingForAPlaceOfTheGateGoInTurnAndGatherTheirItemsMeanwhile() {
        Calls calls = new Calls();
        CallGate gate = new CallGate(2);
        SlotBatcher<Integer> a = new SlotBatcher<>(100, gate, batch -> calls.call("a", batch));
        SlotBatcher<Integer> b = new SlotBatcher<>(100, gate, batch -> calls.call("b", batch));
        SlotBatcher<Integer> c = new SlotBatcher<>(100, gate, batch -> calls.call("c", batch));

        a.add(1);
        b.add(10);
        c.add(100);
        c.add(101);
        a.add(2);

        assertThat(calls.slots).as("two places: c waits").containsExactly("a", "b");
        calls.answer(0);
        assertThat(calls.slots).as("the place a frees goes to c, first in line").containsExactly("a", "b", "c");
        assertThat(calls.batches.get(2)).containsExactly(100, 101);
        a.add(3);
        calls.answer(1);
        assertThat(calls.slots).containsExactly("a", "b", "c", "a");
        assertThat(calls.batches.get(3)).as("what a gathered while it waited").containsExactly(2, 3);
        calls.answer(2);
        calls.answer(3);
        assertThat(a.flushed()).isCompleted();
        assertThat(b.flushed()).isCompleted();
        assertThat(c.flushed()).isCompleted();
        b.add(11);
        assertThat(calls.slots).as("a free place: at once").hasSize(5);
    }

    @Test
    void slotsSharingAGateWhoseCallsAreAnsweredAtOnceDoNotDeepenTheStack() {
        CallGate gate = new CallGate(1);
        CompletableFuture<Void> first = new CompletableFuture<>();
        SlotBatcher<Integer> holder = new SlotBatcher<>(1, gate, batch -> first);
        holder.add(0);
        AtomicInteger calls = new AtomicInteger();
        List<SlotBatcher<Integer>> batchers = new ArrayList<>();
        for (int s = 0; s < 2_000; s++) {
            SlotBatcher<Integer> batcher = new SlotBatcher<>(1, gate, batch -> {
                calls.incrementAndGet();
                throw new IllegalStateException("the server is down");
            });
            batchers.add(batcher);
            for (int i = 0; i < 100; i++) {
                batcher.add(i);
            }
        }
        assertThat(calls.get()).as("the holder's call has the only place").isZero();

        first.complete(null);

        assertThat(calls.get()).as("the slots in line, woken one after the other").isEqualTo(200_000);
        for (SlotBatcher<Integer> batcher : batchers) {
            assertThat(batcher.flushed()).isCompleted();
        }
        assertThat(holder.flushed()).isCompleted();
    }

    @Test
    void callsAnsweredAtOnceLeaveFromOneLoopWithoutDeepeningTheStack() {
        List<Integer> sent = new ArrayList<>();
        SlotBatcher<Integer> failing = new SlotBatcher<>(1, batch -> {
            sent.addAll(batch);
            throw new IllegalStateException("the server is down");
        });
        for (int i = 0; i < 200_000; i++) {
            failing.hold(i);
        }
        failing.send();
        assertThat(sent).hasSize(200_000);
        assertThat(failing.flushed()).isCompleted();

        AtomicInteger calls = new AtomicInteger();
        SlotBatcher<Integer> answered = new SlotBatcher<>(1, batch -> {
            calls.incrementAndGet();
            return CompletableFuture.completedFuture(null);
        });
        for (int i = 0; i < 200_000; i++) {
            answered.hold(i);
        }
        assertThat(answered.flushed()).isCompleted();
        assertThat(calls.get()).isEqualTo(200_000);
    }

    @Test
    void flushedWaitsForTheItemsAddedBeforeItAndNotForLaterOnes() {
        Calls calls = new Calls();
        SlotBatcher<Integer> a = new SlotBatcher<>(2, batch -> calls.call("a", batch));
        a.add(1);
        a.hold(2);
        a.hold(3);
        a.hold(4);
        CompletableFuture<Void> firstFour = a.flushed().toCompletableFuture();
        a.add(5);
        calls.answer(0);
        assertThat(calls.batches).containsExactly(List.of(1), List.of(2, 3));
        assertThat(firstFour).isNotDone();
        calls.answer(1);
        assertThat(calls.batches.get(2)).containsExactly(4, 5);
        assertThat(firstFour).as("item 4 is in the call under way").isNotDone();
        calls.answer(2);
        assertThat(firstFour).isDone();
        assertThat(a.flushed()).as("nothing added since is unanswered").isCompleted();
    }
}
