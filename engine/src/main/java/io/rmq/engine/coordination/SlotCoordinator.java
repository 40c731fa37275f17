package io.rmq.engine.coordination;

import java.io.Closeable;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.rmq.engine.i18n.EngineExceptions;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.support.DaemonThreads;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * One worker's part in the coordination of a topic: it registers the worker (an ephemeral node),
 * takes part in the election of the topic's leader ({@link SlotLeader}, which assigns the slots to
 * the live workers while it leads), and follows the slot assignment, telling its {@link Listener}
 * which slots the worker may pop and under which epochs.
 *
 * <p>Connection states are handled in one place, {@link #onConnectionStateChanged}: SUSPENDED stops
 * popping at once (the slots are kept, the worker may finish what it holds), LOST gives the slots
 * up, CONNECTED and RECONNECTED resume popping what the assignment gives the worker (the worker
 * node and the leader latch re-register by themselves after a new session).
 *
 * <p>What keeps a slot from being consumed by two workers is not this class but the epoch check of
 * the pop script: the ownership this class reports may be stale by the time it is used.
 *
 * <p>Lifecycle: {@code LATENT -> STARTED -> CLOSED}; the constructor does no I/O, {@link #start()}
 * registers in the background, {@link #closeAsync()} deregisters. Threading: connection, cache and
 * leadership events are handled on the coordinator's thread ({@code rmq-coordinator-<consumer>}),
 * where all its state lives; the leader duty ({@link SlotLeader}) reads and writes on a thread of its
 * own, so that connection events are never stuck behind ZooKeeper I/O.
 */
public final class SlotCoordinator implements Closeable {

    private static final EngineLogging LOG = EngineLogging.log;

    /** Told which slots the worker may pop. */
    public interface Listener {
        /**
         * The worker's slots and epochs, and whether it may pop them now. Called on the coordinator's
         * thread, one call at a time, with no lock held; each call supersedes the previous one.
         *
         * <p>Races: the ownership may already be stale when this runs (the leader may have moved a
         * slot, or the session may have expired, a moment ago). Use it to decide what to pop; the
         * epoch check in Redis keeps a stale owner from popping a slot someone else has claimed.
         * A call may still arrive while {@link #closeAsync()} is under way.
         */
        void ownershipChanged(SlotOwnership ownership);
    }

    /** The highest epoch Redis has seen for the topic, read when a topic's assignment is first created. */
    public interface EpochSource {
        CompletionStage<Long> highestEpoch();
    }

    private enum State { LATENT, STARTED, CLOSED }

    private final CuratorFramework curator;
    private final CoordinationOptions options;
    private final CoordinatedTopic topic;
    /** The topic's slot amount: its definition's, or what it grew to since ({@link #grow}). */
    private volatile int slotAmount;
    private final CoordinationPaths paths;
    private final String consumerName;
    private final Listener listener;
    private final EpochSource epochSource;
    private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);
    private final ExecutorService events;
    private final CompletableFuture<Void> closed = new CompletableFuture<>();
    private final ConnectionStateListener connectionListener = (client, newState) -> onConnectionStateChanged(newState);
    private volatile String workerId;
    private volatile SlotOwnership published = SlotOwnership.NONE;

    // Confined to the coordinator's thread.
    private PersistentNode node;
    private SlotLeader leader;
    private CuratorCache assignmentCache;
    private boolean connected;
    private SlotAssignment assignment;

    /**
     * @param curator      a started (or starting) client; not closed by this coordinator
     * @param consumerName the consumer's name, part of the worker id
     * @param listener     told the worker's ownership (see {@link Listener} for its races)
     * @param epochSource  the highest epoch in Redis, so that a recreated assignment keeps epochs growing
     */
    public SlotCoordinator(CuratorFramework curator, CoordinationOptions options, CoordinatedTopic topic,
            String consumerName, Listener listener, EpochSource epochSource) {
        this.curator = Objects.requireNonNull(curator, "curator");
        this.options = Objects.requireNonNull(options, "options");
        this.topic = Objects.requireNonNull(topic, "topic");
        this.slotAmount = topic.slotAmount();
        this.consumerName = Objects.requireNonNull(consumerName, "consumerName");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.epochSource = Objects.requireNonNull(epochSource, "epochSource");
        this.paths = CoordinationPaths.of(options.root(), topic);
        this.events = Executors.newSingleThreadExecutor(DaemonThreads.named("rmq-coordinator-" + consumerName));
    }

    /**
     * The topic grew to {@code amount} slots: when this worker leads, it assigns the new slots too. A leader
     * never assigns fewer slots than the current assignment has, so a worker that learns of a growth late
     * cannot undo it.
     */
    public void grow(int amount) {
        if (amount > slotAmount) {
            slotAmount = amount;
            try {
                events.execute(() -> {
                    if (leader != null) {
                        leader.slotAmountGrew();
                    }
                });
            } catch (RejectedExecutionException closed) {
                // closed meanwhile: nothing to assign
            }
        }
    }

    /** Registers the worker and starts following the assignment, in the background. */
    public void start() {
        if (!state.compareAndSet(State.LATENT, State.STARTED)) {
            throw EngineExceptions.ex.cannotStartInState("coordinator of " + consumerName, state.get().name());
        }
        events.execute(this::register);
    }

    private void register() {
        if (state.get() != State.STARTED) {
            return;
        }
        WorkerInfo info = WorkerInfo.forThisProcess(consumerName); // may ask DNS: not on the caller's thread
        workerId = info.id();
        leader = new SlotLeader(curator, options, topic, paths, workerId, consumerName, epochSource, () -> slotAmount);
        curator.getConnectionStateListenable().addListener(connectionListener, events);
        connected = curator.getZookeeperClient().isConnected();
        node = new PersistentNode(curator, CreateMode.EPHEMERAL, false, paths.worker(workerId), info.encode());
        node.start();
        assignmentCache = CuratorCache.build(curator, paths.assignment(), CuratorCache.Options.SINGLE_NODE_CACHE);
        assignmentCache.listenable().addListener(CuratorCacheListener.builder()
                .forCreatesAndChanges((before, after) -> onAssignmentData(after))
                .forDeletes(gone -> onAssignmentData(null))
                .build(), events);
        assignmentCache.start();
        leader.start(events);
        LOG.workerRegistered(workerId, topic.name(), paths.topic());
        if (connected) {
            publish(assigned());
            checkAccess();
        }
    }

    /**
     * Says (RMQ-0240) when ZooKeeper refuses this worker the topic's znodes: they belong to another
     * ZooKeeper user, or this one has no credentials. The recipes would otherwise retry in silence.
     * Creating the workers' container is what registering does anyway; ZooKeeper checks the parent's ACL
     * before whether the node exists, so an existing node answers {@code NoAuth} too.
     */
    private void checkAccess() {
        try {
            curator.create().creatingParentContainersIfNeeded().withMode(CreateMode.CONTAINER)
                    .inBackground((client, event) -> {
                        if (event.getResultCode() == KeeperException.Code.NOAUTH.intValue()) {
                            LOG.zooKeeperAccessDenied(options.connectString(), consumerName, topic.name(),
                                    paths.workers(), options.digestUsername().orElse(null));
                        }
                    }, events).forPath(paths.workers());
        } catch (Exception e) {
            // not connected: the connection state is reported by the session, and checked again on connect
        }
    }

    /**
     * The one place that reacts to the ZooKeeper connection: SUSPENDED stops popping at once, LOST
     * gives the slots up, CONNECTED and RECONNECTED resume with what the assignment gives this worker.
     */
    private void onConnectionStateChanged(ConnectionState newState) {
        if (state.get() != State.STARTED) {
            return;
        }
        switch (newState) {
            case CONNECTED, RECONNECTED -> {
                connected = true;
                publish(assigned());
                leader.reconnected();
                checkAccess();
            }
            case SUSPENDED, READ_ONLY -> {
                connected = false;
                publish(published.suspended());
            }
            case LOST -> {
                connected = false;
                publish(SlotOwnership.NONE);
            }
            default -> {
            }
        }
    }

    private void onAssignmentData(ChildData data) {
        if (state.get() != State.STARTED) {
            return;
        }
        if (data == null || data.getData() == null) {
            assignment = null;
        } else {
            try {
                assignment = SlotAssignment.decode(data.getData());
            } catch (IllegalArgumentException e) {
                LOG.ignoringUnreadableAssignment(paths.assignment(), e.getMessage());
                assignment = null;
            }
        }
        if (connected) {
            publish(assigned());
        }
        leader.assignmentChanged(assignment);
    }

    private SlotOwnership assigned() {
        if (assignment == null) {
            return new SlotOwnership(new TreeMap<>(), true, 0);
        }
        return new SlotOwnership(assignment.slotsOf(workerId), true, assignment.generation());
    }

    private void publish(SlotOwnership ownership) {
        SlotOwnership before = published;
        if (ownership.equals(before) || state.get() != State.STARTED) {
            return;
        }
        published = ownership;
        logChange(before, ownership);
        listener.ownershipChanged(ownership);
    }

    private void logChange(SlotOwnership before, SlotOwnership now) {
        String slots = SlotAssignment.ranges(List.copyOf(now.epochs().keySet()));
        boolean hadSlots = !before.epochs().isEmpty();
        String generation = " (assignment generation " + now.generation() + ")";
        if (now.active() && now.epochs().isEmpty() && !hadSlots) {
            LOG.workerOwnershipChanged(workerId, topic.name(), "pops no slot yet" + generation, true);
        } else if (now.active()) {
            LOG.workerOwnershipChanged(workerId, topic.name(),
                    "pops " + (now.epochs().isEmpty() ? "no slot" : "slots " + slots) + generation, false);
        } else if (now.epochs().isEmpty()) {
            if (hadSlots) {
                LOG.workerOwnershipChanged(workerId, topic.name(), "gave up its slots: its ZooKeeper session was lost",
                        false);
            }
        } else {
            LOG.workerOwnershipChanged(workerId, topic.name(),
                    "stops popping slots " + slots + " until the ZooKeeper connection is back", false);
        }
    }

    // ---- accessors and lifecycle

    /**
     * The worker id, {@code <consumer>@<host>:<pid>#<random>}, once registered (before the first
     * ownership is reported); {@code null} before.
     */
    public String workerId() {
        return workerId;
    }

    /** The ownership last reported to the listener. */
    public SlotOwnership ownership() {
        return published;
    }

    /** The topic's ZooKeeper node, under which its workers, election and assignment live. */
    public String topicPath() {
        return paths.topic();
    }

    /**
     * Deregisters (the worker node is deleted, the election left) without blocking; the stage
     * completes when that is done. The listener hears nothing more once the close has begun,
     * apart from a call already under way.
     */
    public CompletionStage<Void> closeAsync() {
        State previous = state.getAndSet(State.CLOSED);
        if (previous == State.CLOSED) {
            return closed;
        }
        if (previous == State.LATENT) {
            events.shutdown();
            closed.complete(null);
            return closed;
        }
        events.execute(() -> {
            try {
                curator.getConnectionStateListenable().removeListener(connectionListener);
                if (assignmentCache != null) {
                    assignmentCache.close();
                }
                if (leader != null) {
                    leader.close();
                }
                if (node != null) {
                    node.close();
                }
            } catch (Exception e) {
                LOG.deregisterFailed(workerId, e);
            } finally {
                published = SlotOwnership.NONE;
                closed.complete(null);
                events.shutdown();
            }
        });
        return closed;
    }

    /** Deregisters and waits for it, at most the connection timeout. */
    @Override
    public void close() {
        try {
            closeAsync().toCompletableFuture().get(options.connectionTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.coordinatorCloseTimedOut(consumerName, e);
        }
    }
}
