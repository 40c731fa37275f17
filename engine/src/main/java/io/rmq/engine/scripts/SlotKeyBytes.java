package io.rmq.engine.scripts;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.rmq.engine.topic.SlotKeys;
import io.rmq.engine.topic.TopicKeys;

/**
 * The bytes of a topic's keys and slot numbers as the scripts take them, built once per slot: for each slot
 * its keys ({@link #of}, indexed by the constants below) and its sharded wake channel, and the topic's wake
 * channel. Built up to the slot amount consumed, and further on demand (a producer routing by a grown amount);
 * grown by copy, never changed in place, so readers need no lock. Thread-safe.
 */
final class SlotKeyBytes {

    /** Indexes into {@link #of}: the slot's keys, and its number as an argument. */
    static final int STORE = 0;
    static final int PREPARE = 1;
    static final int ATTEMPTS = 2;
    static final int ORIGIN = 3;
    static final int DEAD = 4;
    static final int OWNER = 5;
    static final int FAILURES = 6;
    static final int PAUSED = 7;
    static final int SLOT = 8;
    static final int COUNTERS = 9;
    static final int EXPIRY = 10;
    static final int HELD_EXPIRY = 11;
    static final int TRACE = 12;
    static final int SINCE = 13;
    static final int TENANTS = 14;
    static final int FAIR = 15;
    static final int IN_FLIGHT_TENANTS = 16;
    static final int FLOW_KEYS = 17;
    static final int KEY_COUNTS = 18;
    static final int PARKED_KEYS = 19;

    private final TopicKeys keys;
    private final byte[] wakeChannel;
    /** Per slot, up to the capacity built so far (at least {@link #slotAmount}). */
    private volatile byte[][] shardedWakeChannels = new byte[0][];
    private volatile byte[][][] slotKeys = new byte[0][][];
    /** The slots consumed, swept and counted: the definition's amount, or more once the topic grew. */
    private volatile int slotAmount;

    SlotKeyBytes(TopicKeys keys) {
        this.keys = keys;
        this.wakeChannel = bytes(keys.wakeChannel());
        this.slotAmount = keys.topic().slotAmount();
        buildUpTo(slotAmount);
    }

    int slotAmount() {
        return slotAmount;
    }

    /** The topic has {@code amount} slots now; a smaller amount changes nothing. */
    synchronized void grow(int amount) {
        if (amount > slotAmount) {
            buildUpTo(amount);
            slotAmount = amount;
        }
    }

    /** The key and argument bytes of a slot; a slot beyond those built so far builds them. */
    byte[][] of(int slot) {
        byte[][][] built = slotKeys;
        if (slot < built.length) {
            return built[slot];
        }
        buildUpTo(Integer.highestOneBit(slot) * 2);
        return of(slot);
    }

    /** The key at index {@code key} of every slot consumed. */
    byte[][] everySlot(int key) {
        byte[][] k = new byte[slotAmount][];
        for (int slot = 0; slot < k.length; slot++) {
            k[slot] = of(slot)[key];
        }
        return k;
    }

    /** The topic's wake channel (a server without sharded Pub/Sub). */
    byte[] wakeChannel() {
        return wakeChannel;
    }

    /** The slot's sharded wake channel (a Redis 7 Cluster). */
    byte[] shardedWakeChannel(int slot) {
        of(slot);
        return shardedWakeChannels[slot];
    }

    private synchronized void buildUpTo(int capacity) {
        int from = slotKeys.length;
        if (capacity <= from) {
            return;
        }
        byte[][][] k = Arrays.copyOf(slotKeys, capacity);
        byte[][] channels = Arrays.copyOf(shardedWakeChannels, capacity);
        for (int s = from; s < capacity; s++) {
            channels[s] = bytes(keys.shardedWakeChannel(s));
            SlotKeys sk = keys.slot(s);
            k[s] = new byte[][] { bytes(sk.store()), bytes(sk.prepare()), bytes(sk.attempts()), bytes(sk.origin()),
                    bytes(sk.dead()), bytes(sk.owner()), bytes(sk.failures()), bytes(sk.paused()),
                    Long.toString(s).getBytes(StandardCharsets.US_ASCII), bytes(sk.counters()), bytes(sk.expiry()),
                    bytes(sk.heldExpiry()), bytes(sk.trace()), bytes(sk.since()), bytes(sk.tenants()), bytes(sk.fair()),
                    bytes(sk.inFlightTenants()), bytes(sk.flowKeys()), bytes(sk.keyCounts()),
                    bytes(sk.parkedKeys()) };
        }
        shardedWakeChannels = channels;
        slotKeys = k;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
