package io.rmq.examples.bench;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;

import io.rmq.connector.OutgoingRmqMetadata;
import io.rmq.examples.support.Console;
import io.rmq.examples.support.ConsoleLogging;
import io.rmq.examples.support.ExampleConfig;
import io.rmq.examples.support.ExampleRedis;

/**
 * The benchmark: throughput and scheduling accuracy of the {@code smallrye-redis-rmq} connector as an
 * application sees them, through SmallRye Reactive Messaging on Weld SE.
 *
 * <ol>
 * <li><b>Send:</b> {@code messages} unique messages through an {@code Emitter}, at most
 * {@code max-inflight} unacknowledged; the time until Redis acknowledged the last one.</li>
 * <li><b>Consume:</b> the consumers ({@code consumers} copies of an {@code @Incoming} method, by
 * SmallRye's {@code concurrency} attribute) are held while the messages are sent, then released;
 * the time until every message's {@code ack()} completed, and until Redis's prepare queues were empty
 * (every commit arrived).</li>
 * <li><b>Lateness:</b> {@code lateness-messages} FIXED_TIME messages, due at random times spread over
 * {@code lateness-spread-ms} after a lead of {@code lateness-lead-ms}; delivery wall time minus due
 * time, as percentiles.</li>
 * </ol>
 * A warm-up of {@code warmup} messages sent and consumed comes first. Settings: see
 * {@link BenchSettings}; Redis: {@code bench.redis-uri} or {@code RMQ_REDIS_URI}, else an embedded one.
 *
 * <p>Run from the repository root:
 * {@code mvn -q -pl examples -am verify -Pbench -DskipTests [-Dbench.messages=5000 ...]}.
 */
public final class Benchmark {

    static final String PROGRAM = "bench";
    static final String THROUGHPUT_TOPIC = "bench.throughput";
    static final String LATENESS_TOPIC = "bench.lateness";

    private Benchmark() {
    }

