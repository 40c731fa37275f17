package io.rmq.engine.coordination;

import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;

import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;

/**
 * What the coordination tests share: a topic, consumer options with short timeouts, application
 * instances, a producer of keyed messages, the overlap detector and a ZooKeeper client to read the
 * assignment. Closes everything it made.
 */
final class CoordinationFixture implements AutoCloseable {

    /** Generous upper bounds, never expected durations. */
    static final Duration WAIT = Duration.ofSeconds(30);
    static final int SLOTS = 16;
    static final int SESSION_TIMEOUT_MS = 2_000;
    static final int PREPARE_TIMEOUT_MS = 3_000;
    /** The topic of every coordination test, in this JVM and in {@link SerialWorkerMain}'s. */
    static final TopicDefinition TOPIC = new TopicDefinition("serial", SLOTS, TopicType.FIXED_TIME);

    final String redisUri;
    final String zooKeeper;
    final String root;
    final TopicDefinition topic = TOPIC;
    final TopicKeys keys = new TopicKeys(TOPIC);
    final OverlapDetector detector;
    private final RmqEngine producerClient;
    private final TopicProducer producer;
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private CuratorFramework reader;
    private volatile int sent;

    CoordinationFixture(String redisUri, String zooKeeper) {
        this(redisUri, zooKeeper, CoordinationOptions.DEFAULT_ROOT);
    }

    CoordinationFixture(String redisUri, String zooKeeper, String root) {
        this(redisUri, redisUri, zooKeeper, root);
    }

    /**
     * @param detectorUri the Redis (not a cluster) where the {@link OverlapDetector} keeps its counts: the
     *                    queue's own, or the test server when the queue lives on a cluster
     */
    CoordinationFixture(String redisUri, String detectorUri, String zooKeeper, String root) {
        this.redisUri = redisUri;
        this.zooKeeper = zooKeeper;
        this.root = root;
        this.detector = new OverlapDetector(detectorUri);
        this.producerClient = new RmqEngine(redisUri).start();
        TopicKeys keys = producerClient.registerTopic(topic).toCompletableFuture().join();
        this.producer = producerClient.producer(keys);
    }

    /** The queue on the shared local Redis Cluster; the overlap detector keeps its counts on {@code redis}. */
    static CoordinationFixture onCluster(io.rmq.testing.RedisTestServer redis, io.rmq.testing.ZooKeeperTestServer zooKeeper) {
        return new CoordinationFixture(io.rmq.testing.RedisClusterTestServer.shared().uri(), redis.uri(),
                zooKeeper.connectString(), CoordinationOptions.DEFAULT_ROOT);
    }

    static CoordinationOptions.Builder coordination(String connect) {
        return CoordinationOptions.builder(connect).sessionTimeout(Duration.ofMillis(SESSION_TIMEOUT_MS))
                .connectionTimeout(Duration.ofMillis(1_000)).rebalanceDelay(Duration.ofMillis(100));
    }

    static ConsumerOptions.Builder options() {
        return ConsumerOptions.builder().batchSize(8).pollInterval(Duration.ofMillis(500))
                .prepareTimeout(Duration.ofMillis(PREPARE_TIMEOUT_MS)).retryBackoff(Duration.ZERO)
                .shutdownTimeout(Duration.ofSeconds(2));
    }

    ConsumerOptions coordinated() {
        return options().coordination(coordination(zooKeeper).root(root).build()).build();
    }

    /** A started instance with coordinated workers. */
    AppInstance instance(String name, int workers) {
        return instance(name, workers, coordinated());
    }

    AppInstance instance(String name, int workers, ConsumerOptions options) {
        AppInstance instance = new AppInstance(name, redisUri, detector, 4, 2);
        toClose.add(0, instance);
        return instance.start(topic, options, workers);
    }

