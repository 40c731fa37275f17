package io.rmq.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.rmq.engine.coordination.SlotOwnership;

/**
 * Consumes the slots of one topic: pops due members in batches, hands them to a {@link Listener}
 * strictly on demand, and commits or rolls them back.
 *
 * <p><b>Back-pressure.</b> It pops only while the listener has outstanding demand, and holds at
 * most {@code batchSize} popped-but-undelivered messages (the prefetch), so a slow listener cannot
 * make messages pile up in the prepare queue. Prefetched and delivered-but-unfinished messages keep
 * their prepare deadlines extended while this consumer lives.
 *
 * <p><b>Waiting.</b> A slot with nothing due sleeps until its earliest due time (reported by the pop
 * script in Redis time), until a wake notice from a producer, commit or rollback, or until the safety
 * poll; it never spins.
 *
 * <p><b>Coordination.</b> With {@link ConsumerOptions#coordination()}, the consumer is one worker of
 * its topic in ZooKeeper and pops only the slots the leader assigns to it, each under its ownership
 * epoch: a newly assigned slot is claimed at once (the pop script records the epoch in Redis, which
 * fences the previous owner), and popped once the previous owner's in-flight messages have left the
 * prepare queue (handover). A slot that moves away, or that the pop script reports as claimed under a
 * newer epoch, is no longer popped, and its prefetched messages are released at once; messages the
 * listener is processing are finished and committed as usual. While the ZooKeeper connection is
 * suspended nothing is popped; when the session is lost all slots are given up. Messages of one slot
 * are handed to the listener one at a time: the next only after the previous one is committed or
 * rolled back. See {@link SlotOwnershipTracker} and {@link io.rmq.engine.coordination.SlotCoordinator}.
 *
 * <p><b>Shutdown.</b> {@link #close()} leaves the coordination (if any), stops popping, releases the
 * prefetched messages at once (no attempt counted), waits up to {@code shutdownTimeout} for delivered
 * messages to be committed or rolled back, releases whatever is still unfinished (with coordination it
 * leaves them in the prepare queue instead, for the sweeper to roll back at their deadline, since the
 * application may still be processing them), and flushes the commits.
 *
 * <p><b>Threading.</b> All scheduling state is confined to one thread per consumer
 * ({@code rmq-<name>}), on which the listener is called, one delivery at a time. Commits, rollbacks
 * and {@link #request} may be called from any thread. Deadline extension and sweeping run on the
 * client's housekeeping thread, so they go on while the listener is busy.
 */
