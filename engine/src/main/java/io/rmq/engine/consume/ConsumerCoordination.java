package io.rmq.engine.consume;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import io.rmq.engine.coordination.CoordinatedTopic;
import io.rmq.engine.coordination.CoordinationOptions;
import io.rmq.engine.coordination.SlotCoordinator;
import io.rmq.engine.coordination.SlotOwnership;
import io.rmq.engine.coordination.ZooKeeperSession;
import io.rmq.engine.coordination.ZooKeeperSessions;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.topic.TopicDefinition;

/**
 * A coordinated consumer's membership: the shared ZooKeeper session it uses and the
 * {@link SlotCoordinator} that registers it as a worker and reports its slots.
 *
 * <p>Lifecycle: created and started once Redis is reachable (the epochs it hands out build on those
 * recorded there); closed
 * when the consumer stops, first of all, so that the leader can hand its slots to others while the
 * consumer finishes what it holds. Thread-safe.
 */
final class ConsumerCoordination {

    private final ZooKeeperSession session;
    private final SlotCoordinator coordinator;

    private ConsumerCoordination(ZooKeeperSession session, SlotCoordinator coordinator) {
        this.session = session;
        this.coordinator = coordinator;
    }

    /** Told the worker's slots, with its worker id; see {@link SlotCoordinator.Listener} for the races. */
    interface Listener {
        void ownershipChanged(SlotOwnership ownership, String workerId);
    }

    /**
     * Joins the topic's workers; {@code null} (logged) when no ZooKeeper client can be started, in
     * which case the consumer owns no slot and pops nothing.
     */
    static ConsumerCoordination start(ZooKeeperSessions sessions, CoordinationOptions options, TopicDefinition topic,
            String consumerName, Listener listener, SlotCoordinator.EpochSource epochs) {
        ZooKeeperSession session;
        try {
            session = sessions.acquire(options);
        } catch (RuntimeException e) {
            EngineLogging.log.cannotCoordinate(consumerName, topic.name(), options.connectString(), e);
            return null;
        }
        SlotCoordinator[] coordinator = new SlotCoordinator[1];
        // the coordinator reports only after it has registered, so the reference is set by then
        coordinator[0] = new SlotCoordinator(session.curator(), options, CoordinatedTopic.of(topic), consumerName,
                ownership -> listener.ownershipChanged(ownership, coordinator[0].workerId()), epochs);
        coordinator[0].start();
        return new ConsumerCoordination(session, coordinator[0]);
    }

    /** The topic grew to {@code amount} slots (see {@link SlotCoordinator#grow}). */
    void grow(int amount) {
        coordinator.grow(amount);
    }

    String workerId() {
        return coordinator.workerId();
    }

    /** Whether the ZooKeeper connection of the session is up now (not suspended, lost or never established). */
    boolean isConnected() {
        return session.curator().getZookeeperClient().isConnected();
    }

    /** Leaves the workers and releases the session; gives up waiting after the connection timeout. */
    CompletionStage<Void> closeAsync() {
        long timeout = session.options().connectionTimeout().toMillis();
        return coordinator.closeAsync().toCompletableFuture()
                .completeOnTimeout(null, timeout, TimeUnit.MILLISECONDS)
                .handle((v, f) -> {
                    session.close();
                    return (Void) null;
                })
                .exceptionally(f -> null);
    }

    static CompletionStage<Void> closeAsync(ConsumerCoordination c) {
        return c == null ? CompletableFuture.completedFuture(null) : c.closeAsync();
    }
}
