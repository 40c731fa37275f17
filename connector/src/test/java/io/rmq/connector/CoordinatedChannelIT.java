package io.rmq.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.engine.coordination.CoordinatedTopic;
import io.rmq.engine.coordination.SlotAssignment;
import io.rmq.engine.coordination.SlotAssignments;
import io.rmq.engine.coordination.WorkerInfo;
import io.rmq.engine.topic.SlotRouter;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.RedisTest;
import io.rmq.testing.RedisTestServer;
import io.rmq.testing.WeldApp;
import io.rmq.testing.ZooKeeperTest;
import io.rmq.testing.ZooKeeperTestServer;
import io.smallrye.reactive.messaging.annotations.Blocking;

/**
 * Serial consumption per slot basis through the connector: SmallRye Reactive Messaging on Weld SE,
 * two applications in this JVM (two Weld containers, each with its own connector, Redis client and
 * ZooKeeper session) consuming one topic with {@code zookeeper-connect} set and {@code concurrency=2},
 * and {@code @Blocking(ordered = false)} methods, so that each copy processes several messages at once
 * on worker threads. Whatever the threads, no two messages of one slot basis (nor of one slot) are
 * processed at the same time, every message is processed exactly once, and the slots are spread
 * over the copies of both applications.
 */
@RedisTest
@ZooKeeperTest
class CoordinatedChannelIT {

    private static final String RMQ = RedisRmqConnector.CONNECTOR_NAME;
    private static final int SLOTS = 16;
    private static final TopicDefinition TOPIC = new TopicDefinition("stock-changes", SLOTS, TopicType.FIXED_TIME);
    /** Generous upper bound of every wait, never an expected duration. */
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final long PROCESSING_MILLIS = 10;

    private static final Set<String> FIRST_COPIES = Set.of("first$1", "first$2");
    private static final Set<String> SECOND_COPIES = Set.of("second$1", "second$2");

    /** What the beans of both applications record; replaced before each test. */
    static volatile Processing processing = new Processing();

    private ZooKeeperTestServer zooKeeper;
    private String uri;
    private String root;
    private RedisClient plainClient;
    private StatefulRedisConnection<String, String> plain;
    private CuratorFramework reader;
    private final List<WeldApp> apps = new ArrayList<>();
    private final List<String> sent = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp(RedisTestServer redis, ZooKeeperTestServer zooKeeper, TestInfo test) {
        this.zooKeeper = zooKeeper;
        uri = redis.uri();
        // a coordination root per test: no worker or assignment of another test is seen
        root = "/rmq-" + test.getTestMethod().orElseThrow().getName();
        processing = new Processing();
        plainClient = RedisClient.create(uri);
        plain = plainClient.connect();
        reader = CuratorFrameworkFactory.newClient(zooKeeper.connectString(), 5_000, 2_000, new RetryOneTime(100));
        reader.start();
    }

    @AfterEach
    void tearDown() {
        for (int i = apps.size() - 1; i >= 0; i--) {
            apps.get(i).close();
        }
        reader.close();
        plain.close();
        plainClient.shutdown();
    }

    @Test
    void twoApplicationsWithTwoCopiesEachProcessEachSlotBasisSeriallyAndEverythingOnce() {
        WeldApp first = start(first());
        start(second());
        Map<Integer, String> copyOfSlot = awaitSlotsClaimedBy(union(FIRST_COPIES, SECOND_COPIES));

        List<String> bases = bases(3);
        for (int round = 0; round < 10; round++) {
            send(first, bases);
        }
        awaitEverythingProcessedAndSettled();

        assertSerialAndExactlyOnce();
        Processing p = processing;
        assertThat(p.copies()).as("the copies that processed messages")
                .containsExactlyInAnyOrderElementsOf(union(FIRST_COPIES, SECOND_COPIES));
        assertThat(p.countsByCopy().values()).allSatisfy(n -> assertThat(n).isPositive());
        // the assignment was stable while the messages were sent: each slot went to its owner only
        assertThat(p.copiesBySlot()).as("the copies that processed each slot").hasSize(SLOTS)
                .allSatisfy((slot, copies) -> assertThat(copies).containsExactly(copyOfSlot.get(slot)));
    }

