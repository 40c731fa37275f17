package io.rmq.engine.consume;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.rmq.engine.consume.flow.FlowGate;
import io.rmq.engine.consume.flow.FlowSettings;
import io.rmq.engine.consume.flow.FlowSettingsCache;
import io.rmq.engine.coordination.SlotOwnership;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.redis.RmqClient;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.redis.WakeBus;
import io.rmq.engine.scripts.TopicScripts;
import io.rmq.engine.topic.FairShare;
import io.rmq.engine.topic.FlowFeatures;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.settlement.HeldMessages;
import io.rmq.engine.settlement.EngineEvents;
import io.rmq.engine.settlement.Settlement;
import io.rmq.engine.support.DaemonThreads;

/**
 * The pump of one consumer, confined to its thread ({@code rmq-<name>}): decides when to pop which
 * slot, hands popped messages to the listener strictly on demand, and sleeps until the earliest due
 * time, a wake notice or the safety poll.
 *
 * <p><b>Back-pressure.</b> It pops only while the listener has outstanding demand, and holds at
 * most {@code batchSize} popped-but-undelivered messages (the prefetch); a pop asks for at least
 * half a batch, since pops of a few members would cost a round trip each.
 *
 * <p><b>Serial mode</b> (coordination): a slot's next message goes to the listener only after the
 * previous one is settled ({@link #deliveredFinished}).
 *
 * <p>Lifecycle: {@link #start} once, {@link #stop} once; its stage completes on the loop thread when
 * no pop is under way any more, with the messages that were never delivered. Every method may be
 * called from any thread: it runs its work on the loop thread.
 */
final class ConsumerLoop implements WakeBus.Listener {

    private static final EngineLogging LOG = EngineLogging.log;
    private static final long HOLD_COMMITS_NANOS = TimeUnit.MILLISECONDS.toNanos(Settlement.HOLD_COMMITS_MILLIS);
    /**
     * How long before a member's due time it sleeps for ({@link SlotScheduler#earliestPopDue}) the consumer wakes and
     * sends a {@code PING} ({@link ScriptRunner#warmUp}), when the connection was quiet for {@link #WARM_UP_QUIET_NANOS}:
     * the pop then leaves from a thread that slept briefly, on a machine already awake.
     */
    static final long WARM_UP_LEAD_NANOS = TimeUnit.MILLISECONDS.toNanos(25);
    static final long WARM_UP_QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final String name;
    private final TopicScripts scripts;
    private final ConsumerOptions options;
    private final RmqClient redis;
    private final HeldMessages held;
    private final Settlement settler;
    private final EngineEvents events;
    private final ScheduledExecutorService loop;
    private final boolean serial;
    private volatile Thread loopThread;
    /** The fair-share settings the next pop uses. */
    private volatile FairShare fairShare;
    /** Limits per key, fair share and aging as configured: the starting values this consumer writes. */
    private final FlowFeatures configured;
    /** The features in force, as the flow hash says once the starting values are written; loop thread. */
    private FlowFeatures applied;
    /** Whether the starting values are written (or there are none): the flow hash is followed from then on. */
    private volatile boolean startingWritten;
    private boolean bothFeaturesLogged;
    private final java.util.concurrent.atomic.AtomicBoolean writingStart = new java.util.concurrent.atomic.AtomicBoolean();

    /** Consumers created in this JVM, numbering them for {@link #firstSlot}. */
    private static final AtomicInteger STARTED = new AtomicInteger();

