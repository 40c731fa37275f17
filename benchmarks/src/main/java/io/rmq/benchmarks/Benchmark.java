package io.rmq.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

import io.rmq.benchmarks.BenchResults.How;
import io.rmq.benchmarks.BenchResults.Phase;
import io.rmq.examples.support.Console;
import io.rmq.examples.support.ConsoleLogging;
import io.rmq.examples.support.ExampleRedis;

/**
 * The benchmark: throughput and scheduling accuracy of the {@code smallrye-redis-rmq} connector as an
 * application sees them, through SmallRye Reactive Messaging on Weld SE, beside a bare Lettuce client
 * on the same Redis, like compared with like. On each Redis server ({@code bench.redis}):
 *
 * <ol>
 * <li><b>Bare, search</b> ({@code best-bare=true}, after a warm-up of the bare client): its consume at each
 * {@code best-bare-consumers} x {@code best-bare-batch-sizes}, {@code best-bare-messages} each.</li>
 * <li><b>Bare, as tuned:</b> the same messages sent and consumed with a bare Lettuce client ({@link RawBaseline}):
 * single pipelined {@code ZADD}s at most {@code max-inflight} unanswered, then {@code consumers} threads
 * popping {@code batch-size} members per script call, on {@code slots} slots.</li>
 * <li><b>Send, tuned:</b> {@code messages} unique messages through an {@code Emitter}, at most
 * {@code max-inflight} unacknowledged; the time until Redis acknowledged the last one.</li>
 * <li><b>Consume, tuned:</b> the consumers ({@code consumers} copies of an {@code @Incoming} method, by
 * SmallRye's {@code concurrency} attribute) are held while the messages are sent, then released;
 * the time until every message's {@code ack()} completed, and until Redis's prepare queues were empty
 * (every commit arrived).</li>
 * <li><b>Lateness:</b> {@code lateness-messages} FIXED_TIME messages, due at random times spread over
 * {@code lateness-spread-ms} after a lead of {@code lateness-lead-ms}; delivery wall time minus due
 * time, as percentiles: once idle, once while another topic is sent and consumed at half the consume
 * rate just measured.</li>
 * <li><b>Bare, as defaults</b>, then <b>send and consume, defaults:</b> the bare client at the connector's
 * default consumers, batch size, window and slots; the channels configured with nothing but connector,
 * topic and type.</li>
 * <li><b>Bare, as the ordinary application</b>, then <b>send and consume, ordinary application:</b> the bare
 * client at {@code consumers} threads popping the default batch size on the default slots; the channels with
 * their defaults but {@code concurrency} set to {@code consumers}, the payloads {@code String}s.</li>
 * <li><b>Bare, multi-member ZADD:</b> the send with one {@code ZADD} per slot for every
 * {@value BarePhases#GROUPED_MEMBERS} messages of that slot.</li>
 * <li><b>Bare, extra</b> ({@code extra-bare-consumers} x {@code extra-bare-batch-size}, when set).</li>
 * <li><b>Bare, best of search</b> ({@code best-bare=true}): the search's fastest point measured in full,
 * unless a row above already has its settings.</li>
 * <li><b>Sweeps</b> ({@code sweep=true}): consume throughput of the connector and the bare client against
 * batch size and against the number of consumers, {@code sweep-messages} per point.</li>
 * </ol>
 * Each connector row is compared with the bare row at its own settings, and with the fastest bare row of the
 * run. Each channel configuration gets a container of its own and a warm-up first; before the first row the tuned
 * channels run in a container of their own, not measured, in rounds until {@value #JVM_WARMUP_SECONDS} s have
 * passed, so that the JVM has compiled the connector's code as in an application that has been up for a while (a
 * JVM warm-up); the bare client warms up as long. The figures are printed
 * and written to {@code out} as a Markdown table ({@value #RESULTS_FILE}) and PNG charts
 * ({@link BenchCharts}). Settings: see {@link BenchSettings}.
 *
 * <p>Run from the repository root:
 * {@code mvn -q -pl benchmarks -am verify -Pbench -DskipTests [-Dbench.messages=5000 ...]}.
 */
public final class Benchmark {

