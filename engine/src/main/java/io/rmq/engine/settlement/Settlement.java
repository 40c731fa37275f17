package io.rmq.engine.settlement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.redis.RmqClient;
import io.rmq.engine.scripts.TopicScripts;
import io.rmq.engine.support.SlotBatcher;

/**
 * How one consumer's deliveries end: {@link Delivery#commit()} and {@link Delivery#rollback} land here, and so
 * do the release of messages never handed over and the extension of the held messages' deadlines. Of a commit
 * and a rollback of one delivery the first wins; a commit returns at once and joins its slot's
 * {@link SlotBatcher}, a rollback completes once Redis has retried or buried the message.
 *
 * <p>The commits the listener makes on the consumer's loop thread while the loop hands messages over
 * are held ({@link #holdCommits()}) until the loop ends that pass or has held them for
 * {@value #HOLD_COMMITS_MILLIS} ms ({@link #sendHeldCommits()}): a listener that acks as it receives
 * (as SmallRye's {@code @Incoming} methods do) then costs one commit call per slot and pass, instead of
 * one for its first ack and more for those that arrived during that call's round trip.
 *
 * <p>Thread-safe: called from any thread the application settles on.
 */
public final class Settlement implements Delivery.Settler {

    private static final EngineLogging LOG = EngineLogging.log;

    private final TopicScripts scripts;
    private final HeldMessages held;
    private final SettlementRetries retries;
    private final SettlementPolicy policy;
    private final EngineEvents events;
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    /** Most commits one script call carries. */
    private static final int COMMITS_PER_CALL = 1024;
    /**
     * What a commit returns: completed, shared. A {@code CompletionStage} without the completion methods
     * ({@link CompletableFuture#completedStage}), so no caller can change it for the others.
     */
    private static final CompletionStage<Void> DONE = CompletableFuture.completedStage(null);

    /** Longest the consumer loop holds the commits of its hand-over pass (checked after each hand-over). */
    public static final long HOLD_COMMITS_MILLIS = 1;

    /**
     * The commit batcher of each slot, created with the slot's first commit; replaced by a longer copy when
     * the topic grows ({@link #grow}), so batchers are created and copied under this object's lock.
     */
    private volatile AtomicReferenceArray<SlotBatcher<Delivery>> commits;
    /**
     * The loop thread while it holds its commits, else null. Only that thread can find itself here, so
     * other threads reading a stale value behave alike: a plain field does.
     */
    private Thread holder;
    /** The slots with held commits, each once; confined to the holder. */
    private int[] heldSlots;
    private boolean[] slotHeld;
    private int heldSlotCount;
    private final Set<CompletableFuture<Void>> rollbacks = ConcurrentHashMap.newKeySet();
    private final AtomicLong acked = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    /** Told when a message that was in the consumer listener's hands is settled. */
    @FunctionalInterface
    public interface Listener {
        /**
         * {@code d}, handed to the consumer's listener, was committed or rolled back; called on the thread that
         * settled it, which may be any thread, and must return quickly.
         */
        void deliveredSettled(Delivery d);
    }

    public Settlement(TopicScripts scripts, HeldMessages held, SettlementRetries retries, SettlementPolicy policy,
            EngineEvents events) {
        this.scripts = scripts;
        this.held = held;
        this.retries = retries;
        this.policy = policy;
        this.events = events;
        int slots = scripts.keys().topic().slotAmount();
        this.commits = new AtomicReferenceArray<>(slots);
        this.heldSlots = new int[slots];
        this.slotHeld = new boolean[slots];
    }

    /** {@code listener} is told of every delivered message settled from now on. */
    public void addListener(Listener listener) {
        listeners.add(listener);
    }

    @Override
    public CompletionStage<Void> commit(Delivery d) {
        int left = d.finish();
        if (left >= 0) {
            // queued before the delivery counts as settled: a stopping consumer flushes it before it closes
            if (Thread.currentThread() == holder) {
                commits(d.slot()).hold(d);
                if (!slotHeld[d.slot()]) {
                    slotHeld[d.slot()] = true;
                    heldSlots[heldSlotCount++] = d.slot();
                }
            } else {
                commits(d.slot()).add(d);
            }
            acked.incrementAndGet();
            settled(d, left);
        }
        return DONE;
    }

