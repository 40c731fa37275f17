package io.rmq.connector;

import java.util.HashMap;
import java.util.Map;

import io.rmq.connector.i18n.RmqExceptions;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.redis.RedisAccess;

/**
 * The Redis clients of one connector: one started {@link RmqEngine} per distinct Redis access
 * ({@code redis-uri} as written, with the credentials and trusted certificates given apart from it), shared by every channel that uses it, all closed, with their connections
 * and threads, by {@link #close()}.
 *
 * <p>Owned by the {@link RedisRmqConnector}, which closes it after its channels: being the only
 * owner is what guarantees that order (channels stop, committing and releasing what they hold, then
 * the clients close), whatever order a container destroys beans in and whether or not it fires
 * {@code @BeforeDestroyed}. Thread-safe. Closing may take up to a few seconds (Lettuce's shutdown).
 */
final class RedisClients implements AutoCloseable {

    private final Map<RedisAccess, RmqEngine> clients = new HashMap<>();
    private boolean closed;

    /**
     * The started client for {@code access}, created on first use.
     *
     * @throws IllegalStateException when the clients were closed, that is, the connector stopped
     */
    synchronized RmqEngine acquire(RedisAccess access) {
        if (closed) {
            throw RmqExceptions.ex.connectorStopped(RedisRmqConnector.CONNECTOR_NAME);
        }
        return clients.computeIfAbsent(access, a -> new RmqEngine(a).start());
    }

    /** How many clients are open, that is, how many distinct Redis accesses are in use. */
    synchronized int openClients() {
        return clients.size();
    }

    /** Closes every client and refuses new ones. Idempotent. */
    @Override
    public synchronized void close() {
        closed = true;
        clients.values().forEach(RmqEngine::close);
        clients.clear();
    }
}