    static final String RESULTS_FILE = "bench-results.md";
    /**
     * The shortest JVM warm-up of each side, in seconds: with one round of {@code warmup} messages the first Redis of
     * a run measured both sides with 1.3 to 1.5 times the JVM CPU per consumed message of the second one (the same
     * code, compiled by then).
     */
    static final int JVM_WARMUP_SECONDS = 20;

    private Benchmark() {
    }

    public static void main(String[] args) throws Exception {
        // the charts are drawn without a display
        System.setProperty("java.awt.headless", "true");
        ConsoleLogging.install();
        BenchSettings settings = BenchSettings.from(args);
        List<BenchServer> servers = BenchServer.of(settings);
        List<String> setup = setup(settings);
        setup.forEach(l -> Console.say("%s", l));

        List<BenchResults> results = new ArrayList<>();
        for (BenchServer server : servers) {
            try (BenchServer.Running running = server.start()) {
                ExampleRedis redis = running.redis();
                String name = redis.version() + " (" + server.name() + ")";
                Measures.progress("Redis %s at %s", name, redis.displayUri());
                results.add(new ServerRun(settings, redis, new BenchResults(name)).execute());
            }
        }

        List<String> end = new ArrayList<>(setup);
        end.add(String.format("load average %.2f at the end (other processes on the machine compete for its cores)",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()));
        String markdown = BenchReport.markdown(end, results);
        Files.createDirectories(settings.out());
        Path table = settings.out().resolve(RESULTS_FILE);
        Files.writeString(table, markdown);
        List<Path> charts = BenchCharts.write(results, settings.out());
        Console.say("");
        Console.say("%s", markdown);
        Console.say("written: %s", table.toAbsolutePath());
        charts.forEach(c -> Console.say("written: %s", c.toAbsolutePath()));
    }

    /** The whole benchmark on one Redis server. */
    private record ServerRun(BenchSettings s, ExampleRedis redis, BenchResults results) {

