package io.rmq.benchmarks;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The scaling benchmark's parameters, from system properties {@code scaling.<name>} (for example
 * {@code -Dscaling.mode=backlog}) or program arguments {@code <name>=<value>}, which win.
 *
 * @param mode         {@code throughput} (one Redis beside a 3-master cluster), {@code backlog} (memory and
 *                     rates with big backlogs on one Redis), {@code spread} (a topic's slots over the masters)
 *                     or {@code all}; default {@code throughput}
 * @param messages     messages sent, then consumed, per throughput run; default 100,000
 * @param warmup       messages sent and consumed on each Redis before it is measured; default 100,000 (with
 *                     20,000 the first cluster run was measured cold)
 * @param rounds       throughput runs on each kind of Redis, alternating; default 2
 * @param replicas     replicas per cluster master; default 0 (the single Redis has none either)
 * @param backlogs     backlog sizes, comma-separated; default {@code 10000,10000000}
 * @param measure      messages sent, then popped and committed, with each backlog in place; default 100,000
 * @param payloadBytes size of each message; default 100
 * @param slots        slot amount of the topics; default 16
 * @param consumers    consumers (each its own consumer thread, competing for every slot); default 4
 * @param batchSize    most members one pop moves; default 32
 * @param window       sends in flight (unacknowledged) at most; default 1024
 */
record ScalingSettings(String mode, int messages, int warmup, int rounds, int replicas, int[] backlogs, int measure,
        int payloadBytes, int slots, int consumers, int batchSize, int window) {

    static final String PREFIX = "scaling.";
    private static final List<String> NAMES = List.of("mode", "messages", "warmup", "rounds", "replicas", "backlogs",
            "measure", "payload-bytes", "slots", "consumers", "batch-size", "window");

    static ScalingSettings from(String[] args) {
        Map<String, String> values = BenchArguments.collect(PREFIX, args);
        if (!NAMES.containsAll(values.keySet())) {
            List<String> unknown = values.keySet().stream().filter(n -> !NAMES.contains(n)).toList();
            throw new IllegalArgumentException("unknown scaling settings " + unknown + "; known: " + NAMES);
        }
        String mode = values.getOrDefault("mode", "throughput").strip().toLowerCase(Locale.ROOT);
        if (!List.of("throughput", "backlog", "spread", "all").contains(mode)) {
            throw new IllegalArgumentException("scaling.mode must be throughput, backlog, spread or all, was '" + mode + "'");
        }
        int[] backlogs = Arrays.stream(values.getOrDefault("backlogs", "10000,10000000").split(","))
                .mapToInt(b -> BenchArguments.parse(PREFIX, "backlogs", b, 1)).toArray();
        return new ScalingSettings(mode,
                integer(values, "messages", 100_000, 1),
                integer(values, "warmup", 100_000, 1),
                integer(values, "rounds", 2, 1),
                integer(values, "replicas", 0, 0),
                backlogs,
                integer(values, "measure", 100_000, 1),
                integer(values, "payload-bytes", 100, 16),
                integer(values, "slots", 16, 1),
                integer(values, "consumers", 4, 1),
                integer(values, "batch-size", 32, 1),
                integer(values, "window", 1024, 1));
    }

    private static int integer(Map<String, String> values, String name, int defaultValue, int min) {
        return BenchArguments.integer(PREFIX, values, name, defaultValue, min);
    }

    @Override
    public String toString() {
        return String.format("mode %s; %,d messages of %d bytes (+ %,d warm-up) x %d rounds; cluster replicas per master %d;"
                        + " backlogs %s, %,d measured on each; FIXED_TIME topic of %d slots; %d consumers, batch-size %d,"
                        + " %d sends in flight", mode, messages, payloadBytes, warmup, rounds, replicas,
                Arrays.toString(backlogs), measure, slots, consumers, batchSize, window);
    }
}
