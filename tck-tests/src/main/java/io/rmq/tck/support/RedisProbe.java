package io.rmq.tck.support;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * Looks at the queues in Redis through the documented key layout, from inside the deployment: the
 * store queue {@code <prefix><topic>_<slot>}, the prepare queue {@code prepare{<prefix><topic>_<slot>}},
 * the dead queue {@code dead{...}} and the attempts hash {@code attempts{...}}, where the prefix is the
 * deployment's connector-level {@code key-prefix}. It can also write a member the way another
 * producer (or a consumer that crashed) would leave it.
 *
 * <p>Its Lettuce client is opened on first use and shut down with the application. Thread-safe.
 */
@ApplicationScoped
public class RedisProbe {

    @Inject
    @ConfigProperty(name = "mp.messaging.connector.smallrye-redis-rmq.redis-uri")
    String redisUri;

    @Inject
    @ConfigProperty(name = "mp.messaging.connector.smallrye-redis-rmq.key-prefix")
    String keyPrefix;

    private RedisClient client;
    private StatefulRedisConnection<String, String> connection;

    /** Synchronous commands (UTF-8 strings) on the probe's own connection. */
    public synchronized RedisCommands<String, String> redis() {
        if (connection == null) {
            client = RedisClient.create(RedisURI.builder(RedisURI.create(redisUri)).withTimeout(Duration.ofSeconds(10)).build());
            connection = client.connect();
        }
        return connection.sync();
    }

    /** A key of the application's own under the deployment's key prefix. */
    public String key(String name) {
        return keyPrefix + name;
    }

    /** The store queue of a slot: pending messages. */
    public String storeKey(String topic, int slot) {
        return keyPrefix + topic + "_" + slot;
    }

    /** The prepare queue of a slot: messages being consumed, scored by their deadline. */
    public String prepareKey(String topic, int slot) {
        return "prepare{" + storeKey(topic, slot) + "}";
    }

    /** The dead queue of a slot: messages that used up their retries. */
    public String deadKey(String topic, int slot) {
        return "dead{" + storeKey(topic, slot) + "}";
    }

    /** The attempts hash of a slot: member to failed deliveries so far. */
    public String attemptsKey(String topic, int slot) {
        return "attempts{" + storeKey(topic, slot) + "}";
    }

    /** The pending members of slot 0 with their scores, lowest score first. */
    public List<ScoredValue<String>> pending(String topic) {
        return redis().zrangeWithScores(storeKey(topic, 0), 0, -1);
    }

    /** The score of a pending member of slot 0, or {@code null}. */
    public Double pendingScore(String topic, String member) {
        return redis().zscore(storeKey(topic, 0), member);
    }

    /**
     * Whether {@code member} is still in slot 0, pending in the store queue or being consumed in the
     * prepare queue: once it is in neither, it cannot be delivered again.
     */
    public boolean isQueued(String topic, String member) {
        return redis().zscore(storeKey(topic, 0), member) != null || redis().zscore(prepareKey(topic, 0), member) != null;
    }

    /** How many messages of slot 0 are being consumed. */
    public long preparing(String topic) {
        return redis().zcard(prepareKey(topic, 0));
    }

    /** The dead members of slot 0. */
    public List<String> dead(String topic) {
        return redis().zrange(deadKey(topic, 0), 0, -1);
    }

    /** The attempts hash of slot 0. */
    public Map<String, String> attempts(String topic) {
        return redis().hgetall(attemptsKey(topic, 0));
    }

    /** The failure recorded for a member of slot 0 (its last nack's reason), or {@code null}. */
    public String failure(String topic, String member) {
        return redis().hget("failures{" + storeKey(topic, 0) + "}", member);
    }

    /** A field of slot 0's counters hash ({@code acked}, {@code dead}, ...), 0 when absent. */
    public long counter(String topic, String field) {
        String value = redis().hget("counters{" + storeKey(topic, 0) + "}", field);
        return value == null ? 0 : Long.parseLong(value);
    }

    /** The Redis clock in ms since the epoch: "now" as the connector's scripts see it. */
    public long redisTimeMillis() {
        List<String> time = redis().time();
        return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    }

    /**
     * Writes members to the store queue of slot 0 in one {@code ZADD}, as another producer (or
     * {@code redis-cli}) would: atomically, so a consumer sees all of them or none.
     */
    public void zaddPending(String topic, Object... scoresAndMembers) {
        ScoredValue<String>[] values = scored(scoresAndMembers);
        redis().zadd(storeKey(topic, 0), (Object[]) values);
    }

    /** Puts a member into the prepare queue of slot 0 with a deadline, as a consumer that popped it and died leaves it. */
    public void leaveInPrepareQueue(String topic, String member, long deadlineMillis) {
        redis().zadd(prepareKey(topic, 0), (double) deadlineMillis, member);
    }

    @SuppressWarnings("unchecked")
    private static ScoredValue<String>[] scored(Object... scoresAndMembers) {
        ScoredValue<String>[] values = new ScoredValue[scoresAndMembers.length / 2];
        for (int i = 0; i < values.length; i++) {
            values[i] = ScoredValue.just(((Number) scoresAndMembers[2 * i]).doubleValue(), (String) scoresAndMembers[2 * i + 1]);
        }
        return values;
    }

    @PreDestroy
    synchronized void close() {
        if (connection != null) {
            connection.close();
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
}
