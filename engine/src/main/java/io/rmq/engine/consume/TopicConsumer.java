package io.rmq.engine.consume;

import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import io.rmq.engine.consume.flow.FlowSettings;
import io.rmq.engine.consume.flow.FlowSettingsCache;
import io.rmq.engine.coordination.ZooKeeperSessions;
import io.rmq.engine.i18n.EngineExceptions;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.redis.RmqClient;
import io.rmq.engine.redis.WakeBus;
import io.rmq.engine.scripts.TopicScripts;
import io.rmq.engine.topic.FairShare;
import io.rmq.engine.topic.KeyLimits;
import io.rmq.engine.settlement.EngineEvents;
import io.rmq.engine.settlement.HeldMessages;
import io.rmq.engine.settlement.Settlement;
import io.rmq.engine.settlement.SettlementRetries;
import io.rmq.engine.topic.PriorityAging;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;

/**
 * Consumes the slots of one topic: pops due members in batches, hands them to a {@link DeliveryListener}
 * strictly on demand, and commits or rolls them back. Create it with {@code RmqEngine.consumer}.
 *
 * <p><b>Back-pressure.</b> It pops only while the listener has outstanding demand, and holds at
 * most {@code batchSize} popped-but-undelivered messages (the prefetch), so a slow listener cannot
 * make messages pile up in the prepare queue. Prefetched and delivered-but-unfinished messages keep
 * their prepare deadlines extended while this consumer lives.
 *
 * <p><b>Waiting.</b> A slot with nothing due sleeps until its earliest due time (reported by the pop
 * script in Redis time), until a wake notice from a producer, commit or rollback, or until the safety
 * poll; it never spins. The safety poll of the slots that had nothing waiting is one {@code EXISTS}
 * over their store queues ({@link SlotScheduler}), so an idle consumer costs Redis well under a command
 * per second.
 *
 * <p><b>Coordination.</b> With {@link ConsumerOptions#coordination()}, the consumer is one worker of
 * its topic in ZooKeeper and pops only the slots the leader assigns to it, each under its ownership
 * epoch (see {@link SlotOwnershipTracker}); messages of one slot are handed to the listener one at a
 * time: the next only after the previous one is committed or rolled back.
 *
 * <p><b>Growth.</b> When the topic grows (see {@code docs/topic-growth.md}) the consumer learns the new slot
 * amount from the registry: at once through the growth notice on the topic's wake channel, and otherwise at
 * its next check ({@value #GROWTH_CHECK_MILLIS} ms). Without coordination it then consumes the new slots too
 * (they are held until their old slot has let go of what it held before the split); with coordination the
 * leader assigns them.
 *
 * <p><b>Shutdown.</b> {@link #close()} leaves the coordination (if any), stops popping, releases the
 * prefetched messages at once (no attempt counted), waits up to {@code shutdownTimeout} for delivered
 * messages to be settled, and flushes the commits; see {@link ConsumerShutdown}.
 *
 * <p><b>Parts.</b> This class holds the lifecycle and the wiring: the {@link ConsumerLoop} (popping
 * and handing over, on the consumer's thread {@code rmq-<name>}), the {@link Settlement} (commit and
 * rollback, from any thread), the {@link HeldMessages} (deadline extension, on the engine's
 * housekeeping thread) and the {@link ConsumerCoordination}. Expired messages of the topic are swept
 * by the engine's {@link ExpiredMessageSweeper}, started with the first consumer of the topic.
 *
 * <p>Lifecycle: {@code LATENT -> STARTED -> STOPPING -> CLOSED}. Thread-safe.
 */
public final class TopicConsumer implements AutoCloseable {

    /** How often the registry is read for a growth of the topic, should a growth notice have been missed. */
    static final long GROWTH_CHECK_MILLIS = 30_000;

    /** How long {@link #close()} waits beyond the shutdown timeout for Redis and ZooKeeper to answer. */
    static final long CLOSE_MARGIN_MILLIS = 5_000;

    private enum State { LATENT, STARTED, STOPPING, CLOSED }

