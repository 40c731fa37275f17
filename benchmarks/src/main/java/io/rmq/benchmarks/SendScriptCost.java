package io.rmq.benchmarks;

import static io.rmq.benchmarks.ScriptCosts.quartiles;
import static io.rmq.benchmarks.ScriptCosts.utf8;
import static io.rmq.benchmarks.ScriptCosts.zaddAll;

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
import io.lettuce.core.codec.ByteArrayCodec;
import io.rmq.engine.redis.RedisScript;
import io.rmq.examples.support.ExampleRedis;

/**
 * Redis's time per sent message in {@code send.lua} alone, this build's script against another version of it, in
 * alternating rounds on one Redis: the slot as a benchmark's send phase leaves it (a backlog of 20,000 members due
 * long ago, 512 members in flight in the prepare queue), calls of new FIXED_TIME members of 100 bytes due at once,
 * pipelined 200 calls a round. The figure is {@code INFO commandstats}' time of {@code EVALSHA} (the script and the
 * commands it runs) per message; the median and quartiles over the rounds are printed per call size.
 *
 * <pre>
 * git show &lt;rev&gt;:engine/src/main/resources/io/rmq/engine/scripts/send.lua &gt; /tmp/send-before.lua
 * mvn -q -pl benchmarks -am verify -Psend-cost -DskipTests -Dsend-cost.before=/tmp/send-before.lua
 * </pre>
 *
 * Settings (system properties): {@code send-cost.before} (required: the other script, its {@code #include} lines
 * resolved against this build's {@code lib/}), {@code send-cost.per-call} (default {@code 16,40,128}),
 * {@code send-cost.rounds} (default 40), {@code send-cost.redis-uri} (default: a Redis started for the run, as
 * {@code bench.redis=auto} chooses).
 */
public final class SendScriptCost {

    private static final Pattern EVALSHA = Pattern.compile("cmdstat_evalsha:calls=(\\d+),usec=(\\d+)");
    private static final int CALLS_PER_ROUND = 200;
    private static final int BACKLOG = 20_000;
    private static final int IN_FLIGHT = 512;

    private SendScriptCost() {
    }

    public static void main(String[] args) throws Exception {
        String beforeFile = System.getProperty("send-cost.before");
        if (beforeFile == null || beforeFile.isBlank()) {
            throw new IllegalArgumentException("send-cost.before names the send.lua to compare with, e.g. "
                    + "git show <rev>:engine/src/main/resources/io/rmq/engine/scripts/send.lua > /tmp/send-before.lua");
        }
        int[] perCall = Arrays.stream(System.getProperty("send-cost.per-call", "16,40,128").split(","))
                .map(String::trim).mapToInt(Integer::parseInt).toArray();
        int rounds = Integer.getInteger("send-cost.rounds", 40);
        Map<String, String> sources = new LinkedHashMap<>();
        sources.put("before", RedisScript.expandSource("scripts/", Files.readString(Path.of(beforeFile))));
        sources.put("this build", RedisScript.expand("scripts/", "send.lua"));

        try (ExampleRedis redis = ExampleRedis.startOrConnect(System.getProperty("send-cost.redis-uri"))) {
            RedisClient client = RedisClient.create(redis.uri());
            try (StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE)) {
                RedisAsyncCommands<byte[], byte[]> async = connection.async();
                System.out.printf("send.lua alone on Redis %s: EVALSHA time per sent message, us (median [p25, p75]"
                        + " of %d rounds of %d calls each)%n", redis.version(), rounds, CALLS_PER_ROUND);
                for (int n : perCall) {
                    Map<String, List<Double>> perMessage = measure(connection, async, sources, n, rounds);
                    StringBuilder line = new StringBuilder(String.format("  %3d per call:", n));
                    perMessage.forEach((who, values) -> line.append(String.format("  %s %s", who,
                            quartiles(values.stream().mapToDouble(Double::doubleValue).toArray()))));
                    System.out.println(line);
                }
            } finally {
                client.shutdown();
            }
        }
    }

    private static Map<String, List<Double>> measure(StatefulRedisConnection<byte[], byte[]> connection,
            RedisAsyncCommands<byte[], byte[]> async, Map<String, String> sources, int perCall, int rounds)
            throws Exception {
        var sync = connection.sync();
        sync.flushall();
        Map<String, String> shas = new LinkedHashMap<>();
        sources.forEach((who, source) -> shas.put(who, sync.scriptLoad(utf8(source))));
        byte[] store = utf8("cost:t_0");
        byte[] prepare = utf8("prepare{cost:t_0}");
        byte[] counters = utf8("counters{cost:t_0}");
        long now = Long.parseLong(new String(sync.time().get(0), StandardCharsets.US_ASCII)) * 1000;
        List<ScoredValue<byte[]>> backlog = new ArrayList<>(BACKLOG);
        for (int i = 0; i < BACKLOG; i++) {
            backlog.add(ScoredValue.just(now - 10_000_000 + i, utf8(String.format("backlog-%08d-%s", i, "x".repeat(83)))));
        }
        zaddAll(sync, store, backlog);
        List<ScoredValue<byte[]>> inFlight = new ArrayList<>(IN_FLIGHT);
        for (int i = 0; i < IN_FLIGHT; i++) {
            inFlight.add(ScoredValue.just(now + 60_000, utf8(String.format("flight-%08d-%s", i, "x".repeat(84)))));
        }
        zaddAll(sync, prepare, inFlight);
        byte[][] keys = { store, prepare, counters };
        Map<String, List<Double>> perMessage = new LinkedHashMap<>();
        sources.keySet().forEach(who -> perMessage.put(who, new ArrayList<>()));
        List<String> order = new ArrayList<>(sources.keySet());
        long sequence = 0;
        for (int round = 0; round < rounds; round++) {
            for (int i = 0; i < order.size(); i++) {
                String who = order.get((i + round) % order.size());
                long[] before = evalsha(sync.info("commandstats"));
                List<RedisFuture<Object>> replies = new ArrayList<>(CALLS_PER_ROUND);
                connection.setAutoFlushCommands(false);
                for (int call = 0; call < CALLS_PER_ROUND; call++) {
                    byte[] due = utf8(Long.toString(System.currentTimeMillis()));
                    byte[][] argv = new byte[3 + 2 * perCall][];
                    argv[0] = utf8("FIXED_TIME");
                    argv[1] = utf8("rmq:wake:cost:t");
                    argv[2] = utf8("0");
                    for (int m = 0; m < perCall; m++) {
                        argv[3 + 2 * m] = due;
                        argv[4 + 2 * m] = utf8(String.format("m-%010d-%s", ++sequence, "y".repeat(87)));
                    }
                    replies.add(async.evalsha(shas.get(who), ScriptOutputType.MULTI,
                            keys, argv));
                }
                connection.flushCommands();
                connection.setAutoFlushCommands(true);
                for (RedisFuture<Object> reply : replies) {
                    reply.get();
                }
                long[] after = evalsha(sync.info("commandstats"));
                perMessage.get(who).add((after[1] - before[1]) / (double) ((after[0] - before[0]) * perCall));
                sync.zremrangebyrank(store, BACKLOG, -1); // back to the backlog alone, outside the measure
            }
        }
        return perMessage;
    }

    private static long[] evalsha(String commandStats) {
        Matcher m = EVALSHA.matcher(commandStats);
        if (!m.find()) {
            return new long[] { 0, 0 };
        }
        return new long[] { Long.parseLong(m.group(1)), Long.parseLong(m.group(2)) };
    }
}
