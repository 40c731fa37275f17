package io.rmq.engine.coordination;

import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.curator.framework.CuratorFramework;

/**
 * A worker's use of a shared ZooKeeper session (see {@link ZooKeeperSessions}); closing it releases
 * the session, which closes when its last user lets go. Thread-safe.
 */
public final class ZooKeeperSession implements AutoCloseable {

    private final ZooKeeperSessions owner;
    private final ZooKeeperSessions.Shared shared;
    private final AtomicBoolean released = new AtomicBoolean();

    ZooKeeperSession(ZooKeeperSessions owner, ZooKeeperSessions.Shared shared) {
        this.owner = owner;
        this.shared = shared;
    }

    /** The started Curator client; do not close it. */
    public CuratorFramework curator() {
        return shared.curator;
    }

    /** The options the session was opened with. */
    public CoordinationOptions options() {
        return shared.options;
    }

    /** Releases the session; later calls do nothing. */
    @Override
    public void close() {
        if (released.compareAndSet(false, true)) {
            owner.release(shared);
        }
    }
}
