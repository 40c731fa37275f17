package io.rmq.engine.topic;

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

    /**
     * The keys of one slot. A slot beyond the definition's amount is one the topic has since grown to
     * (see {@code docs/topic-growth.md}); up to {@link TopicDefinition#MAX_SLOT_AMOUNT}.
     */
    public SlotKeys slot(int slot) {
        return slot < slots.length ? slots[slot] : SlotKeys.of(topic, slot);
    }

    /**
     * The split marker of a slot for a growth to {@code targetAmount}, {@code split:<target>{<prefix><topic>_<slot>}}:
     * exists once the slot was split (see {@code split_slot.lua}).
     */
    public String splitMarker(int slot, int targetAmount) {
        return "split:" + targetAmount + "{" + slot(slot).store() + "}";
    }

    /**
     * The members an old slot held when it was split for a growth to {@code targetAmount} and has not
     * let go of yet, {@code presplit:<target>{<prefix><topic>_<slot>}}.
     */
    public String presplit(int slot, int targetAmount) {
        return "presplit:" + targetAmount + "{" + slot(slot).store() + "}";
    }

    /**
     * The state of the recurring schedule {@code name} whose payload routes to {@code slot},
     * {@code schedule:<name>{<prefix><topic>_<slot>}} (see {@code tick.lua}): in the slot's hash tag, so that one
     * script records the tick and writes its message.
     */
    public String scheduleState(int slot, String name) {
        return "schedule:" + name + "{" + slot(slot).store() + "}";
    }

    /**
     * The hash in which the recurring schedules under {@code keyPrefix} are recorded (name to definition),
     * {@code <prefix>rmq:schedules}, beside the topic registry.
     */
    public static String scheduleRegistryKey(String keyPrefix) {
        return keyPrefix + "rmq:schedules";
    }

    /**
     * The topic's flow hash {@code flow{<prefix><topic>}}: its rate limit and the limiter's state (see
     * {@code flow_acquire.lua}). Its hash tag is the topic's own name, not a slot's: one key per topic.
     */
    public String flow() {
        return "flow{" + topic.keyPrefix() + topic.name() + "}";
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
        return shardedWakeChannelPrefix("") + slot(slot).store() + "}";
    }

    /** What every sharded wake channel of the topics under {@code keyPrefix} starts with: {@code rmq:wake{<prefix>}. */
    public static String shardedWakeChannelPrefix(String keyPrefix) {
        return "rmq:wake{" + keyPrefix;
    }

    public static String wakeChannel(String keyPrefix, String topicName) {
        return "rmq:wake:" + keyPrefix + topicName;
    }

    /**
     * The hash in which growths under way are recorded (topic name to target amount),
     * {@code {<prefix>rmq:topics}growth}: its hash tag is the registry's name, so a script may touch both.
     */
    public static String growthKey(String keyPrefix) {
        return "{" + registryKey(keyPrefix) + "}growth";
    }

    /**
     * The hash of the admin's requeues and purges under way on the topics of {@code keyPrefix},
     * {@code {<prefix>rmq:topics}operations}; each also keeps {@link #operationAliveKey} while it runs.
     */
    public static String operationsKey(String keyPrefix) {
        return "{" + registryKey(keyPrefix) + "}operations";
    }

    /** The key that exists while admin operation {@code id} runs: {@code {<prefix>rmq:topics}operation:<id>}. */
    public static String operationAliveKey(String keyPrefix, String id) {
        return "{" + registryKey(keyPrefix) + "}operation:" + id;
    }

    /** The hash in which topic definitions are recorded. */
    public static String registryKey(String keyPrefix) {
        return keyPrefix + "rmq:topics";
    }
}