    public static void main(String[] args) throws Exception {
        ConsoleLogging.install();
        BenchSettings settings = BenchSettings.from(args);
        // Leaves the demo's beans out of this container (see META-INF/beans.xml).
        System.setProperty("rmq.examples.program", PROGRAM);
        double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();

        try (ExampleRedis redis = ExampleRedis.startOrConnect(settings.redisUri().orElse(null))) {
            String keyPrefix = "rmq-bench-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss")) + ":";
            printSetup(settings, redis, loadBefore);
            try (ExampleConfig config = ExampleConfig.register(PROGRAM, channels(settings, redis.uri(), keyPrefix));
                    WeldContainer container = new Weld().initialize()) {
                new Run(settings, redis, keyPrefix, container.select(BenchSender.class).get(),
                        container.select(ThroughputConsumer.class).get(),
                        container.select(LatenessConsumer.class).get()).execute();
            } finally {
                if (!redis.isEmbedded()) {
                    redis.deleteKeysContaining(keyPrefix);
                }
            }
        }
    }

    /** The channels: one outgoing and one incoming per topic, configured from the settings. */
    static Map<String, String> channels(BenchSettings s, String redisUri, String keyPrefix) {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("mp.messaging.connector.smallrye-redis-rmq.redis-uri", redisUri);
        c.put("mp.messaging.connector.smallrye-redis-rmq.key-prefix", keyPrefix);
        c.put("mp.messaging.connector.smallrye-redis-rmq.slot-amount", Integer.toString(s.slots()));

        String out = "mp.messaging.outgoing.bench-out.";
        c.put(out + "connector", "smallrye-redis-rmq");
        c.put(out + "topic", THROUGHPUT_TOPIC);
        c.put(out + "topic-type", s.topicType());
        c.put(out + "max-inflight", Integer.toString(s.maxInflight()));
        // Defaults that make every message due at once, whatever the topic type.
        c.put(out + "priority", "0");
        c.put(out + "time-range", "1");
        String in = "mp.messaging.incoming.bench-in.";
        c.put(in + "connector", "smallrye-redis-rmq");
        c.put(in + "topic", THROUGHPUT_TOPIC);
        c.put(in + "topic-type", s.topicType());
        c.put(in + "batch-size", Integer.toString(s.batchSize()));
        c.put(in + "payload-type", "bytes");
        c.put(in + "concurrency", Integer.toString(s.consumers()));

        String lateOut = "mp.messaging.outgoing.lateness-out.";
        c.put(lateOut + "connector", "smallrye-redis-rmq");
        c.put(lateOut + "topic", LATENESS_TOPIC);
        c.put(lateOut + "topic-type", "FIXED_TIME");
        c.put(lateOut + "max-inflight", Integer.toString(s.maxInflight()));
        String lateIn = "mp.messaging.incoming.lateness-in.";
        c.put(lateIn + "connector", "smallrye-redis-rmq");
        c.put(lateIn + "topic", LATENESS_TOPIC);
        c.put(lateIn + "topic-type", "FIXED_TIME");
        c.put(lateIn + "batch-size", Integer.toString(s.batchSize()));
        c.put(lateIn + "payload-type", "bytes");
        c.put(lateIn + "concurrency", Integer.toString(s.consumers()));
        return c;
    }

    /** One benchmark run in a started container. */
    private record Run(BenchSettings s, ExampleRedis redis, String keyPrefix, BenchSender sender,
            ThroughputConsumer consumer, LatenessConsumer lateness) {

        void execute() throws Exception {
            if (s.warmup() > 0) {
                progress("warm-up: %,d messages sent and consumed ...", s.warmup());
                var warmedUp = consumer.whenAcked(s.warmup());
                check(sender.sendThroughput(s.warmup(), s.maxInflight(), i -> throughputMessage("warmup", i)));
                warmedUp.get(120, TimeUnit.SECONDS);
                awaitEmpty(THROUGHPUT_TOPIC, 60);
            }

            progress("sending %,d messages while the consumers are held ...", s.messages());
            consumer.pause();
            var allAcked = consumer.whenAcked(s.messages());
            Counters beforeSend = Counters.take(redis);
            BenchSender.Sent sent = check(sender.sendThroughput(s.messages(), s.maxInflight(),
                    i -> throughputMessage("run", i)));
            Counters afterSend = Counters.take(redis);
            long stored = queued(THROUGHPUT_TOPIC);
            if (stored != s.messages()) {
                Console.say("!! %,d messages are in Redis, %,d were sent", stored, s.messages());
            }

            progress("consuming them ...");
            Counters beforeConsume = Counters.take(redis);
            consumer.resume();
            long ackedAt = allAcked.get(120 + s.messages() / 1_000, TimeUnit.SECONDS);
            Counters afterAck = Counters.take(redis);
            awaitEmpty(THROUGHPUT_TOPIC, 60);
            Counters afterCommit = Counters.take(redis);
            Counters.Phase send = afterSend.since(beforeSend, sent.acked());
            Counters.Phase consume = afterCommit.since(beforeConsume, s.messages());
            double ackSeconds = (ackedAt - beforeConsume.nanos()) / 1e9;

            Lateness late = null;
            if (s.latenessMessages() > 0) {
                progress("lateness: %,d FIXED_TIME messages due from +%d to +%d ms ...", s.latenessMessages(),
                        s.latenessLeadMs(), s.latenessLeadMs() + s.latenessSpreadMs());
                late = measureLateness();
            }

            printResults(send, consume, ackSeconds, afterAck, beforeConsume, late);
        }

        private Message<byte[]> throughputMessage(String run, int i) {
            return Message.of(payload(run + "-" + i + "-"));
        }

        private byte[] payload(String head) {
            byte[] bytes = new byte[s.payloadBytes()];
            Arrays.fill(bytes, (byte) 'x');
            byte[] h = head.getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(h, 0, bytes, 0, Math.min(h.length, bytes.length));
            return bytes;
        }

        private Lateness measureLateness() throws Exception {
            int count = s.latenessMessages();
            var all = lateness.expect(count);
            SplittableRandom random = new SplittableRandom(42);
            long start = System.currentTimeMillis();
            long firstDue = start + s.latenessLeadMs();
            BenchSender.Sent sent = check(sender.sendLateness(count, s.maxInflight(), i -> {
                long due = firstDue + random.nextLong(s.latenessSpreadMs());
                return Message.of(payload("due-" + due + "-" + i + "-"))
                        .addMetadata(OutgoingRmqMetadata.builder().withDeliverAt(Instant.ofEpochMilli(due)).build());
            }));
            long sentBy = System.currentTimeMillis() - start;
            try {
                all.get(s.latenessLeadMs() + s.latenessSpreadMs() + 60_000, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                Console.say("!! not every message arrived");
            }
            return new Lateness(count, sent.nanos() / 1e9, sentBy, lateness.sortedLateness());
        }

        /** Waits until the topic's store and prepare queues are empty: every message consumed and committed. */
        private void awaitEmpty(String topic, int seconds) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (queued(topic) > 0 || inPrepare(topic) > 0) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("topic " + topic + " still holds " + queued(topic)
                            + " messages after " + seconds + " s");
                }
                Thread.sleep(2);
            }
        }

        /** Messages in the store and prepare queues of all slots. */
        private long queued(String topic) {
            long n = 0;
            for (int slot = 0; slot < s.slots(); slot++) {
                String store = keyPrefix + topic + "_" + slot;
                n += redis.commands().zcard(store);
            }
            return n + inPrepare(topic);
        }

        private long inPrepare(String topic) {
            long n = 0;
            for (int slot = 0; slot < s.slots(); slot++) {
                n += redis.commands().zcard("prepare{" + keyPrefix + topic + "_" + slot + "}");
            }
            return n;
        }

        private void printResults(Counters.Phase send, Counters.Phase consume, double ackSeconds, Counters afterAck,
                Counters beforeConsume, Lateness late) {
            Console.say("");
            Console.say("Results (load average %.2f at the end; other processes on the machine compete for its cores)",
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            Console.say("| phase | messages | seconds | messages/s | Redis commands/msg | script calls/msg | Redis CPU | JVM CPU |");
            Console.say("|---|---:|---:|---:|---:|---:|---:|---:|");
            row("send, acked by Redis", send.messages(), send.seconds(), send.perSecond(),
                    send.redisCommandsPerMessage(), send.scriptCallsPerMessage(), send.redisCpu(), send.jvmCpu());
            Counters.Phase acked = afterAck.since(beforeConsume, s.messages());
            row("consume, every ack() completed", s.messages(), ackSeconds, s.messages() / ackSeconds,
                    acked.redisCommandsPerMessage(), acked.scriptCallsPerMessage(), acked.redisCpu(), acked.jvmCpu());
            row("consume, every commit in Redis", consume.messages(), consume.seconds(), consume.perSecond(),
                    consume.redisCommandsPerMessage(), consume.scriptCallsPerMessage(), consume.redisCpu(),
                    consume.jvmCpu());
            if (late == null) {
                return;
            }
            Console.say("");
            Console.say("Lateness of %,d FIXED_TIME messages (delivered wall time - due time), due over %d ms:",
                    late.count(), s.latenessSpreadMs());
            long[] l = late.sorted();
            if (l.length == 0) {
                Console.say("  none delivered");
                return;
            }
            Console.say("| received | min | p50 | p90 | p99 | p99.9 | max |");
            Console.say("|---:|---:|---:|---:|---:|---:|---:|");
            Console.say("| %,d | %d ms | %d ms | %d ms | %d ms | %d ms | %d ms |", l.length, l[0], percentile(l, 50),
                    percentile(l, 90), percentile(l, 99), percentile(l, 99.9), l[l.length - 1]);
            Console.say("(sent in %d ms at %,.0f messages/s; the first was due after %d ms)", late.sentWithinMs(),
                    late.count() / late.sendSeconds(), s.latenessLeadMs());
            if (late.sentWithinMs() > s.latenessLeadMs()) {
                Console.say("!! sending took longer than the lead: some messages were due before they were sent;"
                        + " raise bench.lateness-lead-ms");
            }
        }

        private static void row(String phase, long messages, double seconds, double perSecond, double commands,
                double scripts, double redisCpu, double jvmCpu) {
            Console.say("| %s | %,d | %.2f | %,.0f | %.2f | %.3f | %.0f%% | %.0f%% |", phase, messages, seconds,
                    perSecond, commands, scripts, redisCpu * 100, jvmCpu * 100);
        }

        private static BenchSender.Sent check(BenchSender.Sent sent) {
            if (sent.failed() > 0) {
                throw new IllegalStateException(sent.failed() + " messages were refused", sent.firstFailure());
            }
            return sent;
        }
    }

    /** A progress line, with the time of day to match it with logs and profiles. */
    static void progress(String format, Object... args) {
        Console.say("%s %s", Console.time(System.currentTimeMillis()), String.format(format, args));
    }

    record Lateness(int count, double sendSeconds, long sentWithinMs, long[] sorted) {
    }

    /** The nearest-rank percentile of sorted values. */
    static long percentile(long[] sorted, double p) {
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private static void printSetup(BenchSettings s, ExampleRedis redis, double loadBefore) {
        Runtime rt = Runtime.getRuntime();
        Console.say("RMQ benchmark: the smallrye-redis-rmq connector through SmallRye Reactive Messaging %s on Weld SE",
                version("io.smallrye.reactive", "smallrye-reactive-messaging-provider"));
        Console.say("machine   %d cores (%s), %s %s, Java %s, JVM max heap %d MB, load average %.2f at start",
                rt.availableProcessors(), cpuModel(), System.getProperty("os.name"), System.getProperty("os.version"),
                System.getProperty("java.version"), rt.maxMemory() >> 20, loadBefore);
        Console.say("redis     %s %s at %s", redis.version(), redis.isEmbedded() ? "embedded" : "external", redis.displayUri());
        Console.say("settings  %,d messages of %d bytes (+ %,d warm-up) to a %s topic of %d slots; %d consumers "
                        + "(concurrency), batch-size %d, max-inflight %d; lateness: %,d messages",
                s.messages(), s.payloadBytes(), s.warmup(), s.topicType(), s.slots(), s.consumers(), s.batchSize(),
                s.maxInflight(), s.latenessMessages());
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).strip())
                    .findFirst().orElse(System.getProperty("os.arch"));
        } catch (IOException | RuntimeException e) {
            return System.getProperty("os.arch");
        }
    }

    private static String version(String groupId, String artifactId) {
        String resource = "META-INF/maven/" + groupId + "/" + artifactId + "/pom.properties";
        try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                return "(unknown version)";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "(unknown version)");
        } catch (IOException e) {
            return "(unknown version)";
        }
    }
}