public final class TopicConsumer implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(TopicConsumer.class.getName());

    /** Receives deliveries on the consumer's thread. */
    public interface Listener {
        /** A message; commit or roll it back, from any thread, now or later. */
        void onDelivery(Delivery delivery);
    }

    private enum State { LATENT, STARTED, STOPPING, CLOSED }

    private final RmqEngine client;
    private final TopicKeys keys;
    private final ConsumerOptions options;
    private final String name;
    private final boolean coordinated;
    private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);
    private final ScheduledExecutorService loop;
    private final SlotPopper popper;
    private final HeldMessages held;
    private final Map<Integer, CommitBatcher> commits = new ConcurrentHashMap<>();
    private final SlotScheduler scheduler;
    private final RmqEngine.WakeListener wakeListener;
    private final CompletableFuture<Void> closed = new CompletableFuture<>();
    private final List<ScheduledFuture<?>> housekeepingTasks = new ArrayList<>();
    private volatile Thread loopThread;
    /** Set on the loop thread once Redis is reachable (coordinated consumers only). */
    private volatile ConsumerCoordination coordination;
    private volatile String workerId;

    // Confined to the loop thread.
    private Listener listener;
    private long demand;
    private boolean draining;
    private final PrefetchBuffer prefetch;
    private final SlotOwnershipTracker ownership;
    private ScheduledFuture<?> timer;
    private long timerAt = Long.MAX_VALUE;

    TopicConsumer(RmqEngine client, TopicKeys keys, ConsumerOptions options, String name) {
        this.client = client;
        this.keys = keys;
        this.options = options;
        this.name = name;
        this.loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "rmq-" + name);
            t.setDaemon(true);
            loopThread = t;
            return t;
        });
        this.coordinated = options.coordination().isPresent();
        int slotAmount = keys.topic().slotAmount();
        this.popper = new SlotPopper(client, keys, options);
        this.held = new HeldMessages(client, keys, popper);
        this.scheduler = new SlotScheduler(slotAmount, options.pollInterval(), !coordinated);
        this.prefetch = new PrefetchBuffer(slotAmount, coordinated);
        // a crashed owner's messages are swept within 1.5 prepare timeouts: a longer wait has another cause
        this.ownership = new SlotOwnershipTracker(name, keys.topic(), scheduler, prefetch, held::release,
                options.prepareTimeout().multipliedBy(2));
        this.wakeListener = new RmqEngine.WakeListener() {
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
        };
    }

    public TopicDefinition topic() {
        return keys.topic();
    }

    public ConsumerOptions options() {
        return options;
    }

    public String name() {
        return name;
    }

    /**
     * Starts consuming; nothing is popped before {@link #request} asks for messages. With
     * coordination, the consumer joins the topic's workers once Redis is reachable.
     */
    public void start(Listener listener) {
        if (!state.compareAndSet(State.LATENT, State.STARTED)) {
            throw new IllegalStateException("consumer " + name + " cannot be started in state " + state.get());
        }
        execute(() -> this.listener = listener);
        client.addWakeListener(keys.wakeChannel(), wakeListener);
        long extendEvery = Math.max(50, options.prepareTimeout().toMillis() / 3);
        long sweepEvery = Math.max(100, Math.min(options.prepareTimeout().toMillis() / 2, 10_000));
        ScheduledExecutorService hk = client.housekeeping();
        housekeepingTasks.add(hk.scheduleWithFixedDelay(held::extendDeadlines, extendEvery, extendEvery, TimeUnit.MILLISECONDS));
        housekeepingTasks.add(hk.scheduleWithFixedDelay(this::sweepExpired, sweepEvery / 2, sweepEvery, TimeUnit.MILLISECONDS));
        client.ready().thenRun(() -> execute(() -> {
            joinCoordination();
            popIfNeeded();
        }));
    }

    /** Loop thread: becomes a worker of the topic. */
    private void joinCoordination() {
        if (!coordinated || coordination != null || state.get() != State.STARTED) {
            return;
        }
        coordination = ConsumerCoordination.start(client, options.coordination().get(), topic(), name,
                this::ownershipChanged, popper::highestEpoch);
    }

    /** Called on the coordinator's thread; applied on the loop thread. */
    private void ownershipChanged(SlotOwnership slots) {
        execute(() -> {
            if (state.get() == State.STARTED) {
                workerId = coordination.workerId();
                ownership.apply(slots);
                popIfNeeded();
            }
        });
    }

    /**
     * Restricts consumption to the given slots (all slots by default).
     *
     * @throws IllegalStateException when the consumer coordinates through ZooKeeper: the leader assigns its slots
     */
    public void assignSlots(int[] slots) {
        if (coordinated) {
            throw new IllegalStateException("consumer " + name + " coordinates through ZooKeeper: the leader assigns its slots");
        }
        execute(() -> {
            scheduler.assign(slots);
            popIfNeeded();
        });
    }

    /** The slots this consumer pops now: all of them without coordination, those it owns with coordination. */
    public int[] assignedSlots() {
        return scheduler.assignedSlots().clone();
    }

    /** With coordination, the consumer's worker id in ZooKeeper, once it has joined and heard from its coordinator. */
    public Optional<String> workerId() {
        return Optional.ofNullable(workerId);
    }

    /** Adds demand: the listener may receive {@code n} more deliveries. */
    public void request(long n) {
        if (n <= 0) {
            throw new IllegalArgumentException("demand must be positive, was " + n);
        }
        if (Thread.currentThread() == loopThread) {
            addDemand(n);
        } else {
            execute(() -> addDemand(n));
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
            while (demand > 0 && state.get() == State.STARTED) {
                Delivery d = prefetch.poll();
                if (d == null) {
                    break;
                }
                if (!d.markDelivered()) {
                    continue;
                }
                prefetch.delivered(d);
                demand--;
                try {
                    listener.onDelivery(d);
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "RMQ-0106 The listener of " + name + " failed on " + d + "; rolling it back", e);
                    rollback(d, e);
                }
            }
        } finally {
            draining = false;
        }
        popIfNeeded();
    }

    /**
     * Claims newly owned slots, then pops from due slots while there is demand and room in the
     * prefetch. Loop thread only.
     */
    private void popIfNeeded() {
        if (state.get() != State.STARTED || listener == null || !client.ready().toCompletableFuture().isDone()) {
            return;
        }
        for (int slot = scheduler.nextUnclaimedSlot(); slot >= 0; slot = scheduler.nextUnclaimedSlot()) {
            startPop(slot, 0);
        }
        while (demand > 0) {
            int room = roomToPop();
            if (room == 0) {
                break;
            }
            int slot = scheduler.nextDueSlot(System.nanoTime());
            if (slot < 0) {
                break;
            }
            startPop(slot, room);
        }
        armTimer();
    }

    private void startPop(int slot, int count) {
        long epoch = scheduler.epoch(slot);
        scheduler.popStarted(slot, count);
        popper.pop(slot, count, epoch, workerId)
                .whenCompleteAsync((popped, failure) -> onPopped(slot, count, epoch, popped, failure), loop);
    }

    private void onPopped(int slot, int count, long epoch, SlotPopper.Popped popped, Throwable failure) {
        long now = System.nanoTime();
        if (failure != null) {
            scheduler.popFailed(slot, count, now);
            // While the connection is down the client has logged the outage once; no line per slot and second.
            LOG.log(client.isConnected() ? Level.WARNING : Level.FINE, "RMQ-0103 Popping slot " + slot + " of topic '"
                    + topic().name() + "' for " + name + " failed, retrying in 1 s: " + RmqEngine.rootMessage(failure));
            armTimer();
            return;
        }
        SlotOwnershipTracker.Outcome outcome = ownership.popped(slot, epoch, popped);
        scheduler.popDone(slot, count, popped.nextDelayMillis(), now);
        List<Delivery> deliveries = popped.toDeliveries(this, slot);
        if (!deliveries.isEmpty()) {
            held.addAll(deliveries);
            if (outcome == SlotOwnershipTracker.Outcome.RELEASE) {
                held.release(slot, deliveries); // the slot moved while this pop was under way
            } else {
                prefetch.addAll(deliveries);
            }
        }
        if (state.get() == State.STARTED) {
            drain();
        }
    }

    /**
     * How many members the next pop may ask for: the room left in the prefetch, or 0 while it is more
     * than half full (pops of a few members would cost a round trip each). Loop thread only.
     */
    private int roomToPop() {
        int batch = options.batchSize();
        int buffered = prefetch.size() + scheduler.popping();
        int room = batch - buffered;
        return room <= 0 || (buffered > 0 && room < (batch + 1) / 2) ? 0 : room;
    }

    private void armTimer() {
        // Without demand, or without room (a pop under way re-runs popIfNeeded when it returns, and
        // deliveries make room), a timer for a slot that is already due would fire at once in a loop.
        if (demand <= 0 || state.get() != State.STARTED || roomToPop() == 0) {
            return;
        }
        long at = scheduler.earliestDue();
        if (at == Long.MAX_VALUE) {
            return;
        }
        if (timer != null && !timer.isDone() && timerAt - at <= 0) {
            return;
        }
        if (timer != null) {
            timer.cancel(false);
        }
        timerAt = at;
        long delay = Math.max(0, at - System.nanoTime());
        timer = loop.schedule(() -> {
            timer = null;
            timerAt = Long.MAX_VALUE;
            popIfNeeded();
        }, delay, TimeUnit.NANOSECONDS);
    }

    CompletionStage<Void> commit(Delivery d) {
        if (!settle(d)) {
            return CompletableFuture.completedFuture(null);
        }
        commits.computeIfAbsent(d.slot(), s -> new CommitBatcher(client::scripts, keys.slot(s), keys.wakeChannel(),
                "slot " + s + " of topic '" + topic().name() + "'", held::committed)).add(d);
        return CompletableFuture.completedFuture(null);
    }

    CompletionStage<Void> rollback(Delivery d, Throwable reason) {
        if (!settle(d)) {
            return CompletableFuture.completedFuture(null);
        }
        return held.rollback(d, reason);
    }

    /**
     * Finishes a delivery; returns false when it was finished already. In serial mode a delivered
     * message that finishes lets its slot's next message go.
     */
    private boolean settle(Delivery d) {
        int left = d.finish();
        if (left < 0) {
            return false;
        }
        if (coordinated && left == Delivery.DELIVERED) {
            if (Thread.currentThread() == loopThread) {
                slotFree(d);
            } else {
                execute(() -> slotFree(d));
            }
        }
        return true;
    }

    private void slotFree(Delivery d) {
        if (prefetch.finished(d)) {
            drain();
        }
    }

    private void sweepExpired() {
        if (state.get() == State.STARTED) {
            held.sweepExpired(scheduler.assignedSlots());
        }
    }

    /** Stops gracefully (see the class comment) and waits for it, at most the shutdown timeout plus 5 s. */
    @Override
    public void close() {
        try {
            closeAsync().toCompletableFuture().get(options.shutdownTimeout().toMillis() + 5_000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.log(Level.WARNING, "RMQ-0110 Consumer " + name + " did not stop cleanly", e);
        }
    }

    /** Stops gracefully without blocking; the stage completes once everything is committed or released. */
    public CompletionStage<Void> closeAsync() {
        if (state.compareAndSet(State.LATENT, State.CLOSED)) {
            loop.shutdown();
            closed.complete(null);
            return closed;
        }
        if (!state.compareAndSet(State.STARTED, State.STOPPING)) {
            return closed;
        }
        CompletableFuture<Void> left = new CompletableFuture<>();
        execute(() -> {
            if (timer != null) {
                timer.cancel(false);
            }
            // First, so that the leader hands the slots on while this consumer finishes what it holds.
            ConsumerCoordination.closeAsync(coordination).whenComplete((v, f) -> left.complete(null));
        });
        long deadline = System.nanoTime() + options.shutdownTimeout().toNanos();
        popsFinished().thenCompose(undelivered -> {
            CompletionStage<Void> releasedPrefetch = held.releaseAll(undelivered);
            return waitForDelivered(deadline).thenCompose(v -> releasedPrefetch);
        })
            .thenCompose(v -> finishOrLeaveUnfinished())
            .thenCompose(v -> CompletableFuture.allOf(commits.values().stream()
                    .map(c -> c.flushed().toCompletableFuture()).toArray(CompletableFuture[]::new)))
            .thenCombine(left, (a, b) -> (Void) null)
            .whenComplete((v, f) -> finishClose());
        return closed;
    }

    /** After the shutdown timeout: releases what the application has not finished, or (serial mode) leaves it. */
    private CompletionStage<Void> finishOrLeaveUnfinished() {
        List<Delivery> unfinished = held.unfinished();
        if (unfinished.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        String what = "RMQ-0111 " + unfinished.size() + " message(s) of " + name + " were still being processed after"
                + " the shutdown timeout of " + options.shutdownTimeout().toMillis() + " ms; ";
        if (coordinated) {
            // Released now, they could reach the slot's next owner while the application still works on them.
            LOG.warning(what + "left in the prepare queue, they are rolled back when their deadline passes");
            return CompletableFuture.completedFuture(null);
        }
        LOG.warning(what + "released for redelivery");
        return held.releaseAll(unfinished);
    }

    /**
     * Completes, once no pop is under way any more, with the popped messages that were never
     * delivered (taken out of the prefetch).
     */
    private CompletionStage<List<Delivery>> popsFinished() {
        CompletableFuture<List<Delivery>> done = new CompletableFuture<>();
        Runnable check = new Runnable() {
            @Override
            public void run() {
                if (scheduler.popping() > 0) {
                    loop.schedule(this, 5, TimeUnit.MILLISECONDS);
                } else {
                    done.complete(prefetch.removeAll());
                }
            }
        };
        execute(check);
        return done;
    }

    private CompletionStage<Void> waitForDelivered(long deadlineNanos) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Runnable check = new Runnable() {
            @Override
            public void run() {
                if (!held.anyDelivered() || System.nanoTime() >= deadlineNanos) {
                    done.complete(null);
                } else {
                    client.housekeeping().schedule(this, 10, TimeUnit.MILLISECONDS);
                }
            }
        };
        check.run();
        return done;
    }

    private void finishClose() {
        housekeepingTasks.forEach(t -> t.cancel(false));
        client.removeWakeListener(keys.wakeChannel(), wakeListener);
        state.set(State.CLOSED);
        loop.shutdown();
        closed.complete(null);
    }

    /** Messages popped and not yet committed or rolled back (prefetched or being processed). */
    public int heldCount() {
        return held.count();
    }

    private void execute(Runnable task) {
        try {
            loop.execute(task);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            LOG.fine("consumer " + name + " is closed; dropped a task");
        }
    }
}
