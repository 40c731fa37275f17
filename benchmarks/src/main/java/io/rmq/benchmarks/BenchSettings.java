package io.rmq.benchmarks;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.rmq.testing.redis.EmbeddedRedis;

/**
 * The benchmark's parameters, from system properties {@code bench.<name>} (for example
 * {@code -Dbench.messages=5000}) or program arguments {@code <name>=<value>}, which win.
 *
 * @param messages          messages sent, then consumed, in the throughput phases
 * @param warmup            messages sent and consumed before measuring, to warm up the JIT (default: messages, at most 300,000)
 * @param payloadBytes      size of each message
 * @param slots             slot amount of the topics (the tuned channels', the bare client's rows beside them,
 *                          the sweeps')
 * @param consumers         incoming channel copies (SmallRye's {@code concurrency} attribute) of the tuned
 *                          channels, and the bare client's threads in the row beside them
 * @param batchSize         the tuned incoming channels' {@code batch-size}, and the bare client's pop size
 *                          in the row beside them
 * @param extraBareConsumers the bare client's threads of an extra row (0: no extra row)
 * @param extraBareBatchSize the bare client's pop size of that extra row (0: no extra row)
 * @param bestBare          whether to search the bare client's best consumers x batch size (and measure it in full)
 * @param bestBareMessages  messages per point of that search (default: messages, at most 50,000)
 * @param bestBareConsumers the bare client's numbers of threads the search tries
 * @param bestBareBatchSizes the bare client's pop sizes the search tries
 * @param maxInflight       the tuned outgoing channels' {@code max-inflight}, also the senders' window
 * @param topicType         type of the throughput topic (messages are due at once)
 * @param latenessMessages  FIXED_TIME messages of each lateness phase (default: messages, at most 20,000)
 * @param latenessLeadMs    the earliest due time, after a lateness phase starts
 * @param latenessSpreadMs  due times are spread uniformly over this window after the lead
 * @param redisUri          an external Redis; empty: start one (see {@code redis})
 * @param redis             which Redis servers to start: {@code auto} ({@code redis-server} from the
 *                          {@code PATH}, else the binary of embedded-redis), {@code system} (the one on the
 *                          {@code PATH}), {@code embedded} (embedded-redis's 6.2) or {@code both} (embedded,
 *                          then system); the whole benchmark runs on each
 * @param sweep             whether to measure consume throughput against batch size and number of consumers
 * @param sweepMessages     messages per sweep point
 * @param sweepBatchSizes   the batch sizes of the sweep
 * @param sweepConsumers    the numbers of consumers of the sweep
 * @param out               directory of the results table and charts
 * @param tracing           whether the connector's channels trace (OpenTelemetry SDK, spans made and dropped)
 * @param pairedRounds      rounds of the paired consume comparison: the bare client's consume phase at the tuned
 *                          settings and the tuned channels', {@code messages} each, one right after the other (the
 *                          bare client first in odd rounds, the channels first in even ones); 0: none
 */
