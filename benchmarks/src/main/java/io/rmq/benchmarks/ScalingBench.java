package io.rmq.benchmarks;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.lettuce.core.cluster.SlotHash;
import io.rmq.benchmarks.ScalingWorkloads.Rate;
import io.rmq.benchmarks.ScalingWorkloads.Workload;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.examples.support.Console;
import io.rmq.examples.support.ConsoleLogging;
import io.rmq.testing.redis.RedisBinary;
import io.rmq.testing.redis.RedisProcess;

/**
 * The scaling benchmark: the engine ({@code io.rmq.engine}, no SmallRye, no CDI) on Redis servers it
 * starts itself ({@link ScalingTarget}), in two modes.
 *
 * <ul>
 * <li>{@code throughput}: the same send and consume+commit run on one Redis and on a Redis Cluster of
 * three masters, one after the other, on the same machine.</li>
 * <li>{@code backlog}: on one Redis, for each backlog size, fills the backlog through the engine's
 * producer, measures Redis memory per message against a bare sorted set of the same members and
 * scores, then the send rate and the pop+commit rate while the backlog is in place.</li>
 * <li>{@code spread}: how a topic's slots spread over 3 or 6 cluster masters, computed from the key layout.</li>
 * </ul>
 * Settings: {@link ScalingSettings}. Run from the repository root:
 * {@code mvn -q -pl benchmarks -am verify -Pscaling -DskipTests [-Dscaling.mode=backlog ...]}.
 */
public final class ScalingBench {

    private ScalingBench() {
    }

    public static void main(String[] args) throws Exception {
        ConsoleLogging.install();
        ScalingSettings s = ScalingSettings.from(args);
        Console.say("RMQ scaling benchmark: the engine on Redis servers it starts (%s)",
                RedisBinary.find().path() + " " + RedisBinary.find().version());
        Console.say("machine   %d cores, Java %s, JVM max heap %d MB, load average %.2f at start",
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
                Runtime.getRuntime().maxMemory() >> 20, load());
        Console.say("settings  %s", s);
        if (s.mode().equals("throughput") || s.mode().equals("all")) {
            throughput(s);
        }
        if (s.mode().equals("backlog") || s.mode().equals("all")) {
            backlog(s);
        }
        if (s.mode().equals("spread") || s.mode().equals("all")) {
            spread();
        }
    }

    // ---------------------------------------------------------------- throughput: one Redis beside a cluster

    private static void throughput(ScalingSettings s) throws Exception {
        List<String> rows = new ArrayList<>();
        for (int round = 1; round <= s.rounds(); round++) {
            for (String target : List.of("single", "cluster")) {
                try (ScalingTarget redis = target.equals("single") ? ScalingTarget.single()
                        : ScalingTarget.cluster(s.replicas());
                        Workload w = new Workload(redis, s, "scaling.throughput." + round)) {
                    Measures.progress("%s (%s), round %d: warm-up of %,d messages ...", target, redis.ports(), round, s.warmup());
                    w.send(s.warmup(), "warmup");
                    w.consume(s.warmup(), true);
                    double loadBefore = load();
                    Measures.progress("sending %,d messages ...", s.messages());
                    long offsetBefore = replicationOffset(redis);
                    double cpuBefore = redisCpuSeconds(redis);
                    Rate sent = w.send(s.messages(), "run");
                    long offsetSent = replicationOffset(redis);
                    double cpuSent = redisCpuSeconds(redis);
                    Measures.progress("consuming and committing them ...");
                    Rate consumed = w.consume(s.messages(), true);
                    long offsetConsumed = replicationOffset(redis);
                    double cpuConsumed = redisCpuSeconds(redis);
                    rows.add(String.format("| %s | %d | %,d | %,.0f | %,.0f | %,.0f | %.0f%% / %.0f%% | %s | %.2f / %.2f |",
                            target, round, s.messages(), sent.perSecond(), consumed.perSecond(),
                            consumed.untilCommittedPerSecond(), (cpuSent - cpuBefore) / sent.seconds() * 100,
                            (cpuConsumed - cpuSent) / consumed.committedSeconds() * 100,
                            offsetBefore < 0 ? "no replicas" : String.format("%.0f / %.0f",
                                    (offsetSent - offsetBefore) / (double) s.messages(),
                                    (offsetConsumed - offsetSent) / (double) s.messages()),
                            loadBefore, load()));
                }
            }
        }
        Console.say("");
        Console.say("Throughput through the engine: %,d messages of %d bytes, FIXED_TIME topic of %d slots, %d consumers, "
                        + "batch-size %d, %d sends in flight; cluster: 3 masters, %d replica(s) each", s.messages(),
                s.payloadBytes(), s.slots(), s.consumers(), s.batchSize(), s.window(), s.replicas());
        Console.say("| Redis | round | messages | sent /s | consumed and committed /s | every commit in Redis /s "
                + "| Redis CPU, all processes (send / consume; 100%% = one core) "
                + "| replication bytes per message (send / consume) | load before / after |");
        Console.say("|---|---:|---:|---:|---:|---:|---|---|---|");
        rows.forEach(row -> Console.say("%s", row));
    }