    // Confined to the loop thread.
    private final SlotScheduler scheduler;
    private final PrefetchBuffer prefetch;
    private final SlotOwnershipTracker ownership;
    private DeliveryListener listener;
    private long demand;
    private boolean draining;
    private boolean stopping;
    /**
     * Set by {@link #pause}: nothing is popped or handed over, popped messages go back to the store queue. Set on the
     * caller's thread as well as the loop's; otherwise read and written on the loop's thread.
     */
    private volatile boolean paused;
    private int popsInFlight;
    private CompletableFuture<List<Delivery>> popsDone;
    private String workerId;
    private final WakeTimer timer;
    /** Fires {@link #WARM_UP_LEAD_NANOS} before the next member's due time the consumer sleeps for. */
    private final WakeTimer warmUpTimer;
    /** The topic's flow settings in this engine, followed while the loop runs. */
    private final FlowSettingsCache flow;
    private Runnable leaveFlow = () -> { };
    /**
     * Holds pops to the topic's rate limit; {@code null} without one, so that a consumer without pays nothing.
     * Created when a limit appears (configured, or set live), dropped when it is removed.
     */
    private FlowGate gate;
    /**
     * Since when ({@link System#nanoTime()}) the loop had demand and room but no valid permit; 0 when it has not waited.
     * Written on the loop thread, read by health checks.
     */
    private volatile long throttledSince;

