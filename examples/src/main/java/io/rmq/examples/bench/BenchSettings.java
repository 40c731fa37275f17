package io.rmq.examples.bench;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.rmq.embedded.EmbeddedRedis;

/**
 * The benchmark's parameters, from system properties {@code bench.<name>} (for example
 * {@code -Dbench.messages=5000}) or program arguments {@code <name>=<value>}, which win.
 *
 * @param messages          messages sent, then consumed, in the throughput phases
 * @param warmup            messages sent and consumed before measuring, to warm up the JIT (default: messages, at most 20,000)
 * @param payloadBytes      size of each message
 * @param slots             slot amount of both topics
 * @param consumers         incoming channel copies (SmallRye's {@code concurrency} attribute)
 * @param batchSize         the incoming channels' {@code batch-size}
 * @param maxInflight       the outgoing channels' {@code max-inflight}, also the sender's window
 * @param topicType         type of the throughput topic (messages are due at once)
 * @param latenessMessages  FIXED_TIME messages of the lateness phase (default: messages, at most 20,000)
 * @param latenessLeadMs    the earliest due time, after the lateness phase starts
 * @param latenessSpreadMs  due times are spread uniformly over this window after the lead
 * @param redisUri          an external Redis; empty: start an embedded one
 */
record BenchSettings(int messages, int warmup, int payloadBytes, int slots, int consumers, int batchSize,
        int maxInflight, String topicType, int latenessMessages, long latenessLeadMs, long latenessSpreadMs,
        Optional<String> redisUri) {

    static final String PREFIX = "bench.";

    static BenchSettings from(String[] args) {
        Map<String, String> values = BenchArguments.collect(PREFIX, args);
        int messages = integer(values, "messages", 100_000, 1);
        String redis = values.getOrDefault("redis-uri", EmbeddedRedis.externalUri().orElse("")).strip();
        BenchSettings settings = new BenchSettings(
                messages,
                integer(values, "warmup", Math.min(messages, 20_000), 0),
                integer(values, "payload-bytes", 100, 16),
                integer(values, "slots", 16, 1),
                integer(values, "consumers", 4, 1),
                integer(values, "batch-size", 32, 1),
                integer(values, "max-inflight", 1024, 1),
                values.getOrDefault("topic-type", "FIXED_TIME").toUpperCase(Locale.ROOT),
                integer(values, "lateness-messages", Math.min(messages, 20_000), 0),
                integer(values, "lateness-lead-ms", 1_500, 0),
                integer(values, "lateness-spread-ms", 3_000, 1),
                redis.isEmpty() ? Optional.empty() : Optional.of(redis));
        values.keySet().removeAll(java.util.List.of("messages", "warmup", "payload-bytes", "slots", "consumers",
                "batch-size", "max-inflight", "topic-type", "lateness-messages", "lateness-lead-ms",
                "lateness-spread-ms", "redis-uri"));
        if (!values.isEmpty()) {
            throw new IllegalArgumentException("unknown benchmark settings " + values.keySet()
                    + "; known: messages, warmup, payload-bytes, slots, consumers, batch-size, max-inflight, "
                    + "topic-type, lateness-messages, lateness-lead-ms, lateness-spread-ms, redis-uri");
        }
        return settings;
    }

    private static int integer(Map<String, String> values, String name, int defaultValue, int min) {
        return BenchArguments.integer(PREFIX, values, name, defaultValue, min);
    }
}