    /** Sends {@code perKey} rounds of one message for each of {@code keys} slot bases, due at once. */
    synchronized void send(int keys, int perKey) {
        List<CompletableFuture<?>> sends = new ArrayList<>();
        for (int round = 0; round < perKey; round++) {
            for (int k = 0; k < keys; k++) {
                String key = "k" + k;
                String content = key + "#" + (sent++);
                sends.add(producer.sendAt(content.getBytes(StandardCharsets.UTF_8), Instant.now(), key)
                        .toCompletableFuture());
            }
        }
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).join();
    }

    /**
     * Sends rounds of {@code keys} messages in the background, one round every {@code pauseMillis},
     * until {@link Sending#stop()}; a test acts meanwhile (stops a worker, cuts ZooKeeper off, ...).
     */
    Sending sendContinuously(int keys, long pauseMillis) {
        Sending sending = new Sending();
        Thread t = new Thread(() -> {
            while (!sending.stopped) {
                send(keys, 1);
                sleep(pauseMillis);
            }
            sending.done.complete(null);
        }, "test-sender");
        t.setDaemon(true);
        t.start();
        return sending;
    }

    /** A background sender. */
    static final class Sending {
        private volatile boolean stopped;
        private final CompletableFuture<Void> done = new CompletableFuture<>();

        /** Stops after the current round and waits for it. */
        void stop() {
            stopped = true;
            done.orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
        }
    }

    /** Messages sent so far (all distinct). */
    int sent() {
        return sent;
    }

    void awaitAllProcessed() {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(100))
                .until(() -> detector.processed() == sent);
    }

    /** A ZooKeeper client of the test itself, to read what the coordination wrote. */
    CuratorFramework reader() {
        if (reader == null) {
            reader = CuratorFrameworkFactory.newClient(zooKeeper, 5_000, 2_000, new RetryOneTime(100));
            reader.start();
            toClose.add(reader);
        }
        return reader;
    }

    Optional<SlotAssignment> assignment() {
        try {
            return SlotAssignments.read(reader(), root, CoordinatedTopic.of(topic));
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    /** Waits until the assignment satisfies the condition, and returns it. */
    SlotAssignment awaitAssignment(String what, Predicate<SlotAssignment> condition) {
        return await(what).atMost(WAIT).pollInterval(Duration.ofMillis(50))
                .until(() -> assignment().filter(condition).orElse(null), a -> a != null);
    }

    /** Waits until exactly these workers own all slots, evenly. */
    SlotAssignment awaitOwners(List<String> workers) {
        return awaitAssignment("slots spread evenly over " + workers, a -> {
            var byWorker = a.slotsByWorker();
            if (!byWorker.keySet().equals(new java.util.HashSet<>(workers))) {
                return false;
            }
            int min = byWorker.values().stream().mapToInt(List::size).min().orElse(0);
            int max = byWorker.values().stream().mapToInt(List::size).max().orElse(0);
            return max - min <= 1 && byWorker.values().stream().mapToInt(List::size).sum() == SLOTS;
        });
    }

    /** Waits until every worker pops exactly the slots the assignment gives it. */
    static void awaitConsumersFollow(SlotAssignment assignment, List<AppInstance> instances) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> instances.stream()
                .flatMap(i -> i.consumers().stream())
                .allMatch(c -> c.workerId().isPresent() && java.util.Arrays.equals(c.assignedSlots(),
                        assignment.slotsOf(c.workerId().get()).keySet().stream().mapToInt(Integer::intValue).toArray())));
    }

    /** Messages waiting in the topic's store queues: sent and not popped. */
    long stored(RedisCommands<String, String> redis) {
        long n = 0;
        for (int slot = 0; slot < SLOTS; slot++) {
            n += redis.zcard(keys.slot(slot).store());
        }
        return n;
    }

    /** Messages in the topic's prepare queues: popped, and not committed or rolled back yet. */
    long popped(RedisCommands<String, String> redis) {
        long n = 0;
        for (int slot = 0; slot < SLOTS; slot++) {
            n += redis.zcard(keys.slot(slot).prepare());
        }
        return n;
    }

    /**
     * Waits until each slot's owner in {@code assignment} has claimed the slot in Redis under its epoch
     * (the pop script records both in the slot's owner hash, which fences the previous owner).
     */
    void awaitClaimed(SlotAssignment assignment, RedisCommands<String, String> redis) {
        await("every slot claimed in Redis by its owner in " + assignment.slotsByWorker()).atMost(WAIT)
                .pollInterval(Duration.ofMillis(50)).until(() -> {
                    for (int slot = 0; slot < SLOTS; slot++) {
                        Map<String, String> claim = redis.hgetall(keys.slot(slot).owner());
                        if (!assignment.ownerOf(slot).equals(Optional.ofNullable(claim.get("worker")))
                                || !String.valueOf(assignment.epochOf(slot)).equals(claim.get("epoch"))) {
                            return false;
                        }
                    }
                    return true;
                });
    }

    /** Paces the background sender. */
    private static void sleep(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        for (AutoCloseable c : toClose) {
            try {
                c.close();
            } catch (Exception e) {
                // best effort
            }
        }
        producerClient.close();
        detector.close();
    }
}
