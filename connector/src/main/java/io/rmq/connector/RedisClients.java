package io.rmq.connector;

import java.util.HashMap;
import java.util.Map;

import io.rmq.engine.RmqClient;

/**
 * One started {@link RmqClient} per distinct Redis URI, shared by the channels that use it and
 * closed when the last of them releases it. Thread-safe.
 */
final class RedisClients implements AutoCloseable {

    private final Map<String, Entry> clients = new HashMap<>();

    private static final class Entry {
        final RmqClient client;
        int users;

        Entry(RmqClient client) {
            this.client = client;
        }
    }

    synchronized RmqClient acquire(String redisUri) {
        Entry e = clients.computeIfAbsent(redisUri, uri -> new Entry(new RmqClient(uri).start()));
        e.users++;
        return e.client;
    }

    synchronized void release(String redisUri) {
        Entry e = clients.get(redisUri);
        if (e != null && --e.users == 0) {
            clients.remove(redisUri);
            e.client.close();
        }
    }

    @Override
    public synchronized void close() {
        clients.values().forEach(e -> e.client.close());
        clients.clear();
    }
}