    /**
     * The topic grew to {@code slotAmount} slots; called on the consumer loop's thread, between hand-over passes,
     * before any message of a new slot is popped.
     */
    public void grow(int slotAmount) {
        synchronized (this) {
            AtomicReferenceArray<SlotBatcher<Delivery>> old = commits;
            if (slotAmount <= old.length()) {
                return;
            }
            AtomicReferenceArray<SlotBatcher<Delivery>> longer = new AtomicReferenceArray<>(slotAmount);
            for (int slot = 0; slot < old.length(); slot++) {
                longer.set(slot, old.get(slot));
            }
            commits = longer;
        }
        heldSlots = Arrays.copyOf(heldSlots, slotAmount);
        slotHeld = Arrays.copyOf(slotHeld, slotAmount);
    }

    /** Called by the consumer loop before it hands messages over: the commits it makes meanwhile wait. */
    public void holdCommits() {
        holder = Thread.currentThread();
    }

    /** Called by the consumer loop (the holder): sends the held commits, and holds no more. */
    public void sendHeldCommits() {
        holder = null;
        for (int i = 0; i < heldSlotCount; i++) {
            int slot = heldSlots[i];
            slotHeld[slot] = false;
            commits.get(slot).send();
        }
        heldSlotCount = 0;
    }

    private SlotBatcher<Delivery> commits(int slot) {
        SlotBatcher<Delivery> batcher = commits.get(slot);
        if (batcher == null) {
            synchronized (this) { // not while grow() copies the batchers
                batcher = commits.get(slot);
                if (batcher == null) {
                    batcher = new SlotBatcher<>(COMMITS_PER_CALL, batch -> commitNow(slot, batch));
                    commits.set(slot, batcher);
                }
            }
        }
        return batcher;
    }

    @Override
    public CompletionStage<Void> rollback(Delivery d, Throwable reason) {
        return rollback(d, reason, policy.retryRule(), false);
    }

    /** A rollback with no retry left: {@code rollback.lua} moves a member past its last retry to the dead queue. */
    @Override
    public CompletionStage<Void> deadLetter(Delivery d, Throwable reason) {
        TopicScripts.RetryRule rule = policy.retryRule();
        return rollback(d, reason, new TopicScripts.RetryRule(0, rule.backoffMillis(), rule.backoffMaxMillis()), true);
    }

    private CompletionStage<Void> rollback(Delivery d, Throwable reason, TopicScripts.RetryRule rule, boolean deadLetter) {
        int left = d.finish();
        if (left < 0) {
            return DONE;
        }
        CompletableFuture<Void> done = rollbackNow(d, reason, rule, deadLetter).toCompletableFuture();
        rollbacks.add(done);
        done.whenComplete((v, f) -> rollbacks.remove(done));
        failed.incrementAndGet();
        settled(d, left);
        return done;
    }

    /**
     * The rollback call of a finished-as-failed delivery (retry or dead queue); one that fails because Redis is unreachable
     * is kept and sent again once it answers ({@link SettlementRetries}).
     */
    private CompletionStage<Void> rollbackNow(Delivery d, Throwable reason, TopicScripts.RetryRule rule,
            boolean deadLetter) {
        String failureText = Delivery.failureText(reason);
        CompletionStage<TopicScripts.RollbackReply> call = policy.traced()
                ? scripts.rollbackTraced(d.slot(), rule, failureText, List.of(d.content()),
                        Collections.singletonList(d.traceForRetry()), policy.traceLinks())
                : scripts.rollback(d.slot(), rule, failureText, List.of(d.content()));
        return call.handle((result, failure) -> {
                    held.removeAll(List.of(d));
                    if (failure != null && retries.keepRollback(d.slot(), rule, List.of(d.content()), failureText, failure)) {
                        return null;
                    }
                    if (failure != null) {
                        LOG.rollbackFailed(d, RmqClient.rootMessage(failure));
                    } else if (result.dead() > 0) {
                        String deadQueue = scripts.keys().slot(d.slot()).dead();
                        if (deadLetter) {
                            LOG.deadLettered(d, deadQueue, String.valueOf(reason));
                        } else {
                            LOG.movedToDeadQueue(d, deadQueue, String.valueOf(reason));
                        }
                        events.deadLettered(scripts.keys().topic(), result.dead());
                    }
                    return null;
                });
    }