        BenchResults execute() throws Exception {
            String keyPrefix = "rmq-bench-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss")) + ":";
            ConnectorPhases phases = new ConnectorPhases(s, redis, keyPrefix);
            BarePhases bare = new BarePhases(s, redis, results);
            try (RawBaseline raw = new RawBaseline(redis.uri(), keyPrefix, BenchChannels.BASELINE_TOPIC, s.slots());
                    RawBaseline rawDefaults = new RawBaseline(redis.uri(), keyPrefix, BenchChannels.BASELINE_DEFAULTS_TOPIC,
                            BenchChannels.DEFAULT_SLOTS)) {
                bare.warmUp(raw, s.consumers(), s.batchSize(), s.maxInflight());
                // the search first: no full bare row then runs on a JIT less warm than the others
                Optional<BenchResults.SearchPoint> searched = s.bestBare() ? bare.search(raw) : Optional.empty();
                warmUpJvm(phases, keyPrefix);
                // each connector row right after the bare client's row at its own settings
                bare.row(raw, How.BARE_AS_TUNED, s.consumers(), s.batchSize(), s.maxInflight());
                tuned(phases, keyPrefix, bare, raw);
                bare.row(rawDefaults, How.BARE_AS_DEFAULTS, BenchChannels.DEFAULT_CONSUMERS, BenchChannels.DEFAULT_BATCH_SIZE,
                        BenchChannels.DEFAULT_MAX_INFLIGHT);
                defaults(phases, keyPrefix);
                bare.row(rawDefaults, How.BARE_AS_ORDINARY, s.consumers(), BenchChannels.DEFAULT_BATCH_SIZE,
                        BenchChannels.DEFAULT_MAX_INFLIGHT);
                ordinary(phases, keyPrefix, bare, rawDefaults);
                bare.groupedSend(raw, s.consumers(), s.batchSize());
                if (s.extraBare()) {
                    bare.row(raw, How.BARE_EXTRA, s.extraBareConsumers(), s.extraBareBatchSize(), s.maxInflight());
                }
                if (searched.isPresent()) {
                    bestBare(bare, raw, searched.get());
                }
                if (s.sweep()) {
                    sweep(raw, phases, keyPrefix);
                }
                return results;
            } finally {
                if (!redis.isEmbedded()) {
                    redis.deleteKeysContaining(keyPrefix);
                }
            }
        }

        /** The best point of the bare client's search measured in full, unless a full row already has its settings. */
        private void bestBare(BarePhases bare, RawBaseline raw, BenchResults.SearchPoint best) throws InterruptedException {
            boolean measured = best.consumers() == s.consumers() && best.batch() == s.batchSize()
                    || s.extraBare() && best.consumers() == s.extraBareConsumers() && best.batch() == s.extraBareBatchSize();
            if (measured) {
                Measures.progress("bare Lettuce search: %d threads popping %d were fastest, already measured in full",
                        best.consumers(), best.batch());
            } else {
                bare.row(raw, How.BARE_SEARCHED, best.consumers(), best.batch(), s.maxInflight());
            }
        }

        /**
         * The tuned channels in a container of their own, warmed up and closed, not measured: the first container of
         * the JVM compiles the connector's code while it runs (its consume row came out 15-25 % below the same
         * channels' measured again later in the same JVM, with 1.5 times the JVM CPU per message), so every measured
         * row runs on code compiled as in an application that has been up for a while. Then one idle lateness round,
         * not measured either: the scheduled path (sleeping consumers woken by notices, sparse pops, sends with a
         * delivery time) is code the throughput rounds never run: in the first lateness round of a JVM, the messages
         * due in its first 100 ms came out with a median lateness of 25 ms, against 2 ms in the round after it.
         */
        private void warmUpJvm(ConnectorPhases phases, String keyPrefix) throws Exception {
            if (s.warmup() == 0) {
                return;
            }
            Measures.progress("JVM warm-up: the tuned channels in a container of their own, not measured, for at least"
                    + " %d s, then one lateness round", JVM_WARMUP_SECONDS);
            try (BenchContainer c = BenchContainer.start(BenchChannels.tuned(s, redis.uri(), keyPrefix))) {
                Measures.repeatFor(JVM_WARMUP_SECONDS,
                        round -> phases.warmUpSteady(c, BenchChannels.THROUGHPUT_TOPIC, s.slots(), s.warmup()));
                if (s.latenessMessages() > 0) {
                    phases.latenessIdle(c);
                }
            }
        }

        /**
         * The tuned channels: send, consume, both at once (then the bare client at once), lateness idle and at half
         * load; then the paired rounds (the bare client's consume at the same settings, then the channels', in each
         * round).
         */
        private void tuned(ConnectorPhases phases, String keyPrefix, BarePhases bare, RawBaseline raw) throws Exception {
            Measures.progress("connector, tuned channels: concurrency %d, batch-size %d, max-inflight %d, %d slots",
                    s.consumers(), s.batchSize(), s.maxInflight(), s.slots());
            try (BenchContainer c = BenchContainer.start(BenchChannels.tuned(s, redis.uri(), keyPrefix))) {
                phases.warmUp(c, BenchChannels.THROUGHPUT_TOPIC, s.slots(), s.warmup());
                ConnectorPhases.Throughput t = phases.sendThenConsume(c, BenchChannels.THROUGHPUT_TOPIC, s.slots(),
                        s.messages());
                String tunedSettings = String.format("concurrency %d, batch-size %d, max-inflight %d, %d slots",
                        s.consumers(), s.batchSize(), s.maxInflight(), s.slots());
                addThroughput(How.TUNED, tunedSettings, t);
                Counters.Phase atOnce = phases.sendAndConsumeAtOnce(c, BenchChannels.THROUGHPUT_TOPIC, s.slots(),
                        s.messages());
                results.add(Phase.AT_ONCE, How.TUNED, tunedSettings, atOnce);
                // the bare client at once right after, on the same machine state: single ZADDs as the tuned row's
                // bare send, then its fastest send (multi-member ZADDs)
                bare.atOnce(raw, How.BARE_AS_TUNED, false, s.consumers(), s.batchSize(), s.maxInflight());
                bare.atOnce(raw, How.BARE_GROUPED, true, s.consumers(), s.batchSize(), s.maxInflight());
                if (s.latenessMessages() > 0) {
                    results.lateness().add(phases.latenessIdle(c));
                    // half of what the machine carries sending and consuming at once: half the consume-only
                    // rate would ask the machine to send that much as well, more than it can
                    results.lateness().add(phases.latenessUnderLoad(c, atOnce.perSecond() / 2));
                }
                pairedRounds(How.TUNED, () -> bare.consumeRound(raw, s.consumers(), s.batchSize(), s.maxInflight()),
                        () -> phases.sendThenConsume(c, BenchChannels.THROUGHPUT_TOPIC, s.slots(), s.messages()));
            }
        }

        /**
         * The paired rounds of the channels {@code how}: in each, the bare client's consume at their settings and
         * theirs, one right after the other, the bare client first in odd rounds and the channels first in even ones
         * (a drift of the machine's speed during the rounds favours neither side).
         */
        private void pairedRounds(How how, BareRound bareRound, ConnectorRound connectorRound) throws Exception {
            for (int round = 1; round <= s.pairedRounds(); round++) {
                boolean bareFirst = round % 2 == 1;
                Counters.MachineTicks machine = Counters.MachineTicks.read();
                Measures.progress("paired round %d, %s", round, bareFirst ? "bare Lettuce first" : how.label + " first");
                double bareRate = bareFirst ? bareRound.consume() : 0;
                double connectorRate = connectorRound.sendThenConsume().committed().perSecond();
                double bareOfRound = bareFirst ? bareRate : bareRound.consume();
                results.paired().add(new BenchResults.PairedRound(how, bareOfRound, connectorRate,
                        Counters.MachineTicks.read().stealSince(machine)));
            }
        }

        /** The channels with nothing but connector, topic and type: send and consume. */
        private void defaults(ConnectorPhases phases, String keyPrefix) throws Exception {
            Measures.progress("connector, channels with their defaults (connector, topic and topic-type only)");
            try (BenchContainer c = BenchContainer.start(BenchChannels.defaults(s, redis.uri(), keyPrefix))) {
                phases.warmUp(c, BenchChannels.DEFAULTS_TOPIC, BenchChannels.DEFAULT_SLOTS, s.warmup());
                addThroughput(How.DEFAULTS, String.format("connector, topic, topic-type only (concurrency %d,"
                                + " batch-size %d, max-inflight %d, %d slots)", BenchChannels.DEFAULT_CONSUMERS,
                                BenchChannels.DEFAULT_BATCH_SIZE, BenchChannels.DEFAULT_MAX_INFLIGHT, BenchChannels.DEFAULT_SLOTS),
                        phases.sendThenConsume(c, BenchChannels.DEFAULTS_TOPIC, BenchChannels.DEFAULT_SLOTS, s.messages()));
            }
        }

        /**
         * The channels of an application written the ordinary way: send and consume; then their paired rounds against
         * the bare client at their consumers x batch ({@code rawDefaults}: the default slots).
         */
        private void ordinary(ConnectorPhases phases, String keyPrefix, BarePhases bare, RawBaseline rawDefaults)
                throws Exception {
            Measures.progress("connector, ordinary application (defaults, String payloads, concurrency %d)", s.consumers());
            try (BenchContainer c = BenchContainer.start(BenchChannels.ordinary(s, redis.uri(), keyPrefix))) {
                phases.warmUp(c, BenchChannels.ORDINARY_TOPIC, BenchChannels.DEFAULT_SLOTS, s.warmup());
                addThroughput(How.ORDINARY, String.format("defaults, String payloads, concurrency %d (batch-size %d,"
                                + " max-inflight %d, %d slots)", s.consumers(), BenchChannels.DEFAULT_BATCH_SIZE,
                                BenchChannels.DEFAULT_MAX_INFLIGHT, BenchChannels.DEFAULT_SLOTS),
                        phases.sendThenConsume(c, BenchChannels.ORDINARY_TOPIC, BenchChannels.DEFAULT_SLOTS, s.messages()));
                pairedRounds(How.ORDINARY, () -> bare.consumeRound(rawDefaults, s.consumers(),
                                BenchChannels.DEFAULT_BATCH_SIZE, BenchChannels.DEFAULT_MAX_INFLIGHT),
                        () -> phases.sendThenConsume(c, BenchChannels.ORDINARY_TOPIC, BenchChannels.DEFAULT_SLOTS,
                                s.messages()));
            }
        }

        private void addThroughput(How how, String settings, ConnectorPhases.Throughput t) {
            results.add(Phase.SEND, how, settings, t.send());
            results.add(Phase.CONSUME_ACKED, how, settings, t.acked());
            results.add(Phase.CONSUME, how, settings, t.committed());
        }

    /** Consume throughput against batch size, then against consumers: the connector's and the bare client's. */
        private void sweep(RawBaseline raw, ConnectorPhases phases, String keyPrefix) throws Exception {
            for (int batch : s.sweepBatchSizes()) {
                sweepPoint(raw, phases, keyPrefix, BenchResults.BATCH_AXIS, batch, batch, s.consumers());
            }
            for (int consumers : s.sweepConsumers()) {
                sweepPoint(raw, phases, keyPrefix, BenchResults.CONSUMERS_AXIS, consumers, s.batchSize(), consumers);
            }
        }

        private void sweepPoint(RawBaseline raw, ConnectorPhases phases, String keyPrefix, String axis, int value,
                int batch, int consumers) throws Exception {
            int count = s.sweepMessages();
            Measures.progress("sweep, %s %d: %,d messages, concurrency %d, batch-size %d", axis, value, count, consumers, batch);
            double connector;
            try (BenchContainer c = BenchContainer.start(BenchChannels.sweep(s, redis.uri(), keyPrefix, batch, consumers))) {
                phases.warmUp(c, BenchChannels.SWEEP_TOPIC, s.slots(), Math.min(s.warmup(), count / 4));
                connector = phases.sendThenConsume(c, BenchChannels.SWEEP_TOPIC, s.slots(), count).committed().perSecond();
            }
            raw.send(count, s.maxInflight(), i -> phases.payload("rwp-" + i + "-"));
            Counters start = Counters.take(redis);
            long consumed = raw.consume(consumers, batch);
            Counters end = Counters.take(redis);
            if (consumed != count) {
                throw new IllegalStateException("the bare client consumed " + consumed + " of " + count + " messages");
            }
            results.sweep().add(new BenchResults.SweepPoint(axis, value, connector, end.since(start, count).perSecond()));
        }
    }

    /** The bare client's consume of a paired round: messages per second. */
    @FunctionalInterface
    private interface BareRound {
        double consume() throws InterruptedException;
    }

    /** The channels' send, then consume, of a paired round. */
    @FunctionalInterface
    private interface ConnectorRound {
        ConnectorPhases.Throughput sendThenConsume() throws Exception;
    }

    private static List<String> setup(BenchSettings s) {
        Runtime rt = Runtime.getRuntime();
        List<String> lines = new ArrayList<>();
        lines.add(String.format("RMQ benchmark: the smallrye-redis-rmq connector through SmallRye Reactive Messaging %s"
                + " on Weld SE, beside a bare Lettuce client at the same settings", version("io.smallrye.reactive", "smallrye-reactive-messaging-provider")));
        lines.add(String.format("machine: %d cores (%s), %s %s, Java %s, JVM max heap %d MB, load average %.2f at start",
                rt.availableProcessors(), cpuModel(), System.getProperty("os.name"), System.getProperty("os.version"),
                System.getProperty("java.version"), rt.maxMemory() >> 20,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()));
        lines.add(String.format("settings: %,d messages of %d bytes (+ %,d warm-up) to a %s topic of %d slots; tuned: %d"
                        + " consumers (concurrency), batch-size %d, max-inflight %d; bare client: at each connector row's"
                        + " settings%s; best bare: %s; lateness: %,d messages due over %d ms after %d ms; Redis: %s; sweep: %s;"
                        + " tracing: %s",
                s.messages(), s.payloadBytes(), s.warmup(), s.topicType(), s.slots(), s.consumers(), s.batchSize(),
                s.maxInflight(), s.extraBare() ? String.format(", and %d threads popping %d (extra)", s.extraBareConsumers(),
                        s.extraBareBatchSize()) : "",
                s.bestBare() ? String.format("search of %,d messages per point, consumers %s x batch sizes %s",
                        s.bestBareMessages(), Arrays.toString(s.bestBareConsumers()), Arrays.toString(s.bestBareBatchSizes()))
                        : "the fastest bare row",
                s.latenessMessages(), s.latenessSpreadMs(), s.latenessLeadMs(),
                s.redisUri().isPresent() ? "given by URI" : s.redis(),
                s.sweep() ? String.format("%,d messages per point, batch sizes %s, consumers %s", s.sweepMessages(),
                        Arrays.toString(s.sweepBatchSizes()), Arrays.toString(s.sweepConsumers())) : "off",
                s.tracing() ? "on (OpenTelemetry SDK, every span sampled, spans dropped)" : "off"));
        return lines;
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
