package io.rmq.engine;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;

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
 * <p><b>Shutdown.</b> {@link #close()} stops popping, releases the prefetched messages at once (no
 * attempt counted), waits up to {@code shutdownTimeout} for delivered messages to be committed or
 * rolled back, releases whatever is still unfinished, and flushes the commits.
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

    private final RmqClient client;
    private final TopicKeys keys;
    private final ConsumerOptions options;
    private final String name;
    private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);
    private final ScheduledExecutorService loop;
    private final Set<Delivery> held = ConcurrentHashMap.newKeySet();
    private final Map<Integer, CommitBatcher> commits = new ConcurrentHashMap<>();
    private final SlotScheduler scheduler;
    private final RmqClient.WakeListener wakeListener;
    private final CompletableFuture<Void> closed = new CompletableFuture<>();
    private final List<ScheduledFuture<?>> housekeepingTasks = new ArrayList<>();
    private volatile Thread loopThread;
    private volatile SlotPopper popper;

    // Confined to the loop thread.
    private Listener listener;
    private long demand;
    private boolean draining;
    private final ArrayDeque<Delivery> ready = new ArrayDeque<>();

    TopicConsumer(RmqClient client, TopicKeys keys, ConsumerOptions options, String name) {
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
        this.scheduler = new SlotScheduler(keys.topic().slotAmount(), options.pollInterval());
        this.wakeListener = new RmqClient.WakeListener() {
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

    /** Starts consuming; nothing is popped before {@link #request} asks for messages. */
    public void start(Listener listener) {
        if (!state.compareAndSet(State.LATENT, State.STARTED)) {
            throw new IllegalStateException("consumer " + name + " cannot be started in state " + state.get());
        }
        this.popper = new SlotPopper(client, keys, options);
        execute(() -> this.listener = listener);
        client.addWakeListener(keys.wakeChannel(), wakeListener);
        long extendEvery = Math.max(50, options.prepareTimeout().toMillis() / 3);
        long sweepEvery = Math.max(100, Math.min(options.prepareTimeout().toMillis() / 2, 10_000));
        ScheduledExecutorService hk = client.housekeeping();
        housekeepingTasks.add(hk.scheduleWithFixedDelay(this::extendDeadlines, extendEvery, extendEvery, TimeUnit.MILLISECONDS));
        housekeepingTasks.add(hk.scheduleWithFixedDelay(this::sweepExpired, sweepEvery / 2, sweepEvery, TimeUnit.MILLISECONDS));
        client.ready().thenRun(() -> execute(this::popIfNeeded));
    }

    /** Restricts consumption to the given slots (all slots by default). */
    public void assignSlots(int[] slots) {
        execute(() -> {
            scheduler.assign(slots);
            popIfNeeded();
        });
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
            while (demand > 0 && !ready.isEmpty() && state.get() == State.STARTED) {
                Delivery d = ready.poll();
                if (!d.markDelivered()) {
                    continue;
                }
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

    /** Pops from due slots while there is demand and room in the prefetch. Loop thread only. */
    private void popIfNeeded() {
        if (state.get() != State.STARTED || listener == null || !client.ready().toCompletableFuture().isDone()) {
            return;
        }
        int batch = options.batchSize();
        while (demand > 0) {
            int buffered = ready.size() + scheduler.popping();
            int room = batch - buffered;
            if (room <= 0 || (buffered > 0 && room < (batch + 1) / 2)) {
                break;
            }
            int slot = scheduler.nextDueSlot(System.nanoTime());
            if (slot < 0) {
                break;
            }
            scheduler.popStarted(slot, room);
            int count = room;
            popper.pop(slot, count).whenCompleteAsync((popped, failure) -> onPopped(slot, count, popped, failure), loop);
        }
        armTimer();
    }

    private void onPopped(int slot, int count, SlotPopper.Popped popped, Throwable failure) {
        long now = System.nanoTime();
        if (failure != null) {
            scheduler.popFailed(slot, count, now);
            // While the connection is down the client has logged the outage once; no line per slot and second.
            LOG.log(client.isConnected() ? Level.WARNING : Level.FINE, "RMQ-0103 Popping slot " + slot + " of topic '"
                    + topic().name() + "' for " + name + " failed, retrying in 1 s: " + RmqClient.rootMessage(failure));
            armTimer();
            return;
        }
        scheduler.popDone(slot, count, popped.nextDelayMillis(), now);
        List<Delivery> deliveries = popped.toDeliveries(this, slot);
        held.addAll(deliveries);
        ready.addAll(deliveries);
        if (state.get() == State.STARTED) {
            drain();
        }
    }

    private ScheduledFuture<?> timer;
    private long timerAt = Long.MAX_VALUE;

    private void armTimer() {
        if (demand <= 0 || state.get() != State.STARTED) {
            return;
        }
        long at = scheduler.earliestDue();
        if (at == Long.MAX_VALUE) {
            return;
        }
        if (timer != null && !timer.isDone() && timerAt <= at) {
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
        if (d.finish() < 0) {
            return CompletableFuture.completedFuture(null);
        }
        commits.computeIfAbsent(d.slot(), s -> new CommitBatcher(client::scripts, keys.slot(s), keys.wakeChannel(),
                "slot " + s + " of topic '" + topic().name() + "'", held::removeAll)).add(d);
        return CompletableFuture.completedFuture(null);
    }

    CompletionStage<Void> rollback(Delivery d, Throwable reason) {
        if (d.finish() < 0) {
            return CompletableFuture.completedFuture(null);
        }
        return popper.rollback(d.slot(), List.of(d)).handle((result, failure) -> {
            held.remove(d);
            if (failure != null) {
                LOG.warning("RMQ-0104 Rolling back " + d + " failed; it stays in the prepare queue and is rolled back"
                        + " after its deadline: " + RmqClient.rootMessage(failure));
            } else if (result.dead() > 0) {
                LOG.warning("RMQ-0105 " + d + " failed on its last allowed delivery and moved to the dead queue "
                        + keys.slot(d.slot()).dead() + ": " + reason);
            }
            return null;
        });
    }

    private CompletionStage<Void> release(int slot, List<Delivery> deliveries) {
        List<Delivery> toRelease = new ArrayList<>();
        for (Delivery d : deliveries) {
            if (d.finish() >= 0) {
                toRelease.add(d);
            }
        }
        if (toRelease.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return popper.release(slot, toRelease).handle((n, failure) -> {
            held.removeAll(toRelease);
            if (failure != null) {
                LOG.warning("RMQ-0107 Releasing " + toRelease.size() + " undelivered message(s) of slot " + slot
                        + " failed; they are rolled back after their deadline: " + RmqClient.rootMessage(failure));
            }
            return null;
        });
    }

    private void extendDeadlines() {
        if (held.isEmpty() || !client.isConnected()) {
            return;
        }
        Map<Integer, List<Delivery>> bySlot = new java.util.HashMap<>();
        for (Delivery d : held) {
            if (!d.isFinished()) {
                bySlot.computeIfAbsent(d.slot(), s -> new ArrayList<>()).add(d);
            }
        }
        bySlot.forEach((slot, list) -> popper.extend(slot, list).exceptionally(f -> {
            LOG.warning("RMQ-0108 Extending the deadlines of " + list.size() + " message(s) of slot " + slot
                    + " failed: " + RmqClient.rootMessage(f));
            return 0L;
        }));
    }

    private void sweepExpired() {
        if (!client.isConnected() || state.get() != State.STARTED) {
            return;
        }
        for (int slot : scheduler.assignedSlots()) {
            popper.sweep(slot).whenComplete((r, f) -> {
                if (f != null) {
                    LOG.fine("Sweeping slot " + slot + " failed: " + f);
                } else if (r.total() > 0) {
                    LOG.info("RMQ-0109 Rolled back " + r.total() + " message(s) of slot " + slot + " of topic '"
                            + topic().name() + "' whose prepare deadline had passed (" + r.requeued() + " requeued, "
                            + r.merged() + " merged, " + r.dead() + " to the dead queue)");
                }
            });
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
        execute(() -> {
            if (timer != null) {
                timer.cancel(false);
            }
        });
        long deadline = System.nanoTime() + options.shutdownTimeout().toNanos();
        popsFinished().thenCompose(undelivered -> {
            CompletionStage<Void> releasedPrefetch = releaseAll(undelivered);
            return waitForDelivered(deadline).thenCompose(v -> releasedPrefetch);
        })
            .thenCompose(v -> {
                List<Delivery> unfinished = new ArrayList<>();
                for (Delivery d : held) {
                    if (!d.isFinished()) {
                        unfinished.add(d);
                    }
                }
                if (!unfinished.isEmpty()) {
                    LOG.warning("RMQ-0111 " + unfinished.size() + " message(s) of " + name + " were still being"
                            + " processed after the shutdown timeout of " + options.shutdownTimeout().toMillis()
                            + " ms; released for redelivery");
                }
                return releaseAll(unfinished);
            })
            .thenCompose(v -> CompletableFuture.allOf(commits.values().stream()
                    .map(c -> c.flushed().toCompletableFuture()).toArray(CompletableFuture[]::new)))
            .whenComplete((v, f) -> finishClose());
        return closed;
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
                    List<Delivery> undelivered = new ArrayList<>(ready);
                    ready.clear();
                    done.complete(undelivered);
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
                boolean busy = held.stream().anyMatch(Delivery::isDelivered);
                if (!busy || System.nanoTime() >= deadlineNanos) {
                    done.complete(null);
                } else {
                    client.housekeeping().schedule(this, 10, TimeUnit.MILLISECONDS);
                }
            }
        };
        check.run();
        return done;
    }

    private CompletionStage<Void> releaseAll(List<Delivery> deliveries) {
        Map<Integer, List<Delivery>> bySlot = new java.util.HashMap<>();
        for (Delivery d : deliveries) {
            bySlot.computeIfAbsent(d.slot(), s -> new ArrayList<>()).add(d);
        }
        return CompletableFuture.allOf(bySlot.entrySet().stream()
                .map(e -> release(e.getKey(), e.getValue()).toCompletableFuture())
                .toArray(CompletableFuture[]::new));
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
        return (int) held.stream().filter(d -> !d.isFinished()).count();
    }

    private void execute(Runnable task) {
        try {
            loop.execute(task);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            LOG.fine("consumer " + name + " is closed; dropped a task");
        }
    }

    ExecutorService loop() {
        return loop;
    }
}