    // ---------------------------------------------------------------- spread: a topic's slots over the masters

    /**
     * How a topic's slots spread over the masters of a cluster whose 16384 hash slots are split evenly
     * (as {@code redis-cli --cluster create} splits them): the largest share one master gets, for a few
     * topic names (no key prefix). Computed from the key layout, no Redis needed.
     */
    private static void spread() {
        List<String> topics = List.of("orders", "price", "invoice", "mail", "cache.keys", "bench.throughput");
        Console.say("");
        Console.say("Share of a topic's slots on its busiest master (topics %s)", topics);
        Console.say("| masters | slot-amount | busiest master holds (lowest to highest over the topics) | even share |");
        Console.say("|---:|---:|---|---:|");
        for (int masters : new int[] {3, 6}) {
            for (int slots : new int[] {16, 64, 256, 1024}) {
                double lowest = 1;
                double highest = 0;
                for (String topic : topics) {
                    int[] perMaster = new int[masters];
                    TopicKeys keys = new TopicKeys(new TopicDefinition(topic, slots, TopicType.FIXED_TIME));
                    for (int slot = 0; slot < slots; slot++) {
                        perMaster[SlotHash.getSlot(keys.slot(slot).prepare()) * masters / SlotHash.SLOT_COUNT]++;
                    }
                    double busiest = Arrays.stream(perMaster).max().orElse(0) / (double) slots;
                    lowest = Math.min(lowest, busiest);
                    highest = Math.max(highest, busiest);
                }
                Console.say("| %d | %d | %.0f%% to %.0f%% | %.0f%% |", masters, slots, lowest * 100, highest * 100,
                        100.0 / masters);
            }
        }
    }

    // ---------------------------------------------------------------- backlog: memory and rates with a big backlog

    private static void backlog(ScalingSettings s) throws Exception {
        List<String> memory = new ArrayList<>();
        List<String> snapshots = new ArrayList<>();
        List<String> rates = new ArrayList<>();
        try (ScalingTarget redis = ScalingTarget.single(); Workload w = new Workload(redis, s, "scaling.warmup")) {
            Measures.progress("warm-up of %,d messages on a Redis of its own ...", s.warmup());
            w.send(s.warmup(), "warmup");
            w.consume(s.warmup(), false);
        }
        for (int size : s.backlogs()) {
            try (ScalingTarget redis = ScalingTarget.single();
                    Workload w = new Workload(redis, s, "scaling.backlog")) {
                RedisProcess server = redis.nodes().get(0);
                long before = usedMemory(server);
                double loadBefore = load();
                Measures.progress("filling a backlog of %,d messages through the producer ...", size);
                Rate fill = w.send(size, "backlog");
                long withBacklog = usedMemory(server);
                double perMessage = (withBacklog - before) / (double) size;

                Measures.progress("the same members and scores in one bare sorted set (ZADD, pipelined) ...");
                Rate bare = w.bareSortedSet(size, "backlog", "bare-zset");
                long withBare = usedMemory(server);
                double barePerMessage = (withBare - withBacklog) / (double) size;
                server.cli("DEL", "bare-zset");
                Map<String, String> mem = server.info("memory");
                memory.add(String.format("| %,d | %,.0f | %.1f | %.1f | %,.0f | %,.0f | %,.0f | %.2f / %.2f |", size,
                        fill.perSecond(), perMessage, barePerMessage, bare.perSecond(), withBacklog / 1048576.0,
                        Long.parseLong(mem.get("used_memory_rss")) / 1048576.0, loadBefore, load()));
                snapshots.add(snapshot(server, size));

                double loadRates = load();
                double cpuBefore = redisCpuSeconds(redis);
                Measures.progress("with the backlog in place: sending %,d more ...", s.measure());
                Rate sent = w.send(s.measure(), "extra");
                double cpuSent = redisCpuSeconds(redis);
                Measures.progress("with the backlog in place: popping and committing %,d ...", s.measure());
                Rate popped = w.consume(s.measure(), false);
                double cpuPopped = redisCpuSeconds(redis);
                rates.add(String.format("| %,d | %,d | %,.0f | %,.0f | %.1f / %.1f µs | %.2f / %.2f |", size,
                        s.measure(), sent.perSecond(), popped.perSecond(), (cpuSent - cpuBefore) * 1e6 / s.measure(),
                        (cpuPopped - cpuSent) * 1e6 / s.measure(), loadRates, load()));
            }
        }
        Console.say("");
        Console.say("Backlog on one Redis: messages of %d bytes, FIXED_TIME topic of %d slots (all due), filled through "
                + "the engine's producer (%d sends in flight)", s.payloadBytes(), s.slots(), s.window());
        Console.say("| backlog | filled /s | Redis bytes per message | bare sorted set bytes per member | bare ZADD /s "
                + "| used_memory with the backlog (MB) | used_memory_rss (MB) | load before / after |");
        Console.say("|---:|---:|---:|---:|---:|---:|---:|---|");
        memory.forEach(row -> Console.say("%s", row));
        Console.say("");
        Console.say("Snapshot of the backlog (BGSAVE: the size of a replica's full sync and of an AOF rewritten with "
                + "its RDB preamble)");
        Console.say("| backlog | RDB bytes | RDB bytes per message | fork | BGSAVE seconds | RDB load seconds | load |");
        Console.say("|---:|---:|---:|---:|---:|---:|---|");
        snapshots.forEach(row -> Console.say("%s", row));
        Console.say("");
        Console.say("Rates with the backlog in place (%d consumers, batch-size %d; pop+commit counts commits handed to "
                + "the engine, which sends them within a round trip)", s.consumers(), s.batchSize());
        Console.say("| backlog | messages | sent /s | popped and committed /s | Redis CPU per message (send / pop+commit) "
                + "| load before / after |");
        Console.say("|---:|---:|---:|---:|---|---|");
        rates.forEach(row -> Console.say("%s", row));
    }