    private final String name;
    private final TopicScripts scripts;
    private final ConsumerOptions options;
    private final RmqClient redis;
    private final WakeBus wakeBus;
    private final ScheduledExecutorService housekeeping;
    private final ExpiredMessageSweeper.Sweepers sweepers;
    /** Asked only by a coordinated consumer: the sessions load Curator, which the engine does not require. */
    private final Supplier<ZooKeeperSessions> zooKeeper;
    private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);
    private final HeldMessages held;
    private final ConsumerLoop loop;
    private final FlowSettingsCache flow;
    private final Settlement settlement;
    private final SettlementRetries retries;
    private final CompletableFuture<Void> closed = new CompletableFuture<>();
    private volatile ScheduledFuture<?> extension;
    private volatile ScheduledFuture<?> retrying;
    private volatile ScheduledFuture<?> growthChecks;
    private volatile boolean paused;
    /** The slot amount last read from the registry (0 before the first read): what the coordination starts with. */
    private volatile int grownTo;
    private final WakeBus.Listener growthNotices = new WakeBus.Listener() {
        @Override
        public void wake(int slot, long delayMillis) {
        }

        @Override
        public void reconnected() {
        }

        @Override
        public void growthNotice() {
            checkGrowth();
        }
    };
    private volatile Runnable leaveSweeper = () -> { };
    private volatile ConsumerCoordination coordination;
    /** {@link #closed}, or its end after the shutdown timeout and margin, whichever comes first. */
    private volatile CompletionStage<Void> bounded;

    public TopicConsumer(String name, TopicScripts scripts, ConsumerOptions options, RmqClient redis, WakeBus wakeBus,
            ScheduledExecutorService housekeeping, ExpiredMessageSweeper.Sweepers sweepers, Supplier<ZooKeeperSessions> zooKeeper,
            EngineEvents events, FlowSettingsCache flow, Clock clock) {
        this.name = name;
        this.flow = flow;
        this.scripts = scripts;
        this.options = options;
        scripts.keyLimits(options.keyLimits());
        this.redis = redis;
        this.wakeBus = wakeBus;
        this.housekeeping = housekeeping;
        this.sweepers = sweepers;
        this.zooKeeper = zooKeeper;
        this.retries = new SettlementRetries(scripts, options.settlementPolicy());
        this.held = new HeldMessages();
        this.settlement = new Settlement(scripts, held, retries, options.settlementPolicy(), events);
        this.loop = new ConsumerLoop(name, scripts, options, redis, held, settlement, events, flow, clock);
        if (options.priorityAging().on() && scripts.keys().topic().type() == TopicType.PRIORITY) {
            scripts.applyPriorityAging(options.priorityAging(), redis.ready()).whenComplete((aging, failure) -> {
                if (failure != null) {
                    EngineLogging.log.agingEpochFailed(scripts.keys().topic().name(), String.valueOf(failure.getMessage()));
                }
            });
        }
    }

    /**
     * Fair share between tenants for the next pops (see {@link FairShare}); the starting value is
     * {@link ConsumerOptions#fairShare()}. Consumers of the topic must all read tenant queues before producers send
     * with tenants (a consumer without fair share does not pop them).
     */
    public void updateFairShare(FairShare fair) {
        loop.updateFairShare(java.util.Objects.requireNonNull(fair, "fair"));
    }

    /**
     * Applies new limits per key ({@link KeyLimits#NONE}: none) from the next pop and settlement on. Members popped
     * before limits were switched on hold no place: a key may briefly have more in flight than its new limit.
     */
    public void updateKeyLimits(KeyLimits limits) {
        scripts.keyLimits(limits);
    }

    public TopicDefinition topic() {
        return scripts.keys().topic();
    }

    /** The fair share this consumer's pops apply now: its configured one, or the topic's flow hash's once written. */
    public FairShare fairShare() {
        return loop.fairShare();
    }

    /** The limits per key this consumer applies now: its configured ones, or the topic's flow hash's once written. */
    public KeyLimits keyLimits() {
        return scripts.keyLimits();
    }

    /** The priority aging this consumer's settlements apply now ({@link PriorityAging#OFF} until its epoch is read). */
    public PriorityAging priorityAging() {
        return scripts.priorityAging();
    }

    /**
     * The priority aging of the topic ({@link PriorityAging#OFF}: none), from the next commit or rollback on: with
     * aging on, they forget the first send times of the members that leave the slot (committed, or dead). Without
     * it those entries stay until the member is sent again (docs/flow-control.md, "Priority aging"). Settings without
     * an epoch take the topic's ({@link TopicScripts#applyPriorityAging}); the stage completes with those in force.
     */
    public CompletionStage<PriorityAging> updatePriorityAging(PriorityAging aging) {
        return scripts.applyPriorityAging(aging);
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
    public void start(DeliveryListener listener) {
        if (!state.compareAndSet(State.LATENT, State.STARTED)) {
            throw EngineExceptions.ex.cannotStartInState("consumer " + name, state.get().name());
        }
        loop.start(listener);
        wakeBus.subscribe(scripts.keys(), loop);
        long extendEvery = Math.max(50, options.prepareTimeout().toMillis() / 3);
        extension = housekeeping.scheduleWithFixedDelay(() -> {
            if (redis.isConnected()) {
                settlement.extendDeadlines();
            }
        }, extendEvery, extendEvery, TimeUnit.MILLISECONDS);
        retrying = housekeeping.scheduleWithFixedDelay(retries::retry, SettlementRetries.DEFAULT_RETRY_INTERVAL_MILLIS,
                SettlementRetries.DEFAULT_RETRY_INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
        leaveSweeper = sweepers.join(scripts, options);
        wakeBus.subscribe(scripts.keys(), growthNotices);
        growthChecks = housekeeping.scheduleWithFixedDelay(() -> {
            if (redis.isConnected()) {
                checkGrowth();
            }
        }, GROWTH_CHECK_MILLIS, GROWTH_CHECK_MILLIS, TimeUnit.MILLISECONDS);
        // a consumer that starts during a growth consumes the new slots from the start
        redis.ready().thenCompose(v -> checkGrowth()).thenRun(this::joinCoordination).thenRun(loop::poke);
    }

    /** Reads the topic's slot amount in the registry and follows a growth; never fails its stage. */
    private CompletionStage<Void> checkGrowth() {
        return scripts.growthState().handle((state, failure) -> {
            if (failure != null) {
                EngineLogging.log.growthCheckFailed(topic().name(), RmqClient.rootMessage(failure));
            } else if (state.consumed() > 0) {
                grow(state.consumed());
            }
            return null;
        });
    }

    private synchronized void grow(int amount) {
        if (state.get() != State.STARTED) {
            return;
        }
        grownTo = Math.max(grownTo, amount);
        wakeBus.grow(scripts.keys(), amount);
        loop.grow(amount);
        if (coordination != null) {
            coordination.grow(amount);
        }
    }

    /** Becomes a worker of the topic, once Redis is reachable (coordinated consumers only). */
    private synchronized void joinCoordination() {
        if (options.coordination().isEmpty() || coordination != null || state.get() != State.STARTED) {
            return;
        }
        coordination = ConsumerCoordination.start(zooKeeper.get(), options.coordination().get(), topic(), name,
                loop::ownershipChanged, scripts::highestEpoch);
        if (coordination != null) {
            // the loop grows its scripts on its own thread: the amount read is what the leader must know
            coordination.grow(Math.max(grownTo, scripts.slotAmount()));
        }
    }

    /**
     * Restricts consumption to the given slots (all slots by default).
     *
     * @throws IllegalStateException when the consumer coordinates through ZooKeeper: the leader assigns its slots
     */
    public void assignSlots(int[] slots) {
        if (options.coordination().isPresent()) {
            throw EngineExceptions.ex.slotsAssignedByLeader(name);
        }
        loop.assign(slots);
    }

    /** The slots this consumer pops now: all of them without coordination, those it owns with coordination. */
    public int[] assignedSlots() {
        return loop.assignedSlots();
    }

    /** With coordination, the consumer's worker id in ZooKeeper, once it has joined. */
    public Optional<String> workerId() {
        ConsumerCoordination c = coordination;
        return c == null ? Optional.empty() : Optional.ofNullable(c.workerId());
    }

    /**
     * Whether this consumer takes part in its topic's coordination now: it has joined the topic's
     * workers and its ZooKeeper connection is up. {@code false} before it joins (it joins once Redis
     * is reachable), while the connection is suspended or the session lost, when ZooKeeper was never
     * reached or its client could not start, after {@link #close()}, and for a consumer without
     * coordination. A snapshot, for health checks: it may change a moment later.
     */
    public boolean isCoordinationConnected() {
        ConsumerCoordination c = coordination;
        return c != null && state.get() == State.STARTED && c.isConnected();
    }

    /** Adds demand: the listener may receive {@code n} more deliveries. */
    public void request(long n) {
        if (n <= 0) {
            throw EngineExceptions.ex.demandNotPositive(n);
        }
        loop.request(n);
    }

    /**
     * Pauses this consumer (not the topic: other consumers go on): it pops nothing more and hands nothing more to
     * its listener; the messages it popped and has not handed over go back to the store queue with their score,
     * no attempt counted, and the messages the listener holds are settled as usual. Demand asked for meanwhile is
     * kept. Does nothing when paused already.
     */
    public synchronized void pause() {
        paused = true;
        loop.pause();
    }

    /** Resumes after {@link #pause()}: popping starts again at once. Does nothing when not paused. */
    public synchronized void resume() {
        paused = false;
        loop.resume();
    }

    /** Whether {@link #pause()} was called last, rather than {@link #resume()}. */
    public boolean isPaused() {
        return paused;
    }

    /**
     * The topic's flow settings as this engine read them last (at most a second old while a consumer of the topic
     * pops, 30 s while they are idle): its rate limit, the adaptive slow-down's rate and reason. A snapshot, for metrics and health.
     */
    public FlowSettings flowSettings() {
        return flow.current();
    }

    /**
     * Whether this consumer waits for permits of its topic's rate limit (or of the adaptive slow-down) now, with
     * demand and room for messages. A snapshot, for health checks: throttling is no failure.
     */
    public boolean isThrottled() {
        return loop.isThrottled();
    }

    /** Messages popped and not yet committed or rolled back (prefetched or being processed). */
    public int heldCount() {
        return held.count();
    }

    /** Stops gracefully (see the class comment) and waits for it: at most the shutdown timeout plus 5 s. */
    @Override
    public void close() {
        closeAsync().toCompletableFuture().join();
    }

    /**
     * Stops gracefully without blocking. The stage completes once everything is committed or
     * released, or, should Redis or ZooKeeper not answer, after the shutdown timeout plus 5 s (logged
     * as RMQ-0110; what is left is rolled back at its prepare deadline). It never completes exceptionally.
     */
    public CompletionStage<Void> closeAsync() {
        if (state.compareAndSet(State.LATENT, State.CLOSED)) {
            loop.shutdown();
            closed.complete(null);
            return closed;
        }
        if (!state.compareAndSet(State.STARTED, State.STOPPING)) {
            CompletionStage<Void> b = bounded;
            return b != null ? b : closed;
        }
        bounded = closed.copy()
                .orTimeout(options.shutdownTimeout().toMillis() + CLOSE_MARGIN_MILLIS, TimeUnit.MILLISECONDS)
                .exceptionally(f -> {
                    EngineLogging.log.consumerDidNotStopCleanly(name, f);
                    return null;
                });
        CompletionStage<Void> left;
        synchronized (this) {
            left = ConsumerCoordination.closeAsync(coordination);
        }
        ConsumerShutdown.run(name, options, loop, held, settlement, left).whenComplete((v, f) -> {
            ScheduledFuture<?> e = extension;
            if (e != null) {
                e.cancel(false);
            }
            ScheduledFuture<?> g = growthChecks;
            if (g != null) {
                g.cancel(false);
            }
            ScheduledFuture<?> r = retrying;
            if (r != null) {
                r.cancel(false);
                retries.retry(); // a last try; what still fails is redelivered after its deadline
            }
            leaveSweeper.run();
            wakeBus.unsubscribe(scripts.keys(), loop);
            wakeBus.unsubscribe(scripts.keys(), growthNotices);
            state.set(State.CLOSED);
            loop.shutdown();
            closed.complete(null);
        });
        return bounded;
    }
}
