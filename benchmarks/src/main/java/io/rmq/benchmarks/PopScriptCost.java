package io.rmq.benchmarks;

import static io.rmq.benchmarks.ScriptCosts.quartiles;
import static io.rmq.benchmarks.ScriptCosts.utf8;
import static io.rmq.benchmarks.ScriptCosts.zaddAll;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.rmq.engine.redis.RedisScript;
import io.rmq.examples.support.ExampleRedis;

/**
 * What consuming a message costs Redis, script by script: this build's pop ({@code pop.lua}) and plain commit (a
 * {@code ZREM}, then {@code committed.lua}), the bare client's ({@code raw-pop.lua}, then a {@code ZREM}) and,
 * optionally, another version of {@code pop.lua}, in alternating rounds on one Redis. Each round fills a slot with
 * 5,120 FIXED_TIME members of 100 bytes due long ago, in runs of equal due times (messages sent in the same
 * millisecond) of a given length, beside 512 members of other consumers in flight in the prepare queue, pops them all
 * 128 a call (pipelined), then commits them 128 a call. The calls of a round run within a millisecond or two; each
 * has a prepare timeout a millisecond longer than the call before, so that no two give their members the same
 * deadline: a pop whose deadline a member in flight already has looks its candidates up first ({@code pop.lua}),
 * which one to eleven pops in a hundred did in the benchmark's consume phases, and half of them would here. The
 * figures are {@code INFO commandstats}' time of the client's calls ({@code EVALSHA}, which includes the commands a
 * script runs, and {@code ZREM}) and Redis's process CPU time, per consumed message; the median and quartiles over the
 * rounds are printed per run length.
 *
 * <pre>
 * mvn -q -pl benchmarks -am verify -Ppop-cost -DskipTests
 * git show &lt;rev&gt;:engine/src/main/resources/io/rmq/engine/scripts/pop.lua &gt; /tmp/pop-before.lua
 * mvn -q -pl benchmarks -am verify -Ppop-cost -DskipTests -Dpop-cost.before=/tmp/pop-before.lua
 * </pre>
 *
 * Settings (system properties): {@code pop-cost.before} (optional: another {@code pop.lua}), {@code pop-cost.before-lib}
 * (optional: a folder whose {@code lib/} holds the files that script includes; by default this build's),
 * {@code pop-cost.runs} (the run lengths, default {@code 1,8,14,32}), {@code pop-cost.rounds} (default 30),
 * {@code pop-cost.redis-uri} (default: a Redis started for the run, as {@code bench.redis=auto} chooses).
 */
public final class PopScriptCost {

    private static final Pattern STAT = Pattern.compile("cmdstat_(\\w+):calls=(\\d+),usec=(\\d+)");
    private static final Pattern CPU = Pattern.compile("used_cpu_(?:user|sys):([\\d.]+)");
    private static final int PER_CALL = 128;
    private static final int CALLS = 40;
    private static final int IN_FLIGHT = 512;
    private static final long PREPARE_TIMEOUT_MS = 30_000;
    private static final String BARE = "bare client";
    private static final String THIS_BUILD = "this build";

    private PopScriptCost() {
    }

