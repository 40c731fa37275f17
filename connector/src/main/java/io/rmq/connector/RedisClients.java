package io.rmq.connector;

import java.util.HashMap;
import java.util.Map;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import io.rmq.engine.RmqClient;

/**
 * The Redis clients of one application: one started {@link RmqClient} per distinct {@code redis-uri}
 * (compared as strings), shared by every channel that uses it. A client is started when the first
 * channel acquires it and closed, with its connections and threads, when the last one releases it;
 * whatever is still open when the application stops is closed by {@link #close()}, the bean's
 * pre-destroy callback.
 *
 * <p>An application-scoped bean of the connector module, so that an application whose bean
 * discovery finds the connector finds it too; the CDI extension ({@code rmq-cdi-extension}) adds it
 * to applications where discovery does not. Outside CDI, create one and hand it to
 * {@link RedisRmqConnector#RedisRmqConnector(RedisClients)}.
 *
 * <p>The methods are public because the container calls them through a client proxy.
 *
 * <p>Thread-safe. Closing a client may take up to a few seconds (Lettuce's shutdown), under the lock.
 */
@ApplicationScoped
public class RedisClients {

    private final Map<String, Entry> clients = new HashMap<>();
    private boolean closed;

    private static final class Entry {
        final RmqClient client;
        int users;

        Entry(RmqClient client) {
            this.client = client;
        }
    }

    /**
     * The started client for {@code redisUri}, created on first use; every call must be matched by one
     * {@link #release(String)}.
     *
     * @throws IllegalStateException when the clients were closed (the application is stopping)
     */
    public synchronized RmqClient acquire(String redisUri) {
        if (closed) {
            throw new IllegalStateException("The Redis clients of connector " + RedisRmqConnector.CONNECTOR_NAME
                    + " are closed: the application is stopping");
        }
        Entry e = clients.computeIfAbsent(redisUri, uri -> new Entry(new RmqClient(uri).start()));
        e.users++;
        return e.client;
    }

    /** Gives back one use of the client for {@code redisUri}; the last one closes it. Unknown URIs are ignored. */
    public synchronized void release(String redisUri) {
        Entry e = clients.get(redisUri);
        if (e != null && --e.users == 0) {
            clients.remove(redisUri);
            e.client.close();
        }
    }

    /** How many clients are open, that is, how many distinct Redis URIs are in use. */
    public synchronized int openClients() {
        return clients.size();
    }

    /** Closes every client still open and refuses new ones. Idempotent. */
    @PreDestroy
    public synchronized void close() {
        closed = true;
        clients.values().forEach(e -> e.client.close());
        clients.clear();
    }
}
