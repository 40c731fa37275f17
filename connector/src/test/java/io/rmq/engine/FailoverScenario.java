package io.rmq.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A master killed with {@code SIGKILL} in the middle of a stream: a backlog of messages is being consumed and
 * a producer keeps sending while the master dies and its replica takes over. Every send that was acked and
 * every delivery are counted; {@link #run} returns once every acked message was delivered and the topic is
 * drained (nothing pending, nothing in a prepare queue), with the duplicates and the time from the kill to
 * the drain.
 *
 * <p>The same body runs on a cluster and under Sentinel: only the URI and how the master is killed differ.
 */
final class FailoverScenario {

    /** What one run measured. */
    record Outcome(int acked, int failedSends, long deliveries, int distinct, long drainMillis) {
        long duplicates() {
            return deliveries - distinct;
        }

        @Override
        public String toString() {
            return "acked sends " + acked + " (failed " + failedSends + "), deliveries " + deliveries + ", distinct "
                    + distinct + ", duplicates " + duplicates() + ", drained " + drainMillis + " ms after the kill";
        }
    }

    private final String uri;
    private final int backlog;
    private final Duration drainTimeout;

    FailoverScenario(String uri, int backlog, Duration drainTimeout) {
        this.uri = uri;
        this.backlog = backlog;
        this.drainTimeout = drainTimeout;
    }

    /** @param kill kills a master (and returns at once); called once a third of the backlog was delivered */
    Outcome run(Runnable kill) throws Exception {
        Set<String> acked = ConcurrentHashMap.newKeySet();
        Set<String> delivered = ConcurrentHashMap.newKeySet();
        AtomicLong deliveries = new AtomicLong();
        AtomicInteger failedSends = new AtomicInteger();
        try (RmqEngine engine = new RmqEngine(RedisAccess.of(uri)).start()) {
            engine.ready().toCompletableFuture().get(30, java.util.concurrent.TimeUnit.SECONDS);
            TopicKeys keys = engine.registerTopic(new TopicDefinition("failover", 16, TopicType.PRIORITY))
                    .toCompletableFuture().join();
            TopicProducer producer = engine.producer(keys);
            List<CompletableFuture<SendResult>> sends = new ArrayList<>();
            for (int i = 0; i < backlog; i++) {
                String content = "backlog-" + i;
                sends.add(producer.sendWithPriority(bytes(content), 1, null).toCompletableFuture()
                        .whenComplete((r, f) -> count(r, f, content, acked, failedSends)));
            }
            CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).join();

            ConsumerOptions options = ConsumerOptions.builder().retryBackoff(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(500)).shutdownTimeout(Duration.ofMillis(500)).build();
            try (TopicConsumer consumer = engine.consumer(keys, options, "failover-consumer")) {
                consumer.start(d -> {
                    deliveries.incrementAndGet();
                    delivered.add(new String(d.content(), StandardCharsets.UTF_8));
                    d.commit();
                    consumer.request(1);
                });
                consumer.request(256);
                await().atMost(drainTimeout).until(() -> delivered.size() >= backlog / 3);

                AtomicBoolean sending = new AtomicBoolean(true);
                Thread live = new Thread(() -> {
                    for (int i = 0; sending.get(); i++) {
                        String content = "live-" + i;
                        try {
                            SendResult r = producer.sendWithPriority(bytes(content), 2, null).toCompletableFuture().join();
                            count(r, null, content, acked, failedSends);
                        } catch (RuntimeException e) {
                            failedSends.incrementAndGet();
                            // paces a producer whose sends fail at once while the master is gone (not a wait for an
                            // event): spinning would take the CPU from the servers that are failing over
                            java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
                        }
                    }
                }, "failover-producer");
                live.start();
                long killedAt = System.nanoTime();
                kill.run();
                // keep sending through the failover, then stop and wait until every acked message came
                await().atMost(drainTimeout).until(() -> acked.stream().filter(c -> c.startsWith("live-")).count() > 200
                        && System.nanoTime() - killedAt > Duration.ofSeconds(5).toNanos());
                sending.set(false);
                live.join();
                try {
                    await("every acked message delivered").atMost(drainTimeout).until(() -> delivered.containsAll(acked));
                } catch (org.awaitility.core.ConditionTimeoutException e) {
                    List<String> missing = acked.stream().filter(c -> !delivered.contains(c)).sorted().toList();
                    throw new AssertionError(missing.size() + " acked message(s) never delivered, e.g. "
                            + missing.subList(0, Math.min(20, missing.size())) + "; " + new Outcome(acked.size(),
                                    failedSends.get(), deliveries.get(), delivered.size(), -1)
                            + "; still held by the consumer: " + consumer.heldCount() + "; in Redis: " + slots(keys), e);
                }
                // drained: nothing pending and nothing in a prepare queue; a commit lost in the failover leaves its
                // messages there until they are committed again or redelivered after the prepare timeout
                try (io.rmq.engine.admin.RmqAdmin admin = io.rmq.engine.admin.RmqAdmin.connect(uri)) {
                    await("the topic drained").atMost(drainTimeout).pollInterval(Duration.ofMillis(200))
                            .until(() -> admin.stats(keys.topic()).slots().stream()
                                    .allMatch(slot -> slot.pending() == 0 && slot.inFlight() == 0));
                }
                long drained = Duration.ofNanos(System.nanoTime() - killedAt).toMillis();
                assertThat(delivered).containsAll(acked);
                return new Outcome(acked.size(), failedSends.get(), deliveries.get(), delivered.size(), drained);
            }
        }
    }

    private String slots(TopicKeys keys) {
        try (io.rmq.engine.admin.RmqAdmin admin = io.rmq.engine.admin.RmqAdmin.connect(uri)) {
            return admin.stats(keys.topic()).slots().toString();
        } catch (RuntimeException e) {
            return "(not readable: " + e + ")";
        }
    }

    private static void count(SendResult r, Throwable f, String content, Set<String> acked, AtomicInteger failed) {
        if (f == null && r != null) {
            acked.add(content);
        } else {
            failed.incrementAndGet();
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
