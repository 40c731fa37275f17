package io.rmq.reliability;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.coordination.CoordinationOptions;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.topic.KeyLimits;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;

/**
 * What every scenario shares: the topic, consumer options with short timeouts, the history, a producer
 * engine, a plain Redis connection to watch the queues drain and to read the dead queues, and the
 * printing of the figures. Closes what it opened.
 */
final class Scenario implements AutoCloseable {

    static final int SLOTS = 16;
    /** Generous upper bound on a drain, never an expected duration. */
    static final Duration DRAIN = Duration.ofMinutes(FaultSizes.FULL ? 20 : 3);

    final String name;
    final TopicDefinition topic;
    final TopicKeys keys;
    final History history = new History();
    private final RmqEngine producerEngine;
    private final TopicProducer producer;
    private final AbstractRedisClient plainClient;
    private final StatefulConnection<byte[], byte[]> plainConnection;
    private final RedisClusterCommands<byte[], byte[]> plain;

    Scenario(String name, String redisUri) {
        this(name, redisUri, redisUri, false);
    }

    /** A scenario on the Redis Cluster that has a node at {@code redisUri}. */
    static Scenario onCluster(String name, String redisUri) {
        return new Scenario(name, redisUri, redisUri, true);
    }

    Scenario(String name, String producerUri, String directUri) {
        this(name, producerUri, directUri, false);
    }

    /**
     * @param producerUri where the producer connects (through a faulty proxy, for example)
     * @param directUri   where the scenario watches the queues, undisturbed
     */
    private Scenario(String name, String producerUri, String directUri, boolean cluster) {
        this.name = name;
        this.topic = new TopicDefinition("faults-" + name.replaceAll("[^A-Za-z0-9]", "-"), SLOTS, TopicType.FIXED_TIME);
        this.keys = new TopicKeys(topic);
        this.producerEngine = new RmqEngine(producerUri).start();
        producerEngine.registerTopic(topic).toCompletableFuture().join();
        this.producer = producerEngine.producer(keys);
        if (cluster) {
            RedisClusterClient client = RedisClusterClient.create(directUri);
            var connection = client.connect(ByteArrayCodec.INSTANCE);
            this.plainClient = client;
            this.plainConnection = connection;
            this.plain = connection.sync();
        } else {
            RedisClient client = RedisClient.create(directUri);
            var connection = client.connect(ByteArrayCodec.INSTANCE);
            this.plainClient = client;
            this.plainConnection = connection;
            this.plain = connection.sync();
        }
    }

    static ConsumerOptions.Builder consumerOptions(Duration prepareTimeout) {
        return ConsumerOptions.builder().batchSize(32).pollInterval(Duration.ofMillis(500)).prepareTimeout(prepareTimeout)
                .retryBackoff(Duration.ZERO).shutdownTimeout(Duration.ofSeconds(5));
    }

    static CoordinationOptions.Builder coordination(String zooKeeper) {
        return CoordinationOptions.builder(zooKeeper).sessionTimeout(Duration.ofMillis(3_000))
                .connectionTimeout(Duration.ofMillis(1_000)).rebalanceDelay(Duration.ofMillis(100));
    }

    /** From now on each message sent records its key for the consumers' limits per key (or not, with none). */
    void recordKeys(KeyLimits limits) {
        producer.updateKeyLimits(limits);
    }

    /** Starts sending {@code count} messages over {@code keyCount} keys at about {@code perSecond}. */
    Load send(int count, int keyCount, int perSecond) {
        return Load.start(producer, history, count, keyCount, perSecond);
    }

    /** Messages still in the store and prepare queues, and keys with messages held back by limits per key. */
    long backlog() {
        RedisClusterCommands<byte[], byte[]> redis = plain;
        long n = 0;
        for (int s = 0; s < SLOTS; s++) {
            n += redis.zcard(bytes(keys.slot(s).store())) + redis.zcard(bytes(keys.slot(s).prepare()))
                    + redis.zcard(bytes(keys.slot(s).parkedKeys()));
        }
        return n;
    }

    /**
     * Deliveries rolled back, as the topic's counters count them: failed ones and the ones the sweeper
     * rolled back at their prepare deadline.
     */
    long rolledBack() {
        RedisClusterCommands<byte[], byte[]> redis = plain;
        long n = 0;
        for (int s = 0; s < SLOTS; s++) {
            byte[] nacked = redis.hget(bytes(keys.slot(s).counters()), bytes("nacked"));
            n += nacked == null ? 0 : Long.parseLong(new String(nacked, StandardCharsets.US_ASCII));
        }
        return n;
    }

    /** Waits until the store and prepare queues are empty. */
    void awaitDrained() {
        await().atMost(DRAIN).pollInterval(Duration.ofMillis(200)).ignoreExceptions().until(() -> backlog() == 0);
    }

    /** Adds the messages in the dead queues to the history. */
    void collectDeadLetters() {
        RedisClusterCommands<byte[], byte[]> redis = plain;
        for (int s = 0; s < SLOTS; s++) {
            List<byte[]> dead = redis.zrange(bytes(keys.slot(s).dead()), 0, -1);
            dead.forEach(content -> history.deadLettered(Messages.parse(content)[0]));
        }
    }

    /** Collects the dead letters and loads the history files of child processes, then checks. */
    Verdict verdict(boolean checkOverlaps, Path... historyFiles) {
        collectDeadLetters();
        for (Path file : historyFiles) {
            if (Files.exists(file)) {
                HistoryLog.load(file, history);
            }
        }
        return HistoryChecker.check(history, checkOverlaps);
    }

    /** Prints the figures and appends the table row to {@code target/reliability-figures.md}. */
    void report(Verdict verdict, String faults, String recovery) {
        String row = verdict.tableRow(name + " (" + FaultSizes.run() + ")", faults, recovery);
        System.out.println("RELIABILITY " + name + " (" + FaultSizes.run() + " run): " + verdict.summary() + "; faults: "
                + faults + "; recovery: " + recovery);
        try {
            Path figures = Path.of("target", "reliability-figures.md");
            Files.createDirectories(figures.getParent());
            Files.writeString(figures, row + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String seconds(long millis) {
        return String.format(java.util.Locale.ROOT, "%.1f s", millis / 1000.0);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        plainConnection.close();
        plainClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        producerEngine.close();
    }
}
