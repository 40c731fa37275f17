package io.rmq.engine.coordination;

import java.io.Closeable;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;

import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.support.DaemonThreads;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * One worker's candidacy for leading a topic's slot assignment (a Curator {@link LeaderLatch}) and,
 * while it leads, the duty itself: whenever workers come or go (and when it takes over the lead,
 * reconnects, or sees an assignment written by someone else), it reads the live workers and the
 * current assignment and writes a balanced one ({@link SlotBalancer}) if ownership changes.
 *
 * <p>Lifecycle: created and started by its {@link SlotCoordinator} on the coordinator's thread;
 * closed with it. Leadership events arrive on that thread; reads and writes run on the leader's own
 * thread ({@code rmq-leader-<consumer>}), one rebalance at a time, so that a slow or unreachable
 * ZooKeeper never holds up the coordinator's reaction to connection states. Several rebalance
 * requests within the rebalance delay are served by one rebalance.
 */
final class SlotLeader implements Closeable {

    private static final EngineLogging LOG = EngineLogging.log;
    private static final long RETRY_MS = 1_000;
    private static final long EPOCH_READ_TIMEOUT_MS = 10_000;

    private final CuratorFramework curator;
    private final CoordinationOptions options;
    private final CoordinatedTopic topic;
    private final CoordinationPaths paths;
    private final String workerId;
    private final SlotCoordinator.EpochSource epochSource;
    private final IntSupplier slotAmount;
    private final ScheduledExecutorService duty;
    private final AtomicBoolean leading = new AtomicBoolean();
    private final AtomicBoolean pending = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile LeaderLatch latch;
    private CuratorCache workersCache;

    SlotLeader(CuratorFramework curator, CoordinationOptions options, CoordinatedTopic topic, CoordinationPaths paths,
            String workerId, String consumerName, SlotCoordinator.EpochSource epochSource,
            IntSupplier slotAmount) {
        this.slotAmount = slotAmount;
        this.curator = curator;
        this.options = options;
        this.topic = topic;
        this.paths = paths;
        this.workerId = workerId;
        this.epochSource = epochSource;
        this.duty = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("rmq-leader-" + consumerName));
    }

    /** Joins the election and watches the workers; events are handled on {@code events}. */
    void start(Executor events) {
        workersCache = CuratorCache.build(curator, paths.workers());
        workersCache.listenable().addListener((type, before, after) -> requestRebalance(), events);
        workersCache.start();
        latch = new LeaderLatch(curator, paths.leader(), workerId);
        latch.addListener(new LeaderLatchListener() {
            @Override
            public void isLeader() {
                leading.set(true);
                LOG.leadsAssignment(workerId, topic.name());
                requestRebalance();
            }

            @Override
            public void notLeader() {
                leading.set(false);
                LOG.noLongerLeads(workerId, topic.name());
            }
        }, events);
        try {
            latch.start();
        } catch (Exception e) {
            LOG.cannotJoinElection(workerId, topic.name(), e);
        }
    }

    /** The assignment changed: if someone else wrote it (an earlier leader), check it. */
    void assignmentChanged(SlotAssignment assignment) {
        if (assignment == null || !workerId.equals(assignment.leader())) {
            requestRebalance();
        }
    }

    /** The topic grew: the new slots are to be assigned. */
    void slotAmountGrew() {
        requestRebalance();
    }

    /** Membership may have changed while the connection was down. */
    void reconnected() {
        requestRebalance();
    }

    /** Rebalances after the rebalance delay, if this worker leads; requests meanwhile join it. */
    private void requestRebalance() {
        if (leading.get()) {
            schedule(options.rebalanceDelay().toMillis());
        }
    }

    private void schedule(long delayMillis) {
        if (!closed.get() && pending.compareAndSet(false, true)) {
            try {
                duty.schedule(this::rebalance, delayMillis, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                pending.set(false);
            }
        }
    }

    /**
     * Reads the live workers and the current assignment, and writes a balanced one when ownership
     * changes. The write is conditional on the version read, so two leaders (an outgoing one that
     * has not noticed yet and its successor) never overwrite each other unseen; a fresh assignment
     * starts its generations above the highest epoch Redis has seen, so epochs keep growing even if
     * the ZooKeeper data was lost.
     */
    private void rebalance() {
        pending.set(false);
        if (!leading.get() || closed.get()) {
            return;
        }
        try {
            List<WorkerInfo> live = SlotAssignments.workers(curator, paths);
            Stat stat = new Stat();
            byte[] data = null;
            boolean exists = true;
            try {
                data = curator.getData().storingStatIn(stat).forPath(paths.assignment());
            } catch (KeeperException.NoNodeException e) {
                exists = false;
            }
            SlotAssignment previous = null;
            if (data != null) {
                try {
                    previous = SlotAssignment.decode(data);
                } catch (IllegalArgumentException e) {
                    LOG.replacingUnreadableAssignment(paths.assignment(), e.getMessage());
                }
            }
            long generation = previous != null ? previous.generation() + 1
                    : epochSource.highestEpoch().toCompletableFuture().get(EPOCH_READ_TIMEOUT_MS, TimeUnit.MILLISECONDS) + 1;
            // never fewer slots than assigned: a leader that has not learnt of a growth yet must not undo it
            int amount = Math.max(slotAmount.getAsInt(), previous == null ? 0 : previous.slotAmount());
            SlotAssignment next = SlotBalancer.balance(previous, live, amount, generation, workerId,
                    Instant.now());
            if ((previous != null && next.sameOwnership(previous)) || !latch.hasLeadership()) {
                return;
            }
            if (exists) {
                curator.setData().withVersion(stat.getVersion()).forPath(paths.assignment(), next.encode());
            } else {
                curator.create().creatingParentContainersIfNeeded().forPath(paths.assignment(), next.encode());
            }
            LOG.slotsAssigned(workerId, topic.name(), live.size(), next.describe());
        } catch (KeeperException.BadVersionException | KeeperException.NodeExistsException e) {
            schedule(0); // written meanwhile by someone else: read again
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            if (leading.get() && !closed.get()) {
                LOG.assignmentFailed(workerId, topic.name(), RETRY_MS, e);
                schedule(RETRY_MS);
            }
        }
    }

    /** Leaves the election (on the coordinator's thread; deletes the latch node). */
    @Override
    public void close() throws IOException {
        closed.set(true);
        duty.shutdownNow();
        if (workersCache != null) {
            workersCache.close();
        }
        if (latch != null) {
            latch.close();
        }
    }
}
