package io.rmq.engine.redis;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

import io.lettuce.core.pubsub.api.async.RedisPubSubAsyncCommands;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.topic.TopicKeys;

/**
 * The wake notices of an engine's topics: subscribes to each topic's wake channel
 * ({@code rmq:wake:<prefix><topic>}; on a Redis 7 cluster, with {@code SSUBSCRIBE}, to the sharded channel
 * of each of its slots, {@code rmq:wake{<prefix><topic>_<slot>}}) while some consumer listens to it, parses
 * the notices {@code <slot>:<delay ms>} that producers, commits and rollbacks publish, and hands them to
 * the consumers. After a reconnect it subscribes again and tells every consumer, since notices may have
 * been missed meanwhile.
 *
 * <p>Thread-safe; listeners are called on Lettuce's threads and must not block.
 */
public final class WakeBus implements RmqClient.Listener {

    /** Receives the wake notices of one topic. */
    public interface Listener {
        /** Slot {@code slot} has something due in {@code delayMillis} ms (0: now). */
        void wake(int slot, long delayMillis);

        /** The Redis connection is back: notices may have been missed. */
        void reconnected();

        /** The topic's growth state changed (a notice {@code grow:<amount>}, see {@code docs/topic-growth.md}). */
        default void growthNotice() {
        }
    }

    /** The prefix of a growth notice, published when a growth of the topic begins and when it ends. */
    static final String GROWTH_NOTICE = "grow:";

    private final RmqClient client;
    /** By the topic's own wake channel. */
    private final Map<String, Set<Listener>> listeners = new ConcurrentHashMap<>();
    private final Map<String, TopicKeys> topics = new ConcurrentHashMap<>();
    /** Sharded slot channel -> the topic's own wake channel. */
    private final Map<String, String> slotChannels = new ConcurrentHashMap<>();
    /** By the topic's own wake channel: the slots whose sharded channels are subscribed, once it grew. */
    private final Map<String, Integer> grownAmounts = new ConcurrentHashMap<>();

    public WakeBus(RmqClient client) {
        this.client = client;
        client.addListener(this);
    }

    public void subscribe(TopicKeys keys, Listener listener) {
        listeners.compute(keys.wakeChannel(), (ch, set) -> {
            Set<Listener> s = set == null ? ConcurrentHashMap.newKeySet() : set;
            if (s.isEmpty()) {
                topics.put(ch, keys);
                for (int slot = 0; slot < keys.topic().slotAmount(); slot++) {
                    slotChannels.put(keys.shardedWakeChannel(slot), ch);
                }
                RedisPubSubAsyncCommands<String, String> p = client.pubSub();
                if (p != null) {
                    subscribe(p, List.of(keys));
                }
            }
            s.add(listener);
            return s;
        });
    }

    public void unsubscribe(TopicKeys keys, Listener listener) {
        listeners.computeIfPresent(keys.wakeChannel(), (ch, set) -> {
            set.remove(listener);
            if (!set.isEmpty()) {
                return set;
            }
            RedisPubSubAsyncCommands<String, String> p = client.pubSub();
            if (client.shardedWakeChannels()) {
                client.shardedSubscription(false, List.of(slotChannels(keys)));
            } else if (p != null) {
                p.unsubscribe(ch);
            }
            topics.remove(ch);
            grownAmounts.remove(ch);
            return null;
        });
    }

    private void subscribe(RedisPubSubAsyncCommands<String, String> p, List<TopicKeys> keys) {
        if (client.shardedWakeChannels()) {
            client.shardedSubscription(true, keys.stream().flatMap(k -> List.of(slotChannels(k)).stream()).toList());
        } else {
            p.subscribe(keys.stream().map(TopicKeys::wakeChannel).toArray(String[]::new));
        }
    }

    private String[] slotChannels(TopicKeys keys) {
        int amount = grownAmounts.getOrDefault(keys.wakeChannel(), keys.topic().slotAmount());
        return IntStream.range(0, amount).mapToObj(keys::shardedWakeChannel).toArray(String[]::new);
    }

    /**
     * The topic grew to {@code amount} slots: on a Redis Cluster, the new slots' sharded channels are subscribed
     * too (a consumer of the topic listens).
     */
    public void grow(TopicKeys keys, int amount) {
        listeners.computeIfPresent(keys.wakeChannel(), (ch, set) -> {
            int before = grownAmounts.getOrDefault(ch, keys.topic().slotAmount());
            if (amount > before) {
                grownAmounts.put(ch, amount);
                List<String> added = IntStream.range(before, amount).mapToObj(keys::shardedWakeChannel).toList();
                added.forEach(c -> slotChannels.put(c, ch));
                if (client.shardedWakeChannels()) {
                    client.shardedSubscription(true, added);
                }
            }
            return set;
        });
    }

    @Override
    public void connected(boolean first) {
        RedisPubSubAsyncCommands<String, String> p = client.pubSub();
        if (first && p != null && !topics.isEmpty()) {
            subscribe(p, List.copyOf(topics.values()));
        }
        if (!first) {
            if (p != null && client.shardedWakeChannels() && !topics.isEmpty()) {
                // a failover may have moved slots to another node: subscribe where they are now (idempotent)
                subscribe(p, List.copyOf(topics.values()));
            }
            listeners.values().forEach(set -> set.forEach(Listener::reconnected));
        }
    }

    @Override
    public void message(String channel, String message) {
        Set<Listener> set = listeners.get(slotChannels.getOrDefault(channel, channel));
        if (set == null) {
            return;
        }
        if (message.startsWith(GROWTH_NOTICE)) {
            set.forEach(Listener::growthNotice);
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