    @Test
    void slotsMovingUnderLoadWhenTheSecondApplicationJoinsAndLeavesStaySerialAndLoseNothing() {
        WeldApp first = start(first());
        awaitSlotsClaimedBy(FIRST_COPIES);
        List<String> bases = bases(2);
        BackgroundSender sender = new BackgroundSender(first, bases);
        try {
            await().atMost(WAIT).until(() -> processing.processed() >= 100);

            // joining: half of the slots move from the first application's copies to the second's
            WeldApp second = start(second());
            await().atMost(WAIT).until(() -> processing.processedBy(SECOND_COPIES) >= 100);

            // leaving gracefully, while both are busy: its slots move back
            int firstBefore = processing.processedBy(FIRST_COPIES);
            second.close();
            awaitSlotsClaimedBy(FIRST_COPIES);
            await().atMost(WAIT).until(() -> processing.processedBy(FIRST_COPIES) >= firstBefore + 200);
        } finally {
            sender.stop();
        }
        awaitEverythingProcessedAndSettled();

        assertSerialAndExactlyOnce();
        assertThat(processing.copies()).containsExactlyInAnyOrderElementsOf(union(FIRST_COPIES, SECOND_COPIES));
    }

    // ---- the applications

    /** The first application: sends through "out", consumes through two copies of "first". */
    private WeldApp.Builder first() {
        return app(FirstApp.class, ConnectorBeans.Sender.class).incoming("first", RMQ, incoming())
                .outgoing("out", RMQ, "topic", TOPIC.name(), "topic-type", TOPIC.type().name(), "slot-amount", SLOTS);
    }

    /** The second application: consumes the same topic through two copies of "second". */
    private WeldApp.Builder second() {
        return app(SecondApp.class).incoming("second", RMQ, incoming());
    }

    private WeldApp.Builder app(Class<?>... beans) {
        return WeldApp.builder().beans(RedisRmqConnector.class).beans(beans)
                .config("mp.messaging.connector." + RMQ + ".redis-uri", uri);
    }

    private Object[] incoming() {
        return new Object[] { "topic", TOPIC.name(), "topic-type", TOPIC.type().name(), "slot-amount", SLOTS,
            "concurrency", 2, "batch-size", 4, "poll-interval", 500, "retry-backoff", 0,
            "prepare-timeout", 10_000, "shutdown-timeout", 5_000,
            "zookeeper-connect", zooKeeper.connectString(), "zookeeper-root", root,
            "zookeeper-session-timeout", 2_000, "zookeeper-connection-timeout", 2_000,
            "zookeeper-rebalance-delay", 100 };
    }

    private WeldApp start(WeldApp.Builder builder) {
        WeldApp app = builder.start();
        apps.add(app);
        return app;
    }

    @ApplicationScoped
    public static class FirstApp {
        @Incoming("first")
        @Blocking(ordered = false)
        public void consume(String payload, IncomingRmqMetadata metadata) throws InterruptedException {
            processing.process(payload, metadata);
        }
    }

    @ApplicationScoped
    public static class SecondApp {
        @Incoming("second")
        @Blocking(ordered = false)
        public void consume(String payload, IncomingRmqMetadata metadata) throws InterruptedException {
            processing.process(payload, metadata);
        }
    }

    /**
     * Records each processing, and counts the processings of each slot basis and slot in progress:
     * one that starts while another of its slot basis (or slot) is in progress is an overlap. A
     * processing ends before the method returns, so before SmallRye acks the message. Thread-safe.
     */
    static final class Processing {
        record Run(String payload, String basis, int slot, String copy, int attempt, long start, long end) {
        }

        private final Map<String, AtomicInteger> activeBases = new ConcurrentHashMap<>();
        private final Map<Integer, AtomicInteger> activeSlots = new ConcurrentHashMap<>();
        final List<String> basisOverlaps = new CopyOnWriteArrayList<>();
        final List<String> slotOverlaps = new CopyOnWriteArrayList<>();
        final Queue<Run> runs = new ConcurrentLinkedQueue<>();
        private final AtomicInteger processed = new AtomicInteger();
        private final Map<String, AtomicInteger> byCopy = new ConcurrentHashMap<>();

