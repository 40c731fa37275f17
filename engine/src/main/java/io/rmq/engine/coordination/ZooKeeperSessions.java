package io.rmq.engine.coordination;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.rmq.engine.i18n.EngineExceptions;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.support.DaemonThreads;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;

/**
 * The ZooKeeper sessions of one {@code RmqEngine}: one started Curator client per distinct
 * connect string and timeouts, shared by the workers that use it and closed when the last of them
 * releases it. ZooKeeper limits connections per client address (60 by default), so an application
 * with many channels and {@code concurrency} copies opens one session, not one per consumer.
 *
 * <p>A session logs its own connection: connected, suspended, lost, reconnected, and, while
 * ZooKeeper has never been reached, a warning after the connection timeout and again at growing
 * intervals (the waiting state: workers own no slots and pop nothing). How workers react to these
 * states is {@link SlotCoordinator}'s business.
 *
 * <p>The constructor does no I/O. Thread-safe.
 */
public final class ZooKeeperSessions implements AutoCloseable {

    private static final long MAX_UNREACHABLE_LOG_INTERVAL_MS = 300_000;
    private static final String DIGEST = "digest";
    /** With digest credentials: every znode the session creates may be read and changed by its user only. */
    private static final ACLProvider CREATOR_ONLY = new ACLProvider() {
        @Override
        public List<ACL> getDefaultAcl() {
            return ZooDefs.Ids.CREATOR_ALL_ACL;
        }

        @Override
        public List<ACL> getAclForPath(String path) {
            return ZooDefs.Ids.CREATOR_ALL_ACL;
        }
    };

    private final ScheduledExecutorService scheduler;
    private final List<Shared> sessions = new ArrayList<>();
    private boolean closed;

    /** @param scheduler runs the unreachable-ZooKeeper warnings; not shut down by {@link #close()} */
    public ZooKeeperSessions(ScheduledExecutorService scheduler) {
        this.scheduler = scheduler;
    }

    /**
     * A session for these options: the shared one if it exists, else a new Curator client, started
     * (it connects in the background). Release it with {@link ZooKeeperSession#close()}.
     *
     * @throws IllegalStateException when these sessions are closed, or the client cannot start
     */
    public synchronized ZooKeeperSession acquire(CoordinationOptions options) {
        if (closed) {
            throw EngineExceptions.ex.closed("the ZooKeeper sessions");
        }
        for (Shared s : sessions) {
            if (s.options.sharesSessionWith(options)) {
                s.users++;
                return new ZooKeeperSession(this, s);
            }
        }
        Shared s = new Shared(options);
        s.start();
        sessions.add(s);
        s.users++;
        return new ZooKeeperSession(this, s);
    }

    synchronized void release(Shared s) {
        if (--s.users == 0 && sessions.remove(s)) {
            s.close();
        }
    }

    /** Closes every session (ephemeral nodes vanish at once). */
    @Override
    public synchronized void close() {
        closed = true;
        sessions.forEach(Shared::close);
        sessions.clear();
    }

    /** One Curator client and the log lines about its connection. */
    final class Shared implements ConnectionStateListener {
        final CoordinationOptions options;
        final CuratorFramework curator;
        int users;
        private final AtomicBoolean everConnected = new AtomicBoolean();
        private volatile boolean open = true;
        private volatile long sessionId;

        Shared(CoordinationOptions options) {
            this.options = options;
            CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
                    .connectString(options.connectString())
                    .sessionTimeoutMs((int) options.sessionTimeout().toMillis())
                    .connectionTimeoutMs((int) options.connectionTimeout().toMillis())
                    .retryPolicy(new ExponentialBackoffRetry(100, 6, 2_000))
                    .threadFactory(DaemonThreads.numbered("rmq-zookeeper-"));
            options.digestAuthentication().ifPresent(auth -> builder.authorization(DIGEST, auth)
                    .aclProvider(CREATOR_ONLY));
            this.curator = builder.build();
        }

        void start() {
            curator.getConnectionStateListenable().addListener(this);
            try {
                curator.start();
            } catch (RuntimeException e) {
                throw EngineExceptions.ex.cannotStartZooKeeperClient(options.connectString(), e);
            }
            long first = options.connectionTimeout().toMillis();
            schedule(() -> warnIfNeverConnected(first, first), first);
        }

        private void schedule(Runnable task, long delayMillis) {
            try {
                scheduler.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                // the client is closing
            }
        }

        private void warnIfNeverConnected(long waited, long interval) {
            if (!open || everConnected.get()) {
                return;
            }
            EngineLogging.log.zooKeeperNotReached(options.connectString(), waited, options.connectionTimeout().toMillis());
            long next = Math.min(interval * 2, MAX_UNREACHABLE_LOG_INTERVAL_MS);
            schedule(() -> warnIfNeverConnected(waited + next, next), next);
        }

        @Override
        public void stateChanged(CuratorFramework client, ConnectionState state) {
            switch (state) {
                case CONNECTED -> {
                    everConnected.set(true);
                    sessionId = currentSessionId();
                    EngineLogging.log.zooKeeperConnected(options.connectString(), sessionId);
                }
                case RECONNECTED -> {
                    everConnected.set(true);
                    long previous = sessionId;
                    sessionId = currentSessionId();
                    EngineLogging.log.zooKeeperReconnected(options.connectString(), previous == sessionId, sessionId);
                }
                case SUSPENDED, READ_ONLY -> {
                    if (everConnected.get()) {
                        EngineLogging.log.zooKeeperSuspended(options.connectString());
                    }
                }
                case LOST -> EngineLogging.log.zooKeeperSessionExpired(options.connectString());
                default -> {
                }
            }
        }

        private long currentSessionId() {
            try {
                return curator.getZookeeperClient().getZooKeeper().getSessionId();
            } catch (Exception e) {
                return 0;
            }
        }

        void close() {
            open = false;
            curator.getConnectionStateListenable().removeListener(this);
            curator.close();
        }
    }
}
