package io.rmq.engine.coordination;

import java.time.Duration;
import java.util.List;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * Detects overlapping processing of messages with the same slot basis, across threads and
 * processes: processing of a message starts by counting itself in, per instance, in a hash for its
 * slot basis in Redis ({@code HINCRBY}) and then reading the hash; it ends by counting itself out.
 * A start that finds more than one processing counted in happened while another message of the same
 * slot basis was being processed, and is recorded. The end is acknowledged by Redis before the
 * message is committed, so a correct handover can never be mistaken for an overlap. A killed
 * process never counts out: {@link #processDied} ends its processing, as its death did. Also
 * records which message contents were processed and how many deliveries there were. Thread-safe.
 */
final class OverlapDetector implements AutoCloseable {

    private static final String PREFIX = "test:serial:";
    private static final String OVERLAPS = PREFIX + "overlaps";
    private static final String PROCESSED = PREFIX + "processed";
    private static final String DELIVERIES = PREFIX + "deliveries";
    private static final String ACTIVE = PREFIX + "active:";
    /** Counts a processing in and returns how many are counted in for the key. */
    private static final String BEGIN = "redis.call('HINCRBY', KEYS[1], ARGV[1], 1) local n = 0 "
            + "for _, v in ipairs(redis.call('HVALS', KEYS[1])) do n = n + tonumber(v) end return n";
    /** Counts a processing out and records the content as processed. */
    private static final String END = "redis.call('HINCRBY', KEYS[1], ARGV[1], -1) redis.call('SADD', KEYS[2], ARGV[2]) "
            + "return redis.call('INCR', KEYS[3])";

    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final RedisCommands<String, String> redis;

    OverlapDetector(String redisUri) {
        this.client = RedisClient.create(RedisURI.builder(RedisURI.create(redisUri)).withTimeout(Duration.ofSeconds(10)).build());
        this.connection = client.connect();
        this.redis = connection.sync();
    }

    /** Processing of {@code content} (of slot basis {@code key}) starts in a worker of {@code instance}. */
    void begin(String key, String instance, String worker, String content) {
        Long active = redis.eval(BEGIN, ScriptOutputType.INTEGER, new String[] { ACTIVE + key }, instance);
        if (active > 1) {
            redis.rpush(OVERLAPS, key + ": " + content + " started in " + worker + " while another message of "
                    + key + " was being processed: " + redis.hgetall(ACTIVE + key));
        }
    }

    /** Processing of {@code content} ends; returns once Redis has counted it. */
    void end(String key, String instance, String content) {
        redis.eval(END, ScriptOutputType.INTEGER, new String[] { ACTIVE + key, PROCESSED, DELIVERIES }, instance, content);
    }

    /** An instance's process was killed: whatever it was processing ended then. */
    void processDied(String instance) {
        for (String key : redis.keys(ACTIVE + "*")) {
            redis.hdel(key, instance);
        }
    }

    List<String> overlaps() {
        return redis.lrange(OVERLAPS, 0, -1);
    }

    /** Distinct message contents processed at least once. */
    long processed() {
        return redis.scard(PROCESSED);
    }

    /** Processings counted, redeliveries included. */
    long deliveries() {
        String n = redis.get(DELIVERIES);
        return n == null ? 0 : Long.parseLong(n);
    }

    /** The slot basis of a test message {@code <key>#<seq>}. */
    static String keyOf(String content) {
        return content.substring(0, content.indexOf('#'));
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