        void process(String payload, IncomingRmqMetadata metadata) throws InterruptedException {
            long start = System.nanoTime();
            String basis = basisOf(payload);
            int slot = metadata.getSlot();
            String copy = metadata.getChannel();
            AtomicInteger basisActive = activeBases.computeIfAbsent(basis, b -> new AtomicInteger());
            AtomicInteger slotActive = activeSlots.computeIfAbsent(slot, s -> new AtomicInteger());
            int sameBasis = basisActive.incrementAndGet();
            int sameSlot = slotActive.incrementAndGet();
            if (sameBasis > 1) {
                basisOverlaps.add(payload + " started in " + copy + " while " + (sameBasis - 1)
                        + " other message(s) of " + basis + " were being processed");
            }
            if (sameSlot > 1) {
                slotOverlaps.add(payload + " started in " + copy + " while " + (sameSlot - 1)
                        + " other message(s) of slot " + slot + " were being processed");
            }
            try {
                TimeUnit.MILLISECONDS.sleep(PROCESSING_MILLIS);
            } finally {
                slotActive.decrementAndGet();
                basisActive.decrementAndGet();
                runs.add(new Run(payload, basis, slot, copy, metadata.getAttempt(), start, System.nanoTime()));
                byCopy.computeIfAbsent(copy, c -> new AtomicInteger()).incrementAndGet();
                processed.incrementAndGet();
            }
        }

        int processed() {
            return processed.get();
        }

        int processedBy(Set<String> copies) {
            return copies.stream().mapToInt(c -> Optional.ofNullable(byCopy.get(c)).map(AtomicInteger::get).orElse(0))
                    .sum();
        }

        Set<String> copies() {
            return runs.stream().map(Run::copy).collect(Collectors.toSet());
        }

        Map<String, Long> countsByCopy() {
            return runs.stream().collect(Collectors.groupingBy(Run::copy, TreeMap::new, Collectors.counting()));
        }

        Map<Integer, Set<String>> copiesBySlot() {
            return runs.stream().collect(Collectors.groupingBy(Run::slot, TreeMap::new,
                    Collectors.mapping(Run::copy, Collectors.toCollection(TreeSet::new))));
        }

        /** Pairs of runs of one group whose intervals intersect, checked after the fact. */
        List<String> intersecting(Function<Run, Object> group) {
            List<String> found = new ArrayList<>();
            Map<Object, List<Run>> groups = runs.stream().collect(Collectors.groupingBy(group));
            for (var e : groups.entrySet()) {
                List<Run> sorted = new ArrayList<>(e.getValue());
                sorted.sort(Comparator.comparingLong(Run::start));
                for (int i = 1; i < sorted.size(); i++) {
                    Run before = sorted.get(i - 1);
                    Run after = sorted.get(i);
                    if (after.start() < before.end()) {
                        found.add(e.getKey() + ": " + after.payload() + " (" + after.copy() + ") started "
                                + (before.end() - after.start()) / 1_000 + " us before " + before.payload()
                                + " (" + before.copy() + ") ended");
                    }
                }
            }
            return found;
        }
    }

    static String basisOf(String payload) {
        return payload.substring(0, payload.indexOf('#'));
    }

    // ---- sending

    /** {@code perSlot} slot bases for each slot of the topic. */
    private static List<String> bases(int perSlot) {
        Map<Integer, List<String>> bySlot = new TreeMap<>();
        for (int i = 0; bySlot.values().stream().mapToInt(List::size).sum() < perSlot * SLOTS; i++) {
            String basis = "sku-" + i;
            List<String> of = bySlot.computeIfAbsent(SlotRouter.slotOf(basis.getBytes(StandardCharsets.UTF_8), SLOTS),
                    s -> new ArrayList<>());
            if (of.size() < perSlot) {
                of.add(basis);
            }
        }
        return bySlot.values().stream().flatMap(List::stream).toList();
    }

