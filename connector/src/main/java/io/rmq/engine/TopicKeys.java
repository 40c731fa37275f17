package io.rmq.engine;

/**
 * The Redis names of a topic: its slots' keys (see {@link SlotKeys}), its wake channel
 * {@code rmq:wake:<prefix><topic>} (on a Redis Cluster one sharded channel per slot,
 * {@code rmq:wake{<prefix><topic>_<slot>}}) and the registry {@code <prefix>rmq:topics}. Immutable.
 */
public final class TopicKeys {

    private final TopicDefinition topic;
    private final SlotKeys[] slots;

    public TopicKeys(TopicDefinition topic) {
        this.topic = topic;
        this.slots = new SlotKeys[topic.slotAmount()];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = SlotKeys.of(topic, i);
        }
    }

    public TopicDefinition topic() {
        return topic;
    }

    public SlotKeys slot(int slot) {
        return slots[slot];
    }

    /** The Pub/Sub channel on which writes that make something due sooner are announced. */
    public String wakeChannel() {
        return wakeChannel(topic.keyPrefix(), topic.name());
    }

    /**
     * The sharded Pub/Sub channel of one slot on a Redis Cluster, {@code rmq:wake{<prefix><topic>_<slot>}}: in
     * the slot's hash tag, so that {@code SPUBLISH} from the slot's scripts stays on the slot's node.
     */
    public String shardedWakeChannel(int slot) {
        return shardedWakeChannelPrefix("") + slots[slot].store() + "}";
    }

    /** What every sharded wake channel of the topics under {@code keyPrefix} starts with: {@code rmq:wake{<prefix>}. */
    static String shardedWakeChannelPrefix(String keyPrefix) {
        return "rmq:wake{" + keyPrefix;
    }

    static String wakeChannel(String keyPrefix, String topicName) {
        return "rmq:wake:" + keyPrefix + topicName;
    }

    /** The hash in which topic definitions are recorded. */
    public static String registryKey(String keyPrefix) {
        return keyPrefix + "rmq:topics";
    }
}
