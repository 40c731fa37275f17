package io.rmq.engine.consume;

import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;

import io.rmq.engine.coordination.SlotOwnership;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.scripts.PopStatus;
import io.rmq.engine.scripts.TopicScripts;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.topic.TopicDefinition;

/**
 * A coordinated consumer's view of the slots it owns: it applies what the coordinator reports to the
 * {@link SlotScheduler}, reacts to the ownership part of pop replies (a claim accepted, a handover
 * pending or done, a slot fenced), and gives up prefetched messages of slots the consumer lost.
 * Without coordination every pop is {@link PopStatus#POPPED} under epoch 0 and nothing here applies.
 *
 * <p>Confined to the consumer's loop thread.
 */
final class SlotOwnershipTracker {

    private static final EngineLogging LOG = EngineLogging.log;

    /** What to do with the members a pop returned. */
    enum Outcome {
        /** Hand them to the listener. */
        DELIVER,
        /** Release them: the slot moved while the pop was under way. */
        RELEASE
    }

    private final String consumer;
    private final String topic;
    private final SlotScheduler scheduler;
    private final PrefetchBuffer prefetch;
    private final BiConsumer<Integer, List<Delivery>> release;
    private final long longWaitMillis;
    private final Clock clock;
    /** Slots waiting for a handover, so that its end is logged too. */
    private boolean[] awaitingHandover;
    /** When each slot's wait began ({@link Clock#millis()}), and whether a long wait was reported. */
    private long[] handoverSince;
    private boolean[] longWaitReported;

    /** @param longWait a handover that waits longer than this is reported */
    SlotOwnershipTracker(String consumer, TopicDefinition topic, SlotScheduler scheduler, PrefetchBuffer prefetch,
            BiConsumer<Integer, List<Delivery>> release, Duration longWait, Clock clock) {
        this.consumer = consumer;
        this.topic = topic.name();
        this.scheduler = scheduler;
        this.prefetch = prefetch;
        this.release = release;
        this.longWaitMillis = longWait.toMillis();
        this.clock = clock;
        this.awaitingHandover = new boolean[topic.slotAmount()];
        this.handoverSince = new long[topic.slotAmount()];
        this.longWaitReported = new boolean[topic.slotAmount()];
    }

    /** The topic grew to {@code slotAmount} slots. */
    void grow(int slotAmount) {
        if (slotAmount > awaitingHandover.length) {
            awaitingHandover = Arrays.copyOf(awaitingHandover, slotAmount);
            handoverSince = Arrays.copyOf(handoverSince, slotAmount);
            longWaitReported = Arrays.copyOf(longWaitReported, slotAmount);
        }
    }

    /**
     * Applies the coordinator's report: slots that moved away (or whose epoch changed) are no longer
     * popped and their prefetched messages are released; new ones are claimed before they are popped;
     * an inactive ownership pauses popping.
     */
    void apply(SlotOwnership ownership) {
        for (int slot : scheduler.assignedSlots()) {
            Long epoch = ownership.epochs().get(slot);
            if (epoch == null || epoch != scheduler.epoch(slot)) {
                giveUp(slot, ownership.epochs().isEmpty() && !ownership.active()
                        ? "the ZooKeeper session was lost" : "the slot was assigned elsewhere");
            }
        }
        scheduler.assign(ownership.epochs());
        scheduler.pause(!ownership.active());
    }

    /**
     * Handles the ownership part of a pop reply (before {@link SlotScheduler#popDone}, which then
     * knows whether the slot still has to be claimed).
     *
     * @param epoch the epoch the pop was made under
     */
    Outcome popped(int slot, long epoch, TopicScripts.PopReply popped) {
        boolean owned = scheduler.isAssigned(slot) && scheduler.epoch(slot) == epoch;
        switch (popped.status()) {
            case FENCED -> {
                if (owned) {
                    LOG.slotFenced(slot, topic, popped.detail(), consumer, epoch);
                    scheduler.unassign(slot);
                    giveUp(slot, "another worker claimed the slot");
                }
            }
            case HANDOVER -> {
                scheduler.claimed(slot, epoch);
                if (owned) {
                    awaitingHandover(slot, epoch, popped.detail());
                }
            }
            case PAUSED -> scheduler.claimed(slot, epoch);
            case POPPED -> {
                scheduler.claimed(slot, epoch);
                if (owned && awaitingHandover[slot]) {
                    awaitingHandover[slot] = false;
                    LOG.handoverDone(consumer, slot, topic, clock.millis() - handoverSince[slot]);
                }
            }
        }
        return epoch != 0 && !owned ? Outcome.RELEASE : Outcome.DELIVER;
    }

    private void awaitingHandover(int slot, long epoch, long inFlight) {
        long now = clock.millis();
        if (!awaitingHandover[slot]) {
            awaitingHandover[slot] = true;
            handoverSince[slot] = now;
            longWaitReported[slot] = false;
            LOG.awaitingHandover(consumer, slot, topic, epoch, inFlight);
        } else if (!longWaitReported[slot] && now - handoverSince[slot] > longWaitMillis) {
            longWaitReported[slot] = true;
            LOG.longHandover(consumer, now - handoverSince[slot], slot, topic, inFlight);
        }
    }

    private void giveUp(int slot, String why) {
        awaitingHandover[slot] = false;
        List<Delivery> undelivered = prefetch.removeSlot(slot);
        if (!undelivered.isEmpty()) {
            LOG.prefetchReturned(consumer, undelivered.size(), slot, topic, why);
            release.accept(slot, undelivered);
        }
    }
}
