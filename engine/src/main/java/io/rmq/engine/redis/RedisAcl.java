package io.rmq.engine.redis;

import java.util.ArrayList;
import java.util.List;

import io.rmq.engine.topic.SlotKeys;
import io.rmq.engine.topic.TopicKeys;

/**
 * The least a Redis ACL user needs to run the connector's topics under one key prefix: its keys, its
 * wake channels and the commands the engine sends and its scripts run (Redis checks a script's
 * commands and keys against the calling user). Also enough for the admin API ({@code RmqAdmin}).
 * {@code docs/security.md} explains each part. Stateless.
 *
 * <p>{@code ACL SETUSER rmq on >password resetkeys resetchannels -@all <rules...>}
 */
public final class RedisAcl {

    /** The structures under a slot's hash tag, each a key {@code <name>{<prefix><topic>_<slot>}} (see {@link SlotKeys}). */
    static final List<String> HASH_TAGGED = List.of("prepare", "dead", "attempts", "origin", "owner", "failures",
            "paused", "counters", "expiry", "held-expiry", "blocked", "trace", "since", "tenants", "fair", "tenant", "flowkey", "keyflow", "parkedkeys");

    /** Connection set-up, scripts and Pub/Sub, as the engine and Lettuce send them. */
    public static final List<String> CONNECTION_COMMANDS = List.of("+hello", "+auth", "+ping", "+select",
            "+client|setname", "+evalsha", "+script|load", "+subscribe", "+unsubscribe");

    /**
     * Plain reads of the topic registry (consumers' fencing reads, the admin API's topic list), the
     * existence checks that spare idle slots a script call (safety poll, sweeper), and the type of a
     * topic's keys when a script call fails with {@code WRONGTYPE}, to name the key (RMQ-0340).
     */
    public static final List<String> READ_COMMANDS = List.of("+hget", "+hgetall", "+exists", "+type");

    /** What the Lua scripts run. */
    public static final List<String> SCRIPT_COMMANDS = List.of("+time", "+exists", "+del", "+set", "+publish",
            "+hget", "+hmget", "+hset", "+hsetnx", "+hdel", "+hexists", "+hincrby", "+hlen",
            "+zadd", "+zrem", "+zcard", "+zcount", "+zscore", "+zmscore", "+zrange", "+zrangebyscore", "+zrevrange",
            "+zremrangebyrank");

    /**
     * Durable sends ({@code durability=replicas:<n>}): {@code WAIT} until the replicas have a send. Harmless
     * for a user that does not use them ({@code WAIT} only holds its own connection), so always listed.
     */
    public static final List<String> DURABLE_SEND_COMMANDS = List.of("+wait");

    /**
     * What a Redis Cluster adds: {@code INFO} (the engine detects a cluster with {@code INFO cluster}; a user
     * refused it is taken to be on one server), {@code EVAL} (a script is sent again in full on a node that
     * answers {@code NOSCRIPT}), the sharded wake notices ({@code SPUBLISH} in the scripts, {@code SSUBSCRIBE}
     * by consumers) and the commands Lettuce reads the cluster's topology with.
     */
    public static final List<String> CLUSTER_COMMANDS = List.of("+info", "+eval", "+spublish", "+ssubscribe",
            "+sunsubscribe", "+cluster|nodes", "+cluster|myid");

    /** Optional: lets the connector check {@code maxmemory-policy} at start (RMQ-0142); without it, RMQ-0143. */
    public static final String CONFIG_GET = "+config|get";

    private RedisAcl() {
    }

    /**
     * The key and channel patterns for the topics under {@code keyPrefix}: {@code ~<prefix>*} (store queues,
     * the registry {@code <prefix>rmq:topics}), {@code ~<structure>{<prefix>*} per hash-tagged structure, the
     * keys of a growth ({@code ~split:*{<prefix>*}, {@code ~presplit:*{<prefix>*}, {@code ~{<prefix>rmq:topics}growth}),
     * the topics' flow hashes ({@code ~flow{<prefix>*}),
     * the tenants' queues of fair share ({@code ~tq:*{<prefix>*}), the keys' held-back members of limits per key
     * ({@code ~parked:*{<prefix>*}),
     * the admin's operations under way ({@code ~{<prefix>rmq:topics}operation*}),
     * and {@code &rmq:wake:<prefix>*}. Glob characters in the prefix ({@code * ? [ ] \}) are escaped.
     */
    public static List<String> patterns(String keyPrefix) {
        String p = escape(keyPrefix);
        List<String> rules = new ArrayList<>();
        rules.add("~" + p + "*");
        for (String name : HASH_TAGGED) {
            rules.add("~" + name + "{" + p + "*");
        }
        // a topic's growth: the split markers and pre-split sets of its slots, and the growth hash of the registry
        rules.add("~split:*{" + p + "*");
        rules.add("~presplit:*{" + p + "*");
        // fair share: the tenants' queues of a slot, under its hash tag
        rules.add("~tq:*{" + p + "*");
        rules.add("~parked:*{" + p + "*");
        // a recurring schedule's state, under the hash tag of its slot (the registry <prefix>rmq:schedules matches ~<prefix>*)
        rules.add("~schedule:*{" + p + "*");
        // a topic's flow settings and rate limiter, under the topic's own hash tag: flow{<prefix><topic>}
        rules.add("~flow{" + p + "*");
        rules.add("~" + TopicKeys.growthKey(p));
        // the admin's operations under way: their hash and the liveness key of each
        rules.add("~{" + TopicKeys.registryKey(p) + "}operation*");
        rules.add("&" + TopicKeys.wakeChannel(p, "") + "*");
        return rules;
    }

    /**
     * Every rule after {@code resetkeys resetchannels -@all}: the patterns of {@link #patterns}, the commands,
     * and {@link #CONFIG_GET} when {@code withConfigGet}.
     */
    public static List<String> rules(String keyPrefix, boolean withConfigGet) {
        List<String> rules = new ArrayList<>(patterns(keyPrefix));
        rules.addAll(CONNECTION_COMMANDS);
        rules.addAll(READ_COMMANDS.stream().filter(c -> !SCRIPT_COMMANDS.contains(c)).toList());
        rules.addAll(SCRIPT_COMMANDS);
        rules.addAll(DURABLE_SEND_COMMANDS);
        if (withConfigGet) {
            rules.add(CONFIG_GET);
        }
        return rules;
    }

    /**
     * The rules for a user on a Redis Cluster: {@link #rules} plus the sharded wake channels
     * {@code &rmq:wake{<prefix>*} and {@link #CLUSTER_COMMANDS}. Create the user on every node, replicas
     * included ({@code ACL SETUSER} is per node, and a failover promotes a replica).
     */
    public static List<String> clusterRules(String keyPrefix, boolean withConfigGet) {
        List<String> rules = new ArrayList<>(rules(keyPrefix, withConfigGet));
        rules.add(patterns(keyPrefix).size(), "&" + TopicKeys.shardedWakeChannelPrefix(escape(keyPrefix)) + "*");
        rules.addAll(CLUSTER_COMMANDS);
        return rules;
    }

    private static String escape(String s) {
        StringBuilder out = new StringBuilder();
        for (char c : s.toCharArray()) {
            if ("*?[]\\".indexOf(c) >= 0) {
                out.append('\\');
            }
            out.append(c);
        }
        return out.toString();
    }
}
