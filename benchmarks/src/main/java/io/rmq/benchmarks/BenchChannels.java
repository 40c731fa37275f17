package io.rmq.benchmarks;

import java.util.LinkedHashMap;
import java.util.Map;

import io.rmq.connector.RedisRmqConnector;
import io.rmq.connector.config.OutgoingChannelConfig;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.topic.TopicDefinition;

/**
 * The channel configurations of the benchmark's containers. Every container configures every channel
 * the benchmark's beans declare; what differs is the throughput pair ({@code bench-out}, {@code bench-in}):
 *
 * <ul>
 * <li><b>tuned</b>: the settings' {@code slot-amount}, {@code concurrency}, {@code batch-size} and
 * {@code max-inflight};</li>
 * <li><b>defaults</b>: nothing but {@code connector}, {@code topic} and {@code topic-type} (and, for
 * topic types that need one, the default {@code priority} or {@code time-range} a message without
 * metadata must have), so the connector's and SmallRye's defaults decide the rest;</li>
 * <li><b>ordinary application</b>: the defaults, with the settings' {@code consumers} as {@code concurrency}:
 * what an application written the ordinary way configures (its messages' payloads are {@code String}s, the
 * default {@code payload-type}, and its method takes a {@code Message} and acks it);</li>
 * <li><b>sweep</b>: tuned, with another batch size or number of consumers.</li>
 * </ul>
 * The lateness and load channels are always tuned.
 */
final class BenchChannels {

    static final String THROUGHPUT_TOPIC = "bench.throughput";
    static final String DEFAULTS_TOPIC = "bench.defaults";
    static final String ORDINARY_TOPIC = "bench.ordinary";
    static final String SWEEP_TOPIC = "bench.sweep";
    static final String LATENESS_TOPIC = "bench.lateness";
    static final String LOAD_TOPIC = "bench.load";
    static final String BASELINE_TOPIC = "bench.raw";
    static final String BASELINE_DEFAULTS_TOPIC = "bench.raw-defaults";

    /** Slot amount of the defaults' topic: the connector's default. */
    static final int DEFAULT_SLOTS = TopicDefinition.DEFAULT_SLOT_AMOUNT;
    /** Consumers of the defaults' incoming channel: SmallRye's default {@code concurrency}, one channel. */
    static final int DEFAULT_CONSUMERS = 1;
    /** The defaults' incoming channel's {@code batch-size}: the connector's default. */
    static final int DEFAULT_BATCH_SIZE = ConsumerOptions.DEFAULT_BATCH_SIZE;
    /** The defaults' outgoing channel's {@code max-inflight}: the connector's default. */
    static final int DEFAULT_MAX_INFLIGHT = OutgoingChannelConfig.DEFAULT_MAX_INFLIGHT;

    private BenchChannels() {
    }

    /** The throughput channels tuned by the settings. */
    static Map<String, String> tuned(BenchSettings s, String redisUri, String keyPrefix) {
        Map<String, String> c = common(s, redisUri, keyPrefix);
        tunedPair(c, s, "bench", THROUGHPUT_TOPIC, s.topicType(), s.batchSize(), s.consumers());
        return c;
    }

    /** The throughput channels with nothing but connector, topic and type set. */
    static Map<String, String> defaults(BenchSettings s, String redisUri, String keyPrefix) {
        return defaultPair(s, redisUri, keyPrefix, DEFAULTS_TOPIC);
    }

    /** The throughput channels of an application written the ordinary way: the defaults, and {@code concurrency}. */
    static Map<String, String> ordinary(BenchSettings s, String redisUri, String keyPrefix) {
        Map<String, String> c = defaultPair(s, redisUri, keyPrefix, ORDINARY_TOPIC);
        c.put("mp.messaging.incoming.bench-in.concurrency", Integer.toString(s.consumers()));
        return c;
    }

    private static Map<String, String> defaultPair(BenchSettings s, String redisUri, String keyPrefix, String topic) {
        Map<String, String> c = common(s, redisUri, keyPrefix);
        String out = "mp.messaging.outgoing.bench-out.";
        c.put(out + "connector", RedisRmqConnector.CONNECTOR_NAME);
        c.put(out + "topic", topic);
        c.put(out + "topic-type", s.topicType());
        dueAtOnce(c, out, s.topicType());
        String in = "mp.messaging.incoming.bench-in.";
        c.put(in + "connector", RedisRmqConnector.CONNECTOR_NAME);
        c.put(in + "topic", topic);
        c.put(in + "topic-type", s.topicType());
        return c;
    }

    /** The throughput channels tuned, with {@code batchSize} and {@code consumers} instead of the settings'. */
    static Map<String, String> sweep(BenchSettings s, String redisUri, String keyPrefix, int batchSize, int consumers) {
        Map<String, String> c = common(s, redisUri, keyPrefix);
        tunedPair(c, s, "bench", SWEEP_TOPIC, s.topicType(), batchSize, consumers);
        return c;
    }

    /** Redis, key prefix, tracing, and the lateness and load channels. */
    private static Map<String, String> common(BenchSettings s, String redisUri, String keyPrefix) {
        Map<String, String> c = new LinkedHashMap<>();
        c.put(BenchTracing.PROPERTY, Boolean.toString(s.tracing()));
        c.put("mp.messaging.connector." + RedisRmqConnector.CONNECTOR_NAME + ".redis-uri", redisUri);
        c.put("mp.messaging.connector." + RedisRmqConnector.CONNECTOR_NAME + ".key-prefix", keyPrefix);
        tunedPair(c, s, "lateness", LATENESS_TOPIC, "FIXED_TIME", s.batchSize(), s.consumers());
        tunedPair(c, s, "load", LOAD_TOPIC, "FIXED_TIME", s.batchSize(), s.consumers());
        return c;
    }

    /** {@code <name>-out} and {@code <name>-in} on {@code topic}, tuned. */
    private static void tunedPair(Map<String, String> c, BenchSettings s, String name, String topic, String topicType,
            int batchSize, int consumers) {
        String out = "mp.messaging.outgoing." + name + "-out.";
        c.put(out + "connector", RedisRmqConnector.CONNECTOR_NAME);
        c.put(out + "topic", topic);
        c.put(out + "topic-type", topicType);
        c.put(out + "slot-amount", Integer.toString(s.slots()));
        c.put(out + "max-inflight", Integer.toString(s.maxInflight()));
        dueAtOnce(c, out, topicType);
        String in = "mp.messaging.incoming." + name + "-in.";
        c.put(in + "connector", RedisRmqConnector.CONNECTOR_NAME);
        c.put(in + "topic", topic);
        c.put(in + "topic-type", topicType);
        c.put(in + "slot-amount", Integer.toString(s.slots()));
        c.put(in + "batch-size", Integer.toString(batchSize));
        c.put(in + "payload-type", "bytes");
        c.put(in + "concurrency", Integer.toString(consumers));
    }

    /** What makes a message without metadata due at once: priority 0, or a time range of 1 ms. */
    private static void dueAtOnce(Map<String, String> c, String out, String topicType) {
        switch (topicType) {
            case "PRIORITY" -> c.put(out + "priority", "0");
            case "RANGE_MERGE" -> c.put(out + "time-range", "1");
            default -> {
                // FIXED_TIME: a message without a delivery time is due when it is sent
            }
        }
    }
}