record BenchSettings(int messages, int warmup, int payloadBytes, int slots, int consumers, int batchSize,
        int extraBareConsumers, int extraBareBatchSize, boolean bestBare, int bestBareMessages, int[] bestBareConsumers,
        int[] bestBareBatchSizes, int maxInflight, String topicType, int latenessMessages,
        long latenessLeadMs, long latenessSpreadMs,
        Optional<String> redisUri, String redis, boolean sweep, int sweepMessages, int[] sweepBatchSizes,
        int[] sweepConsumers, Path out, boolean tracing, int pairedRounds) {

    /** The benchmark's program name, for its configuration source and output. */
    static final String PROGRAM = "bench";

    static final String PREFIX = "bench.";
    static final List<String> REDIS_CHOICES = List.of("auto", "system", "embedded", "both");
    private static final List<String> NAMES = List.of("messages", "warmup", "payload-bytes", "slots", "consumers",
            "batch-size", "extra-bare-consumers", "extra-bare-batch-size", "best-bare", "best-bare-messages",
            "best-bare-consumers", "best-bare-batch-sizes", "max-inflight", "topic-type", "lateness-messages",
            "lateness-lead-ms", "lateness-spread-ms",
            "redis-uri", "redis", "sweep", "sweep-messages", "sweep-batch-sizes", "sweep-consumers", "out", "tracing",
            "paired-rounds");

    static BenchSettings from(String[] args) {
        Map<String, String> values = BenchArguments.collect(PREFIX, args);
        for (String replaced : List.of("baseline-consumers", "baseline-batch-size")) {
            if (values.containsKey(replaced)) {
                throw new IllegalArgumentException(PREFIX + replaced + " is gone: every connector row now has a bare"
                        + " client's row at its own consumers and batch size beside it; for one more bare row, set "
                        + PREFIX + "extra-bare-consumers and " + PREFIX + "extra-bare-batch-size");
            }
        }
        if (!NAMES.containsAll(values.keySet())) {
            List<String> unknown = values.keySet().stream().filter(n -> !NAMES.contains(n)).toList();
            throw new IllegalArgumentException("unknown benchmark settings " + unknown + "; known: "
                    + String.join(", ", NAMES));
        }
        int messages = integer(values, "messages", 300_000, 1);
        String uri = values.getOrDefault("redis-uri", EmbeddedRedis.externalUri().orElse("")).strip();
        String redis = values.getOrDefault("redis", "").strip().toLowerCase(Locale.ROOT);
        if (!redis.isEmpty() && !REDIS_CHOICES.contains(redis)) {
            throw new IllegalArgumentException(PREFIX + "redis must be one of " + REDIS_CHOICES + ", was '" + redis + "'");
        }
        if (!uri.isEmpty() && !redis.isEmpty() && !redis.equals("auto")) {
            throw new IllegalArgumentException(PREFIX + "redis=" + redis + " starts its own Redis, but a Redis is given"
                    + " by " + PREFIX + "redis-uri (or " + EmbeddedRedis.EXTERNAL_URI + "): set only one of them");
        }
        boolean sweep = bool(values, "sweep", false);
        int extraConsumers = integer(values, "extra-bare-consumers", 0, 0);
        int extraBatch = integer(values, "extra-bare-batch-size", 0, 0);
        if ((extraConsumers == 0) != (extraBatch == 0)) {
            throw new IllegalArgumentException(PREFIX + "extra-bare-consumers and " + PREFIX + "extra-bare-batch-size"
                    + " go together: set both (the extra bare row) or neither");
        }
        String out = values.getOrDefault("out", "").strip();
        return new BenchSettings(
                messages,
                integer(values, "warmup", Math.min(messages, 300_000), 0),
                integer(values, "payload-bytes", 100, 16),
                integer(values, "slots", 16, 1),
                integer(values, "consumers", 2, 1),
                integer(values, "batch-size", 128, 1),
                extraConsumers,
                extraBatch,
                bool(values, "best-bare", true),
                integer(values, "best-bare-messages", Math.min(messages, 50_000), 1),
                BenchArguments.integers(PREFIX, values, "best-bare-consumers", new int[] {1, 2, 4}, 1),
                BenchArguments.integers(PREFIX, values, "best-bare-batch-sizes", new int[] {32, 128, 256}, 1),
                integer(values, "max-inflight", 1024, 1),
                values.getOrDefault("topic-type", "FIXED_TIME").toUpperCase(Locale.ROOT),
                integer(values, "lateness-messages", Math.min(messages, 20_000), 0),
                integer(values, "lateness-lead-ms", 1_500, 0),
                integer(values, "lateness-spread-ms", 3_000, 1),
                uri.isEmpty() ? Optional.empty() : Optional.of(uri),
                redis.isEmpty() ? "auto" : redis,
                sweep,
                integer(values, "sweep-messages", 100_000, 1),
                BenchArguments.integers(PREFIX, values, "sweep-batch-sizes", new int[] {1, 4, 16, 32, 64, 128}, 1),
                BenchArguments.integers(PREFIX, values, "sweep-consumers", new int[] {1, 2, 4, 8}, 1),
                Path.of(out.isEmpty() ? "examples/target/bench" : out),
                bool(values, "tracing", false),
                integer(values, "paired-rounds", 3, 0));
    }

    private static boolean bool(Map<String, String> values, String name, boolean defaultValue) {
        String value = values.getOrDefault(name, "").strip().toLowerCase(Locale.ROOT);
        if (value.isEmpty()) {
            return defaultValue;
        }
        if (!value.equals("true") && !value.equals("false")) {
            throw new IllegalArgumentException(PREFIX + name + " must be true or false, was '" + value + "'");
        }
        return value.equals("true");
    }

    /** Whether the settings ask for the extra bare row ({@code extra-bare-consumers} x {@code extra-bare-batch-size}). */
    boolean extraBare() {
        return extraBareConsumers > 0;
    }

    private static int integer(Map<String, String> values, String name, int defaultValue, int min) {
        return BenchArguments.integer(PREFIX, values, name, defaultValue, min);
    }
}