    ConsumerLoop(String name, TopicScripts scripts, ConsumerOptions options, RmqClient redis, HeldMessages held,
            Settlement settler, EngineEvents events, FlowSettingsCache flow, Clock clock) {
        this.name = name;
        this.events = events;
        this.scripts = scripts;
        this.options = options;
        this.redis = redis;
        this.held = held;
        this.settler = settler;
        this.loop = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("rmq-" + name, t -> loopThread = t));
        boolean coordinated = options.coordination().isPresent();
        this.serial = coordinated;
        updateFairShare(options.fairShare());
        this.configured = new FlowFeatures(options.keyLimits(), options.fairShare(), options.priorityAging());
        this.applied = configured;
        this.startingWritten = !configured.any();
        int slotAmount = scripts.keys().topic().slotAmount();
        this.timer = new WakeTimer(loop, this::popIfNeeded);
        this.warmUpTimer = new WakeTimer(loop, this::warmUp);
        this.flow = flow;
        this.gate = options.rateLimit().isEmpty() && options.adaptiveSlowDown().isEmpty() ? null : newGate();
        // consumers start their round-robin at different slots (see SlotScheduler)
        this.scheduler = new SlotScheduler(slotAmount, options.pollInterval(), !coordinated, firstSlot(slotAmount));
        this.prefetch = new PrefetchBuffer(slotAmount, coordinated);
        // a crashed owner's messages are swept within 1.5 prepare timeouts: a longer wait has another cause
        this.ownership = new SlotOwnershipTracker(name, scripts.keys().topic(), scheduler, prefetch, settler::release,
                options.prepareTimeout().multipliedBy(2), clock);
    }

    void start(DeliveryListener listener) {
        if (serial) {
            settler.addListener(this::deliveredFinished);
        }
        execute(() -> {
            this.listener = listener;
            popIfNeeded();
        });
        if (configured.any()) {
            writeStartingValues();
        }
        leaveFlow = flow.join((before, now) -> execute(() -> flowChanged(before, now)));
    }

    /**
     * Writes the configured limits per key, fair share and aging as the topic's starting values ({@code flow_set.lua}
     * in config mode: a value changed live stands until configuration asks for another), then follows the flow hash.
     */
    private void writeStartingValues() {
        if (!writingStart.compareAndSet(false, true)) {
            return;
        }
        scripts.flowSet(false, configured.startingFields()).whenComplete((reply, failure) -> {
            writingStart.set(false);
            if (failure != null) {
                LOG.flowStartingValuesFailed(scripts.keys().topic().name(), name, String.valueOf(failure.getMessage()));
                return;
            }
            startingWritten = true;
            flow.refresh();
        });
    }

    private FlowGate newGate() {
        settler.takeOutcomes(); // deliveries settled before the gate are old news to the adaptive slow-down
        return new FlowGate(new TopicLimiter(scripts, options.rateLimit().orElse(null),
                options.adaptiveSlowDown().orElse(null), name, settler, flow), options.batchSize(), loop,
                this::popIfNeeded, scripts.keys().topic().name(), name, flow::genSeen);
    }

    /**
     * The topic's flow settings changed: a limit set live gets this consumer a gate, a limit removed drops it (once
     * the gate wrote this consumer's configured limit, if any, which the settings then show), and a flow hash that
     * disappeared (Redis restarted empty) is written again from this consumer's configured limit.
     */
    private void flowChanged(FlowSettings before, FlowSettings now) {
        if (stopping) {
            return;
        }
        if (options.rateLimit().isPresent() && now.gen() == 0 && before.gen() > 0) {
            LOG.flowSettingsLost(scripts.keys().topic().name(), name);
            gate = newGate();
            gate.reserve(System.nanoTime()); // writes the limit now, also while nothing waits to be popped
        } else if (now.throttles() && gate == null) {
            gate = newGate();
        } else if (!now.throttles() && options.adaptiveSlowDown().isEmpty() && gate != null && gate.isConfigured() && now.gen() >= gate.gen()) {
            gate = null;
            throttledSince = 0;
        }
        followFeatures(before, now);
        popIfNeeded();
    }

    /**
     * Limits per key, fair share and priority aging as the topic's flow hash records them, once this consumer's
     * starting values are written: a change made live reaches the next pop and settlement. A hash that disappeared
     * (Redis restarted empty) is written again from the configured values; until then the features in force stay.
     */
    private void followFeatures(FlowSettings before, FlowSettings now) {
        if (configured.any() && now.gen() == 0 && before.gen() > 0) {
            startingWritten = false;
            writeStartingValues();
            return;
        }
        if (!startingWritten) {
            writeStartingValues(); // failed before: Redis answers again
            return;
        }
        if (now.gen() == 0) {
            return;
        }
        FlowFeatures recorded;
        try {
            recorded = FlowFeatures.fromFlowFields(now.fields());
        } catch (IllegalArgumentException e) {
            LOG.flowFeaturesUnreadable(scripts.keys().topic().name(), name, e.getMessage());
            return;
        }
        if (recorded.keyLimits().on() && recorded.fairShare().on()) {
            if (!bothFeaturesLogged) {
                LOG.keyLimitsWithFairShare(scripts.keys().topic().name(), name);
                bothFeaturesLogged = true;
            }
            recorded = new FlowFeatures(recorded.keyLimits(), FairShare.OFF, recorded.priorityAging());
        }
        if (!recorded.keyLimits().equals(applied.keyLimits())) {
            scripts.keyLimits(recorded.keyLimits());
        }
        if (!recorded.fairShare().equals(applied.fairShare())) {
            updateFairShare(recorded.fairShare());
        }
        if (recorded.priorityAging().pacePerMilli() != applied.priorityAging().pacePerMilli()) {
            scripts.applyPriorityAging(recorded.priorityAging());
        }
        applied = recorded;
    }

    /** Redis became reachable, or the ownership may be applied: look for work. */
    void poke() {
        execute(this::popIfNeeded);
    }

    void request(long n) {
        if (Thread.currentThread() == loopThread) {
            addDemand(n);
        } else {
            execute(() -> addDemand(n));
        }
    }

    void assign(int[] slots) {
        execute(() -> {
            scheduler.assign(slots);
            popIfNeeded();
        });
    }

    int[] assignedSlots() {
        return scheduler.assignedSlots().clone();
    }

    /**
     * The topic has {@code slotAmount} slots now (a growth began): without coordination the new slots are
     * consumed at once; with coordination, once the leader assigns them.
     */
    void grow(int slotAmount) {
        execute(() -> growNow(slotAmount));
    }

    private void growNow(int slotAmount) {
        if (slotAmount <= scheduler.slotAmount()) {
            return;
        }
        LOG.consumerGrows(name, scripts.keys().topic().name(), scheduler.slotAmount(), slotAmount);
        scripts.grow(slotAmount);
        settler.grow(slotAmount);
        prefetch.grow(slotAmount);
        ownership.grow(slotAmount);
        scheduler.grow(slotAmount, !serial);
        popIfNeeded();
    }

    /** The coordinator's report; applied on the loop thread. */
    void ownershipChanged(SlotOwnership slots, String worker) {
        execute(() -> {
            if (!stopping) {
                if (!slots.epochs().isEmpty() && slots.epochs().lastKey() >= scheduler.slotAmount()) {
                    // assigned by a leader that learnt of a growth first
                    growNow(Integer.highestOneBit(slots.epochs().lastKey()) * 2);
                }
                workerId = worker;
                ownership.apply(slots);
                popIfNeeded();
            }
        });
    }

    @Override
    public void wake(int slot, long delayMillis) {
        execute(() -> {
            scheduler.wake(slot, delayMillis);
            popIfNeeded();
        });
    }

    @Override
    public void reconnected() {
        execute(() -> {
            scheduler.wakeAll();
            popIfNeeded();
        });
    }

    /** A delivered message was settled (subscribed in serial mode only): its slot's next message may go. */
    private void deliveredFinished(Delivery d) {
        if (Thread.currentThread() == loopThread) {
            slotFree(d);
        } else {
            execute(() -> slotFree(d));
        }
    }

    private void slotFree(Delivery d) {
        if (prefetch.finished(d)) {
            drain();
        }
    }

    /**
     * Pauses: nothing more is popped or handed to the listener, and the popped messages not handed over yet
     * (the prefetch, and those of pops under way when they return) are released to the store queue with their
     * score, no attempt counted. Messages the listener holds are settled as usual. The demand is kept.
     */
    void pause() {
        // at once, not only when the loop gets to the task: a pop the loop would start before then (its pass under
        // way, a wake notice) does not leave, and a pop's reply is released rather than handed over
        paused = true;
        execute(() -> {
            paused = true; // again: a resume() called just before may have run first
            timer.cancel();
            warmUpTimer.cancel();
            releasePrefetched();
        });
    }

    /** Resumes after {@link #pause}: popping starts again for the demand kept. */
    void resume() {
        execute(() -> {
            paused = false;
            scheduler.wakeAll();
            drain();
        });
    }

    private void releasePrefetched() {
        List<Delivery> undelivered = prefetch.removeAll();
        if (!undelivered.isEmpty()) {
            settler.releaseAll(undelivered);
        }
    }

    /**
     * Stops popping and delivering. Completes, once no pop is under way any more, with the popped
     * messages that were never delivered (taken out of the prefetch).
     */
    CompletionStage<List<Delivery>> stop() {
        CompletableFuture<List<Delivery>> done = new CompletableFuture<>();
        if (!execute(() -> {
            stopping = true;
            leaveFlow.run();
            timer.cancel();
            warmUpTimer.cancel();
            popsDone = done;
            completeIfPopsDone();
        })) {
            done.complete(List.of());
        }
        return done;
    }

    /** Whether the loop waits for permits of the topic's rate limit now, with demand and room for messages. */
    boolean isThrottled() {
        return throttledSince != 0;
    }

    /** Ends the loop thread; call after {@link #stop}'s stage completed. */
    void shutdown() {
        loop.shutdown();
    }

    private void completeIfPopsDone() {
        if (popsDone != null && popsInFlight == 0) {
            popsDone.complete(prefetch.removeAll());
        }
    }

    private void addDemand(long n) {
        demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
        drain();
    }

    private void drain() {
        if (draining) {
            return;
        }
        draining = true;
        try {
            while (handOver() && demand > 0 && !prefetch.isEmpty()) {
                // the listener asked for more when told the hand-over ended: hand over what is ready
            }
        } finally {
            draining = false;
        }
        popIfNeeded();
    }

    /**
     * One hand-over pass: gives the listener ready messages while it has demand, then, if it gave any, tells it
     * the pass ended; demand the listener adds meanwhile is counted, handed over by the next pass. Returns
     * whether it gave any.
     */
    private boolean handOver() {
        // the commits the listener makes here travel together, sent when the pass ends or after 1 ms (Settlement)
        settler.holdCommits();
        long holdingSince = System.nanoTime();
        boolean handedOver = false;
        try {
            while (demand > 0 && !stopping && !paused && listener != null) {
                Delivery d = prefetch.poll();
                if (d == null) {
                    break;
                }
                if (!d.markDelivered()) {
                    continue;
                }
                prefetch.delivered(d);
                held.delivered();
                demand--;
                handedOver = true;
                try {
                    listener.onDelivery(d);
                } catch (RuntimeException e) {
                    LOG.listenerFailed(name, d, e);
                    settler.rollback(d, e);
                }
                long now = System.nanoTime();
                if (now - holdingSince >= HOLD_COMMITS_NANOS) {
                    settler.sendHeldCommits();
                    settler.holdCommits();
                    holdingSince = now;
                }
            }
        } finally {
            settler.sendHeldCommits();
        }
        if (handedOver) {
            try {
                listener.onHandOverEnd();
            } catch (RuntimeException e) {
                LOG.listenerFailedAtHandOverEnd(name, e);
            }
        }
        return handedOver;
    }

    /**
     * The slot this consumer's round-robin starts at: the n-th consumer of the JVM starts at the fractional part of
     * n times 0.618... (the inverse of the golden ratio) of the slot amount, a sequence that spreads any number of
     * consumers of a topic over its slots.
     */
    static int firstSlot(int slotAmount) {
        double spread = STARTED.getAndIncrement() * 0.6180339887498949 % 1.0;
        return (int) (spread * slotAmount);
    }

    /** Claims newly owned slots, then pops from due slots while there is demand and room in the prefetch. */
    private void popIfNeeded() {
        if (stopping || paused || listener == null || !redis.wasReached()) {
            return;
        }
        for (int slot = scheduler.nextUnclaimedSlot(); slot >= 0; slot = scheduler.nextUnclaimedSlot()) {
            startPop(slot, 0, null);
        }
        boolean throttled = false;
        while (demand > 0) {
            int room = roomToPop();
            if (room == 0) {
                break;
            }
            int slot = scheduler.nextDueSlot(System.nanoTime());
            if (slot < 0) {
                checkParked();
                break;
            }
            if (gate == null) {
                startPop(slot, scheduler.popCount(slot, room), null);
                continue;
            }
            long now = System.nanoTime();
            FlowGate.Permits permits = gate.take(room, now);
            if (permits != null) {
                endThrottled(now);
                startPop(slot, permits.count(), permits);
            } else {
                throttled = true;
                if (throttledSince == 0) {
                    throttledSince = now;
                }
                scheduler.notPopped(slot);
            }
            gate.reserve(now); // right after the pop, in the same flush
            if (throttled) {
                break;
            }
        }
        if (throttled) {
            armThrottled();
        } else {
            armTimer();
        }
    }

    /** The loop got permits after waiting for them: the listener learns how long it waited. */
    private void endThrottled(long now) {
        if (throttledSince == 0) {
            return;
        }
        long waited = now - throttledSince;
        throttledSince = 0;
        try {
            listener.onThrottled(waited);
        } catch (RuntimeException e) {
            LOG.listenerFailedOnThrottled(name, e);
        }
    }

    /** A throttled consumer sleeps until its permits are valid; a reply of the limiter pops at once otherwise. */
    private void armThrottled() {
        long at = gate.wakeAt();
        if (at != Long.MAX_VALUE) {
            timer.arm(at);
        }
    }

    /** The safety poll of the slots that had nothing waiting: one existence check for them all. */
    private void checkParked() {
        int[] slots = scheduler.parkedDue(System.nanoTime());
        if (slots.length == 0) {
            return;
        }
        CompletionStage<Long> check;
        try {
            check = scripts.countPending(slots, fairShare.on(), scripts.keyLimits().on());
        } catch (RuntimeException e) { // thrown rather than returned: a failed check, retried like one
            check = CompletableFuture.failedFuture(e);
        }
        check.whenCompleteAsync((pending, failure) -> {
            if (failure != null) {
                scheduler.checkFailed(slots, System.nanoTime());
                LOG.idleCheckFailed(redis.isConnected(), slots.length, scripts.keys().topic().name(), name,
                        RmqClient.rootMessage(failure));
            } else {
                scheduler.checkDone(slots, pending > 0, System.nanoTime());
            }
            popIfNeeded();
        }, loop);
    }

    /** Fair-share settings for the next pops; settlement puts members back into their tenants' queues while on. */
    /** The fair share this consumer's pops apply now. */
    FairShare fairShare() {
        return fairShare;
    }

    void updateFairShare(FairShare fair) {
        scripts.settleByTenant(fair.on());
        this.fairShare = fair;
    }

    private void startPop(int slot, int count, FlowGate.Permits permits) {
        flow.active();
        long epoch = scheduler.epoch(slot);
        scheduler.popStarted(slot, count);
        popsInFlight++;
        CompletionStage<TopicScripts.PopReply> pop;
        try {
            pop = scripts.pop(slot, count, options.prepareTimeout().toMillis(), epoch, workerId, options.expiredToDead(),
                    options.traced(), fairShare);
        } catch (RuntimeException e) {
            // thrown rather than returned: still a failed pop, or the slot would count as popping for good
            pop = CompletableFuture.failedFuture(e);
        }
        pop.whenCompleteAsync((popped, failure) -> onPopped(slot, count, epoch, permits, popped, failure), loop);
    }

    private void onPopped(int slot, int count, long epoch, FlowGate.Permits permits, TopicScripts.PopReply popped,
            Throwable failure) {
        popsInFlight--;
        if (permits != null && gate != null) {
            gate.used(permits, failure == null ? popped.members().size() : 0);
        }
        long now = System.nanoTime();
        if (failure != null) {
            scheduler.popFailed(slot, count, now);
            LOG.popFailed(redis.isConnected(), slot, scripts.keys().topic().name(), name, RmqClient.rootMessage(failure));
        } else {
            if (popped.expired() > 0) {
                events.expired(scripts.keys().topic(), popped.expired());
                if (options.expiredToDead()) {
                    events.deadLettered(scripts.keys().topic(), popped.expired());
                }
            }
            SlotOwnershipTracker.Outcome outcome = ownership.popped(slot, epoch, popped);
            scheduler.popDone(slot, count, popped.members().size(), popped.nextDelayMillis(), now);
            List<Delivery> deliveries = Delivery.of(settler, scripts.keys().topic().name(), slot, popped.members());
            if (!deliveries.isEmpty()) {
                held.addAll(deliveries);
                if (outcome == SlotOwnershipTracker.Outcome.RELEASE) {
                    settler.release(slot, deliveries); // the slot moved while this pop was under way
                } else {
                    prefetch.addAll(deliveries);
                }
            }
        }
        if (paused && !stopping) {
            releasePrefetched();
        }
        completeIfPopsDone();
        drain();
    }

    /** How many members the next pop may ask for: the room left in the prefetch, or 0 while it is more than half full. */
    private int roomToPop() {
        int batch = options.batchSize();
        int buffered = prefetch.size() + scheduler.popping();
        int room = batch - buffered;
        return room <= 0 || (buffered > 0 && room < (batch + 1) / 2) ? 0 : room;
    }

    private void armTimer() {
        // Without demand, or without room (a pop under way re-runs popIfNeeded when it returns, and
        // deliveries make room), a timer for a slot that is already due would fire at once in a loop.
        if (demand <= 0 || stopping || paused || roomToPop() == 0) {
            return;
        }
        long at = scheduler.earliestDue();
        if (at != Long.MAX_VALUE) {
            timer.arm(at);
            long pop = scheduler.earliestPopDue();
            if (pop != Long.MAX_VALUE && pop - System.nanoTime() > WARM_UP_LEAD_NANOS) {
                warmUpTimer.arm(pop - WARM_UP_LEAD_NANOS);
            }
        }
    }

    /** Shortly before a member's due time the consumer slept for: a {@code PING} when the connection was quiet. */
    private void warmUp() {
        if (!stopping && !paused) {
            scripts.warmUp(WARM_UP_QUIET_NANOS);
        }
    }

    /** Runs a task on the loop thread; false when the loop has ended. */
    private boolean execute(Runnable task) {
        try {
            loop.execute(task);
            return true;
        } catch (RejectedExecutionException e) {
            LOG.consumerClosedDroppedTask(name);
            return false;
        }
    }
}