    /**
     * The sum of {@code master_repl_offset} over the masters that have replicas: the bytes of
     * replication stream they produced (what their replicas receive, and about what an AOF appends).
     * -1 when no master has a replica (Redis then keeps no offset).
     */
    private static long replicationOffset(ScalingTarget redis) {
        long sum = -1;
        for (RedisProcess node : redis.nodes()) {
            Map<String, String> replication = node.info("replication");
            if ("master".equals(replication.get("role")) && !"0".equals(replication.get("connected_slaves"))) {
                sum = Math.max(sum, 0) + Long.parseLong(replication.get("master_repl_offset"));
            }
        }
        return sum;
    }

    /** CPU seconds (user and system) used so far by every process of {@code redis}, replicas included. */
    private static double redisCpuSeconds(ScalingTarget redis) {
        double sum = 0;
        for (RedisProcess node : redis.nodes()) {
            Map<String, String> cpu = node.info("cpu");
            sum += Double.parseDouble(cpu.get("used_cpu_user")) + Double.parseDouble(cpu.get("used_cpu_sys"));
        }
        return sum;
    }

    /** Writes an RDB of the server {@code server} and describes it as a table row. */
    private static String snapshot(RedisProcess server, int size) throws Exception {
        Measures.progress("BGSAVE of the backlog ...");
        long start = System.nanoTime();
        server.cli("BGSAVE");
        Map<String, String> persistence = server.info("persistence");
        while (!persistence.get("rdb_bgsave_in_progress").equals("0")) {
            Thread.sleep(20);
            persistence = server.info("persistence");
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        if (!persistence.get("rdb_last_bgsave_status").equals("ok")) {
            throw new IllegalStateException("BGSAVE failed on " + server + ": " + persistence);
        }
        long bytes = Files.size(server.directory().resolve("dump.rdb"));
        long forkMicros = Long.parseLong(server.info("stats").get("latest_fork_usec"));
        // what a restart costs: the server empties itself and loads the RDB just written
        Measures.progress("DEBUG RELOAD NOSAVE: loading the RDB again ...");
        long keys = Long.parseLong(server.cli("DBSIZE"));
        long reloadStart = System.nanoTime();
        String reloaded = server.cli("DEBUG", "RELOAD", "NOSAVE");
        double reloadSeconds = (System.nanoTime() - reloadStart) / 1e9;
        long keysAfter = Long.parseLong(server.cli("DBSIZE"));
        if (!reloaded.equals("OK") || keysAfter != keys) {
            throw new IllegalStateException("DEBUG RELOAD NOSAVE answered '" + reloaded + "', " + keysAfter + " keys of "
                    + keys + " after it");
        }
        return String.format("| %,d | %,d | %.1f | %.1f ms | %.1f | %.1f | %.2f |", size, bytes, bytes / (double) size,
                forkMicros / 1000.0, seconds, reloadSeconds, load());
    }

    private static long usedMemory(RedisProcess server) {
        return Long.parseLong(server.info("memory").get("used_memory"));
    }

    static double load() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}