    /** Sends one message for each basis through the first application's emitter, and waits for the acks. */
    private void send(WeldApp app, List<String> bases) {
        ConnectorBeans.Sender sender = app.get(ConnectorBeans.Sender.class);
        List<CompletableFuture<Void>> acks = new ArrayList<>();
        for (String basis : bases) {
            String payload = basis + "#" + sent.size();
            sent.add(payload);
            acks.add(sender.send(payload, OutgoingRmqMetadata.builder().withSlotBasis(basis).build())
                    .toCompletableFuture());
        }
        CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS)
                .join();
    }

    /** Sends a round of one message per basis, then pauses, until stopped. */
    private final class BackgroundSender {
        private volatile boolean stopped;
        private final CompletableFuture<Void> done = new CompletableFuture<>();

        BackgroundSender(WeldApp app, List<String> bases) {
            Thread t = new Thread(() -> {
                try {
                    while (!stopped) {
                        send(app, bases);
                        TimeUnit.MILLISECONDS.sleep(50);
                    }
                    done.complete(null);
                } catch (Throwable e) {
                    done.completeExceptionally(e);
                }
            }, "test-sender");
            t.setDaemon(true);
            t.start();
        }

        void stop() {
            stopped = true;
            done.orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
        }
    }

    // ---- waiting and asserting

    /**
     * Waits until exactly the given copies are the topic's live workers, the leader has assigned every
     * slot among them, and each slot's owner has claimed it in Redis under its epoch (so that no other
     * worker can pop it any more); returns the copy owning each slot.
     */
    private Map<Integer, String> awaitSlotsClaimedBy(Set<String> copies) {
        return await("slots assigned to and claimed by " + copies).atMost(WAIT).pollInterval(Duration.ofMillis(50))
                .until(() -> claimedBy(copies), Optional::isPresent).orElseThrow();
    }

    private Optional<Map<Integer, String>> claimedBy(Set<String> copies) throws Exception {
        Map<String, String> copyOfWorker = new HashMap<>();
        for (WorkerInfo w : SlotAssignments.workers(reader, root, CoordinatedTopic.of(TOPIC))) {
            copyOfWorker.put(w.id(), w.consumer());
        }
        if (!new HashSet<>(copyOfWorker.values()).equals(copies) || copyOfWorker.size() != copies.size()) {
            return Optional.empty();
        }
        Optional<SlotAssignment> read = SlotAssignments.read(reader, root, CoordinatedTopic.of(TOPIC));
        if (read.isEmpty() || !read.get().slotsByWorker().keySet().equals(copyOfWorker.keySet())) {
            return Optional.empty();
        }
        SlotAssignment assignment = read.get();
        Map<Integer, String> copyOfSlot = new TreeMap<>();
        for (int slot = 0; slot < SLOTS; slot++) {
            Optional<String> owner = assignment.ownerOf(slot);
            Map<String, String> claim = redis().hgetall("owner{" + TOPIC.name() + "_" + slot + "}");
            if (owner.isEmpty() || !owner.get().equals(claim.get("worker"))
                    || !String.valueOf(assignment.epochOf(slot)).equals(claim.get("epoch"))) {
                return Optional.empty();
            }
            copyOfSlot.put(slot, copyOfWorker.get(owner.get()));
        }
        return Optional.of(copyOfSlot);
    }

    /** Waits until every message sent was processed and committed, and nothing is left in Redis. */
    private void awaitEverythingProcessedAndSettled() {
        await("every message processed").atMost(WAIT).pollInterval(Duration.ofMillis(50))
                .until(() -> processing.runs.stream().map(Processing.Run::payload).collect(Collectors.toSet())
                        .containsAll(sent));
        await("store and prepare queues empty").atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
            for (int slot = 0; slot < SLOTS; slot++) {
                String key = TOPIC.name() + "_" + slot;
                if (redis().zcard(key) + redis().zcard("prepare{" + key + "}") > 0) {
                    return false;
                }
            }
            return true;
        });
    }

    private void assertSerialAndExactlyOnce() {
        Processing p = processing;
        assertThat(p.basisOverlaps).as("messages of one slot basis processed at once").isEmpty();
        assertThat(p.slotOverlaps).as("messages of one slot processed at once").isEmpty();
        assertThat(p.intersecting(Processing.Run::basis)).as("intersecting processings of one slot basis").isEmpty();
        assertThat(p.intersecting(Processing.Run::slot)).as("intersecting processings of one slot").isEmpty();
        List<String> payloads = p.runs.stream().map(Processing.Run::payload).toList();
        assertThat(payloads).as("processed messages").hasSameSizeAs(sent).containsExactlyInAnyOrderElementsOf(sent);
        assertThat(p.runs).extracting(Processing.Run::attempt).containsOnly(1);
        for (int slot = 0; slot < SLOTS; slot++) {
            assertThat(redis().zcard("dead{" + TOPIC.name() + "_" + slot + "}")).isZero();
        }
    }

    private RedisCommands<String, String> redis() {
        return plain.sync();
    }

    private static Set<String> union(Collection<String> a, Collection<String> b) {
        Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return all;
    }
}
