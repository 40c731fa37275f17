package io.rmq.engine;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.lettuce.core.pubsub.api.async.RedisPubSubAsyncCommands;
import io.rmq.engine.i18n.EngineLogging;

/**
 * The wake notices of an engine's topics: subscribes to each topic's wake channel
 * ({@code rmq:wake:<prefix><topic>}) while some consumer listens to it, parses the notices
 * {@code <slot>:<delay ms>} that producers, commits and rollbacks publish, and hands them to the
 * consumers. After a reconnect it subscribes again and tells every consumer, since notices may have
 * been missed meanwhile.
 *
 * <p>Thread-safe; listeners are called on Lettuce's threads and must not block.
 */
final class WakeBus implements RmqClient.Listener {

    /** Receives the wake notices of one topic. */
    interface Listener {
        /** Slot {@code slot} has something due in {@code delayMillis} ms (0: now). */
        void wake(int slot, long delayMillis);

        /** The Redis connection is back: notices may have been missed. */
        void reconnected();
    }

    private final RmqClient client;
    private final Map<String, Set<Listener>> listeners = new ConcurrentHashMap<>();

    WakeBus(RmqClient client) {
        this.client = client;
        client.addListener(this);
    }

    void subscribe(String channel, Listener listener) {
        listeners.compute(channel, (ch, set) -> {
            Set<Listener> s = set == null ? ConcurrentHashMap.newKeySet() : set;
            if (s.isEmpty()) {
                RedisPubSubAsyncCommands<String, String> p = client.pubSub();
                if (p != null) {
                    p.subscribe(ch);
                }
            }
            s.add(listener);
            return s;
        });
    }

    void unsubscribe(String channel, Listener listener) {
        listeners.computeIfPresent(channel, (ch, set) -> {
            set.remove(listener);
            if (!set.isEmpty()) {
                return set;
            }
            RedisPubSubAsyncCommands<String, String> p = client.pubSub();
            if (p != null) {
                p.unsubscribe(ch);
            }
            return null;
        });
    }

    @Override
    public void connected(boolean first) {
        RedisPubSubAsyncCommands<String, String> p = client.pubSub();
        if (first && p != null && !listeners.isEmpty()) {
            p.subscribe(listeners.keySet().toArray(String[]::new));
        }
        if (!first) {
            listeners.values().forEach(set -> set.forEach(Listener::reconnected));
        }
    }

    @Override
    public void message(String channel, String message) {
        Set<Listener> set = listeners.get(channel);
        if (set == null) {
            return;
        }
        int colon = message.indexOf(':');
        int slot;
        long delay;
        try {
            slot = Integer.parseInt(message.substring(0, colon));
            delay = Long.parseLong(message.substring(colon + 1));
        } catch (RuntimeException e) {
            EngineLogging.log.malformedWakeNotice(message, channel);
            return;
        }
        set.forEach(l -> l.wake(slot, delay));
    }
}
