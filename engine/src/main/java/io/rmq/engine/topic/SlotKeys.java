package io.rmq.engine.topic;

import java.nio.charset.StandardCharsets;

/**
 * The Redis keys of one slot of a topic. All share the hash tag {@code {<prefix><topic>_<slot>}}
 * (the store key hashes to the same cluster slot as its whole name), so every script works on one
 * Redis Cluster hash slot.
 *
 * <ul>
 * <li>store queue (pending messages): {@code <prefix><topic>_<slot>}</li>
 * <li>prepare queue (messages being consumed): {@code prepare{<prefix><topic>_<slot>}}</li>
 * <li>dead queue (retries used up): {@code dead{<prefix><topic>_<slot>}}</li>
 * <li>attempts hash (member to failed deliveries): {@code attempts{<prefix><topic>_<slot>}}</li>
 * <li>origin hash (member to its priority while in flight): {@code origin{<prefix><topic>_<slot>}}</li>
 * <li>owner hash (coordination: the slot's ownership epoch, worker, since, handover):
 * {@code owner{<prefix><topic>_<slot>}}</li>
 * <li>failures hash (member to {@code <deliveries>\t<priority>\t<last failure>}, while it is retried or
 * dead): {@code failures{<prefix><topic>_<slot>}}</li>
 * <li>pause flag (exists while consumption is paused): {@code paused{<prefix><topic>_<slot>}}</li>
 * <li>counters hash (cumulative counts for operators: sent, merged, delivered, acked, nacked, dead, released,
 * requeued, purged, trimmed, cancelled, rescheduled, expired, ticked; one {@code HINCRBY} per script call and outcome): {@code counters{<prefix><topic>_<slot>}}</li>
 * <li>expiry sorted set (a pending member to the time it expires, ms since the epoch on the Redis clock; only
 * members sent with an expiry): {@code expiry{<prefix><topic>_<slot>}}</li>
 * <li>held expiry hash (a member being consumed to the expiry it had when popped, restored if it is rolled back
 * or released): {@code held-expiry{<prefix><topic>_<slot>}}</li>
 * <li>blocked hash (a member a pop left in the store queue while another copy of it was being consumed, to 1; the
 * commit of that copy wakes the consumers; {@code lib/blocked.lua}): {@code blocked{<prefix><topic>_<slot>}}, a name
 * built by the scripts</li>
 * <li>trace hash (a pending member to the trace contexts of its sends and of its last failed delivery; only
 * members sent with a trace context, see {@code lib/trace.lua}): {@code trace{<prefix><topic>_<slot>}}</li>
 * <li>since hash (priority aging of a {@code PRIORITY} topic: a member to its first send time, ms on the Redis
 * clock; see {@link PriorityAging} and {@code lib/aging.lua}): {@code since{<prefix><topic>_<slot>}}</li>
 * <li>fair share ({@code lib/fair.lua}): tenant queues {@code tq:<tenant>{<prefix><topic>_<slot>}} ({@link TenantName}),
 * the tenants set {@code tenants{<prefix><topic>_<slot>}} (tenant with pending members to its pass), the fair hash
 * {@code fair{<prefix><topic>_<slot>}} (field {@code vt}) and the in-flight tenant hash
 * {@code tenant{<prefix><topic>_<slot>}} (member in flight to its tenant)</li>
 * <li>limits per key ({@link KeyLimits}; {@code lib/keys.lua}): the flow keys hash (a pending member to its key)
 * {@code flowkey{<prefix><topic>_<slot>}}, the key counts hash ({@code c:<key>} members in the prepare queue,
 * {@code t:<key>} the key's rate state) {@code keyflow{<prefix><topic>_<slot>}}, the parked keys sorted set (a key
 * with held-back members to when it may go again) {@code parkedkeys{<prefix><topic>_<slot>}}, and per parked key
 * its members {@code parked:<encoded key>{<prefix><topic>_<slot>}}, a name built by the scripts</li>
 * </ul>
 */
public record SlotKeys(int slot, String store, String prepare, String dead, String attempts, String origin,
        String owner, String failures, String paused, String counters, String expiry, String heldExpiry, String trace,
        String since) {

    /**
     * The blocked hash: a member a pop left in the store queue because another copy of it was being consumed, to 1.
     * The scripts build this name ({@code lib/blocked.lua}); it is here for operators and tests.
     */
    public String blocked() {
        return "blocked{" + store + "}";
    }

    /** The fair-share tenants set: each tenant with pending members to its pass. */
    public String tenants() {
        return "tenants{" + store + "}";
    }

    /** The fair-share hash: field {@code vt}, the slot's virtual time. */
    public String fair() {
        return "fair{" + store + "}";
    }

    /** The fair-share in-flight tenant hash: a member in flight to its tenant (not the default one). */
    public String inFlightTenants() {
        return "tenant{" + store + "}";
    }

    /** The queue of a tenant given by its encoded name ({@link TenantName#encode}); the store queue for {@code ""}. */
    public String tenantQueue(String encodedTenant) {
        return TenantName.queue(store, encodedTenant);
    }

    static SlotKeys of(TopicDefinition topic, int slot) {
        String base = topic.keyPrefix() + topic.name() + "_" + slot;
        return new SlotKeys(slot, base, "prepare{" + base + "}", "dead{" + base + "}",
                "attempts{" + base + "}", "origin{" + base + "}", "owner{" + base + "}", "failures{" + base + "}",
                "paused{" + base + "}", "counters{" + base + "}", "expiry{" + base + "}", "held-expiry{" + base + "}",
                "trace{" + base + "}", "since{" + base + "}");
    }

    /** The flow keys hash: a pending member to its key (limits per key). */
    public String flowKeys() {
        return "flowkey{" + store + "}";
    }

    /** The key counts hash: per key its members in the prepare queue and its rate state (limits per key). */
    public String keyCounts() {
        return "keyflow{" + store + "}";
    }

    /** The parked keys sorted set: a key with members held back by its limit to when it may go again. */
    public String parkedKeys() {
        return "parkedkeys{" + store + "}";
    }

    /**
     * The parked set of a key: its held-back members with their store scores. The scripts build this name
     * ({@code lib/keys.lua}); it is here for operators and tests.
     */
    public String parked(String key) {
        StringBuilder encoded = new StringBuilder();
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c == '%' || c == '{' || c == '}' || c < 0x20 || c == 0x7f) {
                encoded.append('%').append(String.format("%02X", c));
            } else {
                encoded.append((char) c);
            }
        }
        return "parked:" + new String(encoded.toString().getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8)
                + "{" + store + "}";
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
