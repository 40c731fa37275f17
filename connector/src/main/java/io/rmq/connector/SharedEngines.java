package io.rmq.connector;

import java.util.HashMap;
import java.util.Map;

import io.rmq.connector.i18n.RmqExceptions;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.redis.RedisAccess;

/**
 * The engines of one connector: one started {@link RmqEngine} per distinct Redis access
 * ({@code redis-uri} as written, with the credentials and trusted certificates given apart from it),
 * shared by every channel that uses it, all closed, with their connections and threads, by {@link #close()}.
 *
 * <p>Owned by the connector ({@code RedisRmqConnector}), which closes it after its channels: being the only
 * owner is what guarantees that order (channels stop, committing and releasing what they hold, then
 * the engines close), whatever order a container destroys beans in and whether or not it fires
 * {@code @BeforeDestroyed}. Thread-safe. Closing may take up to a few seconds (Lettuce's shutdown).
 */
final class SharedEngines implements AutoCloseable {

    private final String connector;
    private final Map<RedisAccess, RmqEngine> engines = new HashMap<>();
    private boolean closed;

    /** @param connector the owning connector's name, for the error once it stopped */
    SharedEngines(String connector) {
        this.connector = connector;
    }

    /**
     * The started engine for {@code access}, created on first use.
     *
     * @throws IllegalStateException when the engines were closed, that is, the connector stopped
     */
    synchronized RmqEngine acquire(RedisAccess access) {
        if (closed) {
            throw RmqExceptions.ex.connectorStopped(connector);
        }
        return engines.computeIfAbsent(access, a -> new RmqEngine(a).start());
    }

    /** How many engines are open, that is, how many distinct Redis accesses are in use. */
    synchronized int openEngines() {
        return engines.size();
    }

    /** Closes every engine and refuses new ones. Idempotent. */
    @Override
    public synchronized void close() {
        closed = true;
        engines.values().forEach(RmqEngine::close);
        engines.clear();
    }
}
