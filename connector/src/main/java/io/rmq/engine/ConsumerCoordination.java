package io.rmq.engine;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.rmq.engine.coordination.CoordinationOptions;
import io.rmq.engine.coordination.SlotCoordinator;
import io.rmq.engine.coordination.ZooKeeperSession;

/**
 * A coordinated consumer's membership: the shared ZooKeeper session it uses and the
 * {@link SlotCoordinator} that registers it as a worker and reports its slots.
 *
 * <p>Lifecycle: created and started on the consumer's loop thread once Redis is reachable; closed
 * when the consumer stops, first of all, so that the leader can hand its slots to others while the
 * consumer finishes what it holds. Thread-safe.
 */
final class ConsumerCoordination {

    private static final Logger LOG = Logger.getLogger(ConsumerCoordination.class.getName());

    private final ZooKeeperSession session;
    private final SlotCoordinator coordinator;

    private ConsumerCoordination(ZooKeeperSession session, SlotCoordinator coordinator) {
        this.session = session;
        this.coordinator = coordinator;
    }

    /**
     * Joins the topic's workers; {@code null} (logged) when no ZooKeeper client can be started, in
     * which case the consumer owns no slot and pops nothing.
     */
    static ConsumerCoordination start(RmqEngine client, CoordinationOptions options, TopicDefinition topic,
            String consumerName, SlotCoordinator.Listener listener, SlotCoordinator.EpochSource epochs) {
        ZooKeeperSession session;
        try {
            session = client.zooKeeperSessions().acquire(options);
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "RMQ-0207 Consumer " + consumerName + " of topic '" + topic.name()
                    + "' cannot coordinate through ZooKeeper at " + options.connectString()
                    + " and pops nothing: " + e.getMessage(), e);
            return null;
        }
        SlotCoordinator coordinator = new SlotCoordinator(session.curator(), options, topic, consumerName, listener,
                epochs);
        coordinator.start();
        return new ConsumerCoordination(session, coordinator);
    }

    String workerId() {
        return coordinator.workerId();
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
