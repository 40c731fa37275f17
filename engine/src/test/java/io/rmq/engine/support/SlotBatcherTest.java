package io.rmq.engine.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
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

        synchronized int count() {
            return slots.size();
        }
    }

    private static SlotBatcher<Integer> batcher(Calls calls, CallGate gate, String slot) {
        return new SlotBatcher<>(100, gate, batch -> calls.call(slot, batch));
    }

    @Test
    void withoutAGateEachSlotHasOneCallUnderWayAndTheNextCarriesWhatArrivedMeanwhile() {
        Calls calls = new Calls();
        SlotBatcher<Integer> a = batcher(calls, null, "a");
        SlotBatcher<Integer> b = batcher(calls, null, "b");

        a.add(1);
        b.add(10);
        a.add(2);
        a.add(3);

        assertThat(calls.slots).containsExactly("a", "b");
        assertThat(calls.batches).containsExactly(List.of(1), List.of(10));
        calls.answer(0);
        assertThat(calls.slots).containsExactly("a", "b", "a");
        assertThat(calls.batches.get(2)).containsExactly(2, 3);
    }

    @Test
    void aGateBoundsTheCallsOfAllSlotsAndTheSlotsTakeTurnsWithWhatTheyGathered() {
        Calls calls = new Calls();
        CallGate gate = new CallGate(2);
        SlotBatcher<Integer> a = batcher(calls, gate, "a");
        SlotBatcher<Integer> b = batcher(calls, gate, "b");
        SlotBatcher<Integer> c = batcher(calls, gate, "c");

        a.add(1);
        b.add(10);
        c.add(20);
        c.add(21);
        a.add(2);
        c.add(22);

        // two calls under way; c waits in line with everything it gathered, a behind it
        assertThat(calls.slots).containsExactly("a", "b");
        assertThat(gate.underWay()).isEqualTo(2);

        calls.answer(1); // b's call returns: its place goes to c, first in line
        assertThat(calls.slots).containsExactly("a", "b", "c");
        assertThat(calls.batches.get(2)).containsExactly(20, 21, 22);

        calls.answer(0); // a's call returns: a sends what it gathered meanwhile
        assertThat(calls.slots).containsExactly("a", "b", "c", "a");
        assertThat(calls.batches.get(3)).containsExactly(2);
        assertThat(gate.underWay()).isEqualTo(2);

        calls.answer(2);
        calls.answer(3);
        assertThat(gate.underWay()).isZero();
        assertThat(calls.count()).isEqualTo(4);
    }

    @Test
    void flushedWaitsForABatcherInLineWithoutSpinning() {
        Calls calls = new Calls();
        CallGate gate = new CallGate(1);
        SlotBatcher<Integer> a = batcher(calls, gate, "a");
        SlotBatcher<Integer> b = batcher(calls, gate, "b");
        a.add(1);
        b.add(2);

        CompletableFuture<Void> flushed = b.flushed().toCompletableFuture();

        assertThat(flushed).isNotDone();
        calls.answer(0);
        assertThat(calls.slots).containsExactly("a", "b");
        assertThat(flushed).isNotDone();
        calls.answer(1);
        assertThat(flushed).isDone();
    }

    @Test
    void aCallThatThrowsGivesItsPlaceBack() {
        CallGate gate = new CallGate(1);
        List<List<Integer>> sent = new ArrayList<>();
        SlotBatcher<Integer> failing = new SlotBatcher<>(100, gate, batch -> {
            throw new IllegalStateException("not connected");
        });
        SlotBatcher<Integer> other = new SlotBatcher<>(100, gate, batch -> {
            sent.add(List.copyOf(batch));
            return CompletableFuture.completedFuture(null);
        });

        failing.add(1);
        other.add(2);

        assertThat(sent).containsExactly(List.of(2));
        assertThat(gate.underWay()).isZero();
    }

    @Test
    void raisingTheBoundLetsTheBatchersInLineSend() {
        Calls calls = new Calls();
        CallGate gate = new CallGate(1);
        batcher(calls, gate, "a").add(1);
        batcher(calls, gate, "b").add(2);
        batcher(calls, gate, "c").add(3);
        assertThat(calls.slots).containsExactly("a");

        gate.limit(Integer.MAX_VALUE);

        assertThat(calls.slots).containsExactly("a", "b", "c");
        assertThat(gate.underWay()).isEqualTo(3);
        assertThatThrownBy(() -> new CallGate(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one call");
    }

    @Test
    void underConcurrentAddsEveryItemIsSentOnceInItsSlotsOrderAndTheBoundHolds() throws Exception {
        int slots = 8;
        int perSlot = 5_000;
        CallGate gate = new CallGate(2);
        AtomicInteger underWay = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        ExecutorService redis = Executors.newFixedThreadPool(3);
        List<List<Integer>> received = new ArrayList<>();
        List<SlotBatcher<Integer>> batchers = new ArrayList<>();
        for (int s = 0; s < slots; s++) {
            List<Integer> mine = new ArrayList<>();
            received.add(mine);
            batchers.add(new SlotBatcher<>(64, gate, batch -> {
                most.accumulateAndGet(underWay.incrementAndGet(), Math::max);
                return CompletableFuture.runAsync(() -> {
                    synchronized (mine) {
                        mine.addAll(batch);
                    }
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
        assertThat(most.get()).isLessThanOrEqualTo(2);
        assertThat(gate.underWay()).isZero();
    }
}