    /** Returns unfinished messages of one slot to the store queue with no attempt counted. */
    public CompletionStage<Void> release(int slot, List<Delivery> deliveries) {
        List<Delivery> toRelease = new ArrayList<>();
        List<TopicScripts.PoppedMember> members = new ArrayList<>();
        for (Delivery d : deliveries) {
            if (d.finish() >= 0) {
                toRelease.add(d);
                members.add(d.member());
            }
        }
        if (toRelease.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return scripts.release(slot, members, policy.traceLinks()).handle((n, failure) -> {
            held.removeAll(toRelease);
            if (failure != null) {
                LOG.releaseFailed(toRelease.size(), slot, RmqClient.rootMessage(failure));
            }
            return null;
        });
    }

    /** {@link #release} of unfinished messages of any slots: one call per slot. */
    public CompletionStage<Void> releaseAll(List<Delivery> deliveries) {
        return CompletableFuture.allOf(bySlot(deliveries).entrySet().stream()
                .map(e -> release(e.getKey(), e.getValue()).toCompletableFuture())
                .toArray(CompletableFuture[]::new));
    }

    /** Pushes back the deadlines of every unfinished message, so a slow but live consumer keeps them. */
    public void extendDeadlines() {
        if (held.isEmpty()) {
            return;
        }
        long timeout = policy.prepareTimeout().toMillis();
        bySlot(held.unfinished()).forEach((slot, list) -> scripts.extend(slot, timeout, list.stream().map(Delivery::content).toList())
                .exceptionally(f -> {
                    LOG.extendFailed(list.size(), slot, RmqClient.rootMessage(f));
                    return 0L;
                }));
    }

    private static Map<Integer, List<Delivery>> bySlot(List<Delivery> deliveries) {
        Map<Integer, List<Delivery>> bySlot = new HashMap<>();
        for (Delivery d : deliveries) {
            bySlot.computeIfAbsent(d.slot(), s -> new ArrayList<>()).add(d);
        }
        return bySlot;
    }

    /**
     * One commit call. One that fails because Redis is unreachable is kept and sent again once it answers
     * ({@link SettlementRetries}); any other failure leaves the messages to be redelivered after their deadline
     * (at least once).
     */
    private CompletionStage<Void> commitNow(int slot, List<Delivery> batch) {
        List<byte[]> members = new ArrayList<>(batch.size());
        boolean heldExpiry = false;
        boolean firstDeliveries = true;
        for (Delivery d : batch) {
            members.add(d.content());
            heldExpiry |= d.member().heldExpiry();
            firstDeliveries &= d.attempt() == 1;
        }
        return scripts.commit(slot, members, heldExpiry, firstDeliveries, policy.traced()).handle((n, failure) -> {
            if (failure != null && !retries.keepCommit(slot, members, failure)) {
                LOG.commitFailed(batch.size(), slot, scripts.keys().topic().name(),
                        RmqClient.rootMessage(failure));
            }
            held.removeAll(batch);
            return null;
        });
    }

    /** A delivery was finished, leaving state {@code left}: one in the listener's hands frees its place. */
    /** Deliveries committed, and rolled back after a failure, since the previous call (for the adaptive slow-down). */
    public Outcomes takeOutcomes() {
        return new Outcomes(acked.getAndSet(0), failed.getAndSet(0));
    }

    /** Counts of settled deliveries: {@code acked} committed, {@code failed} rolled back or dead-lettered. */
    public record Outcomes(long acked, long failed) {
    }

    private void settled(Delivery d, int left) {
        if (left == Delivery.DELIVERED) {
            held.deliveredSettled();
            listeners.forEach(l -> l.deliveredSettled(d));
        }
    }

    /** Completes when every commit and rollback made so far has been answered. */
    public CompletionStage<Void> flushed() {
        List<CompletableFuture<?>> all = new ArrayList<>(rollbacks);
        AtomicReferenceArray<SlotBatcher<Delivery>> batchers = commits;
        for (int slot = 0; slot < batchers.length(); slot++) {
            SlotBatcher<Delivery> c = batchers.get(slot);
            if (c != null) {
                all.add(c.flushed().toCompletableFuture());
            }
        }
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new));
    }
}