    public static void main(String[] args) throws Exception {
        int[] runLengths = Arrays.stream(System.getProperty("pop-cost.runs", "1,8,14,32").split(","))
                .map(String::trim).mapToInt(Integer::parseInt).toArray();
        int rounds = Integer.getInteger("pop-cost.rounds", 30);
        Map<String, String> pops = new LinkedHashMap<>();
        pops.put(THIS_BUILD, RedisScript.expand("scripts/", "pop.lua"));
        if (rounds < 1 || Arrays.stream(runLengths).anyMatch(n -> n < 1)) {
            throw new IllegalArgumentException("pop-cost.rounds and every length in pop-cost.runs must be at least 1, not "
                    + rounds + " and " + Arrays.toString(runLengths));
        }
        String beforeFile = System.getProperty("pop-cost.before");
        if (beforeFile != null && !beforeFile.isBlank()) {
            if (!Files.isRegularFile(Path.of(beforeFile))) {
                throw new IllegalArgumentException("pop-cost.before names no file: " + beforeFile + " (for example git show"
                        + " <rev>:engine/src/main/resources/io/rmq/engine/scripts/pop.lua > /tmp/pop-before.lua)");
            }
            String source = Files.readString(Path.of(beforeFile));
            String lib = System.getProperty("pop-cost.before-lib");
            pops.put("before", lib == null || lib.isBlank() ? RedisScript.expandSource("scripts/", source)
                    : expandFrom(Path.of(lib), source));
        }
        pops.put(BARE, resource("raw-pop.lua"));

        try (ExampleRedis redis = ExampleRedis.startOrConnect(System.getProperty("pop-cost.redis-uri"))) {
            RedisClient client = RedisClient.create(redis.uri());
            try (StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE)) {
                System.out.printf("Consuming on Redis %s, µs per message: pop / commit (INFO commandstats) / Redis"
                        + " process CPU, median [p25, p75] of %d rounds of %d messages%n", redis.version(), rounds,
                        PER_CALL * CALLS);
                for (int runLength : runLengths) {
                    System.out.printf("  runs of %d equal due times:%n", runLength);
                    Map<String, List<double[]>> figures = measure(connection, pops, runLength, rounds);
                    figures.forEach((who, values) -> System.out.printf("    %-12s %s / %s / %s%n", who,
                            quartiles(column(values, 0)), quartiles(column(values, 1)),
                            quartiles(column(values, 2))));
                }
            } finally {
                client.shutdown();
            }
        }
    }

    private static Map<String, List<double[]>> measure(StatefulRedisConnection<byte[], byte[]> connection,
            Map<String, String> pops, int runLength, int rounds) throws Exception {
        RedisCommands<byte[], byte[]> sync = connection.sync();
        RedisAsyncCommands<byte[], byte[]> async = connection.async();
        sync.flushall();
        Map<String, String> popShas = new LinkedHashMap<>();
        pops.forEach((who, source) -> popShas.put(who, sync.scriptLoad(utf8(source))));
        String committedSha = sync.scriptLoad(utf8(RedisScript.expand("scripts/", "committed.lua")));
        String slot = "cost:t_0";
        byte[] store = utf8(slot);
        byte[][] popKeys = { store, key("prepare", slot), key("attempts", slot), key("origin", slot),
                key("owner", slot), key("paused", slot), key("counters", slot), key("expiry", slot),
                key("held-expiry", slot), key("dead", slot), key("failures", slot), key("trace", slot) };
        byte[] prepare = popKeys[1];
        byte[][] committedKeys = { store, prepare, popKeys[2], popKeys[4], popKeys[6], popKeys[11] };
        byte[][] popArgs = { utf8("FIXED_TIME"), utf8(Integer.toString(PER_CALL)), utf8(Long.toString(PREPARE_TIMEOUT_MS)),
                utf8("0"), utf8("cost"), utf8("0"), utf8("0") };
        byte[] wakeChannel = utf8("rmq:wake:cost:t");

        Map<String, List<double[]>> figures = new LinkedHashMap<>();
        popShas.keySet().forEach(who -> figures.put(who, new ArrayList<>()));
        List<String> order = new ArrayList<>(popShas.keySet());
        int messages = PER_CALL * CALLS;
        for (int round = 0; round < rounds; round++) {
            for (int i = 0; i < order.size(); i++) {
                String who = order.get((i + round) % order.size());
                long now = redisNow(sync);
                sync.del(popKeys);
                List<ScoredValue<byte[]>> members = new ArrayList<>(messages);
                for (int m = 0; m < messages; m++) {
                    members.add(ScoredValue.just(now - 10_000_000 + m / runLength,
                            utf8(String.format("run-%07d-%s", m, "x".repeat(88)))));
                }
                zaddAll(sync, store, members);
                List<ScoredValue<byte[]>> inFlight = new ArrayList<>(IN_FLIGHT);
                for (int m = 0; m < IN_FLIGHT; m++) {
                    inFlight.add(ScoredValue.just(now + 60_000, utf8(String.format("fly-%07d-%s", m, "x".repeat(88)))));
                }
                zaddAll(sync, prepare, inFlight);

                Snapshot start = Snapshot.of(sync);
                List<RedisFuture<Object>> replies = new ArrayList<>(CALLS);
                connection.setAutoFlushCommands(false);
                for (int call = 0; call < CALLS; call++) {
                    if (who.equals(BARE)) {
                        long at = now + 1;
                        replies.add(async.evalsha(popShas.get(who), ScriptOutputType.MULTI,
                                new byte[][] { store, prepare }, utf8(Long.toString(at)),
                                utf8(Long.toString(at + PREPARE_TIMEOUT_MS + call)), utf8(Integer.toString(PER_CALL))));
                    } else {
                        byte[][] args = popArgs.clone();
                        args[2] = utf8(Long.toString(PREPARE_TIMEOUT_MS + call));
                        replies.add(async.evalsha(popShas.get(who), ScriptOutputType.MULTI, popKeys, args));
                    }
                }
                connection.flushCommands();
                connection.setAutoFlushCommands(true);
                for (RedisFuture<Object> reply : replies) {
                    reply.get();
                }
                Snapshot popped = Snapshot.of(sync);
                if (sync.zcard(store) != 0 || sync.zcard(prepare) != IN_FLIGHT + messages) {
                    throw new IllegalStateException(who + " did not pop every member: " + sync.zcard(store)
                            + " left in the store queue");
                }

                List<RedisFuture<?>> commits = new ArrayList<>(2 * CALLS);
                connection.setAutoFlushCommands(false);
                for (int call = 0; call < CALLS; call++) {
                    byte[][] batch = new byte[PER_CALL][];
                    for (int m = 0; m < PER_CALL; m++) {
                        batch[m] = members.get(call * PER_CALL + m).getValue();
                    }
                    commits.add(async.zrem(prepare, batch));
                    if (!who.equals(BARE)) {
                        // the connector sends it once the ZREM has answered, with what it removed
                        commits.add(async.evalsha(committedSha, ScriptOutputType.INTEGER, committedKeys, wakeChannel,
                                utf8("0"), utf8(Integer.toString(PER_CALL))));
                    }
                }
                connection.flushCommands();
                connection.setAutoFlushCommands(true);
                for (RedisFuture<?> reply : commits) {
                    reply.get();
                }
                Snapshot committed = Snapshot.of(sync);
                if (sync.zcard(prepare) != IN_FLIGHT) {
                    throw new IllegalStateException(who + " did not commit every member");
                }
                figures.get(who).add(new double[] { popped.usec(start) / messages, committed.usec(popped) / messages,
                        committed.cpuMicros(start) / messages });
            }
        }
        return figures;
    }

    /** {@code INFO commandstats} and {@code INFO cpu} at one moment; the {@code INFO} calls themselves not counted. */
    private record Snapshot(long usec, double cpuSeconds) {

        static Snapshot of(RedisCommands<byte[], byte[]> sync) {
            String info = sync.info("commandstats") + sync.info("cpu");
            long usec = 0;
            Matcher stat = STAT.matcher(info);
            while (stat.find()) {
                // the client's own calls: a script's time includes the commands it runs, listed apart as well
                if (stat.group(1).equals("evalsha") || stat.group(1).equals("zrem")) {
                    usec += Long.parseLong(stat.group(3));
                }
            }
            double cpu = 0;
            Matcher time = CPU.matcher(info);
            while (time.find()) {
                cpu += Double.parseDouble(time.group(1));
            }
            return new Snapshot(usec, cpu);
        }

        double usec(Snapshot before) {
            return usec - before.usec;
        }

        double cpuMicros(Snapshot before) {
            return (cpuSeconds - before.cpuSeconds) * 1e6;
        }
    }

    private static long redisNow(RedisCommands<byte[], byte[]> sync) {
        List<byte[]> time = sync.time();
        return Long.parseLong(new String(time.get(0), StandardCharsets.US_ASCII)) * 1000
                + Long.parseLong(new String(time.get(1), StandardCharsets.US_ASCII)) / 1000;
    }

    /** {@code source} with each {@code -- #include lib/...} line replaced by that file under {@code root}. */
    private static String expandFrom(Path root, String source) {
        return RedisScript.expandSource(source, path -> {
            Path file = root.resolve(path);
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException("pop-cost.before-lib holds no " + path + ", which the script"
                        + " given by pop-cost.before includes: " + file);
            }
            try {
                return Files.readString(file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static double[] column(List<double[]> rows, int index) {
        return rows.stream().mapToDouble(row -> row[index]).toArray();
    }

    private static byte[] key(String name, String slot) {
        return utf8(name + "{" + slot + "}");
    }

    private static String resource(String name) {
        try (InputStream in = PopScriptCost.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
