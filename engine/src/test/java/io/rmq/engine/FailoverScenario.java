package io.rmq.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.produce.DurableStream;
import io.rmq.engine.produce.ProducerOptions;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.scripts.SendResult;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;

/**
 * A master killed with {@code SIGKILL} in the middle of a stream: a backlog of messages is being consumed while
 * two producers keep sending, one without durability (one send in flight) and one with {@code replicas:1}
 * ({@link DurableStream}), when the master dies and its replica takes over. Every send that was acked and every
 * delivery are counted; {@link #run} returns once the topic is drained (nothing pending, nothing in a prepare
 * queue), with what was lost, the duplicates and the time from the kill to the drain.
 *
 * <p>What it asserts is what Redis promises. A durable send is acked only once the replica has it, so none is
 * lost. A send without durability is acked once the master has stored it, and Redis replicates asynchronously:
 * the master hands a write to its replica's stream in the same event-loop iteration in which it replies, and
 * the replica receives it within its replication lag, so a {@code SIGKILL} loses the writes acked within that
 * lag before the kill, and nothing older. Redis tracks a replica's lag at the granularity of its acknowledgement
 * every second ({@code REPLCONF ACK}; {@code lag} in {@code INFO replication}); on loopback the replica is usually
 * about a millisecond behind. So every lost send must have been sent before the master
 * was dead and acked at most {@link #LAG_WINDOW} before the kill: with one send in flight, that bounds the
 * loss by the sends acked in that window, and a send acked earlier (the backlog, say) or by the new master
 * that was lost is a failure of the engine, not of replication. The master is killed more than that window
 * after the backlog was acked, so the bound is the live sends of that window (113 to 1,126 in runs on the
 * project machine, of 11,000 to 17,000 acked; on a cluster it counts the sends to every master, though only
 * those to the killed one are at risk). The lost count is reported, not asserted 0: it was 0 in every run so
 * far.
 *
 * <p>The same body runs on a cluster and under Sentinel: only the URI and how the master is killed differ; the
 * master killed serves slot 0.
 */
final class FailoverScenario {

    /** How far before the kill a lost send without durability may have been acked: see the class comment. */
    static final Duration LAG_WINDOW = Duration.ofSeconds(1);
    private static final ProducerOptions ONE_REPLICA = ProducerOptions.builder().durableReplicas(1)
            .durabilityTimeout(Duration.ofSeconds(1)).build();

    /**
     * What one run measured.
     *
     * @param acked sends without durability acked (the backlog and the live ones)
     * @param lost of those, never delivered
     * @param ackedInLagWindow of those, acked within {@link #LAG_WINDOW} before the kill or during it
     * @param durable the durable sends: confirmed, not confirmed, lost
     */
    record Outcome(int acked, int failedSends, int lost, int ackedInLagWindow, DurableStream durable, int durableLost,
            long deliveries, int distinct, long drainMillis) {
        long duplicates() {
            return deliveries - distinct;
        }

        @Override
        public String toString() {
            return "acked sends " + acked + " (failed " + failedSends + "), acked and lost " + lost + " (acked within "
                    + LAG_WINDOW.toMillis() + " ms before the kill: " + ackedInLagWindow + "); durable sends "
                    + durable.confirmed.size() + " confirmed (not confirmed " + durable.failed.get()
                    + "), confirmed and lost " + durableLost + "; deliveries " + deliveries + ", distinct " + distinct
                    + ", duplicates " + duplicates() + ", drained " + drainMillis + " ms after the kill";
        }
    }

    /** When a send without durability was made and acked ({@link System#nanoTime()}); 0 while not acked. */
    private record Send(long sentAt, long ackedAt, int slot) {
    }

    private final String uri;
    private final int backlog;
    private final Duration drainTimeout;

    FailoverScenario(String uri, int backlog, Duration drainTimeout) {
        this.uri = uri;
        this.backlog = backlog;
        this.drainTimeout = drainTimeout;
    }

    /** @param kill kills the master of slot 0 (and returns once it is dead); called once a third of the backlog was delivered */
    Outcome run(Runnable kill) throws Exception {
        Map<String, Send> acked = new ConcurrentHashMap<>();
        Map<String, Boolean> delivered = new ConcurrentHashMap<>();
        AtomicLong deliveries = new AtomicLong();
        AtomicInteger failedSends = new AtomicInteger();
        try (RmqEngine engine = new RmqEngine(RedisAccess.of(uri)).start()) {
            engine.ready().toCompletableFuture().get(30, TimeUnit.SECONDS);
            TopicKeys keys = engine.registerTopic(new TopicDefinition("failover", 16, TopicType.PRIORITY))
                    .toCompletableFuture().join();
            TopicProducer producer = engine.producer(keys);
            List<CompletableFuture<SendResult>> sends = new ArrayList<>();
            for (int i = 0; i < backlog; i++) {
                sends.add(send(producer, "backlog-" + i, 1, acked, failedSends));
            }
            CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).join();
            long backlogAckedAt = System.nanoTime();

            AtomicBoolean sending = new AtomicBoolean(true);
            AtomicLong killedAt = new AtomicLong(Long.MAX_VALUE);
            AtomicLong deadAt = new AtomicLong(Long.MAX_VALUE);
            Thread live = new Thread(() -> {
                for (int i = 0; sending.get(); i++) {
                    try {
                        send(producer, "live-" + i, 2, acked, failedSends).join();
                    } catch (RuntimeException e) {
                        // paces a producer whose sends fail at once while the master is gone (not a wait for an
                        // event): spinning would take the CPU from the servers that are failing over
                        java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
                    }
                }
            }, "failover-producer");
            live.start();
            DurableStream durable = new DurableStream(engine.producer(keys, ONE_REPLICA), "durable-");
            await("durable sends confirmed before the kill").atMost(drainTimeout)
                    .until(() -> durable.confirmed.size() >= 1_000);

            ConsumerOptions options = ConsumerOptions.builder().retryBackoff(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(500)).shutdownTimeout(Duration.ofMillis(500)).build();
            try (TopicConsumer consumer = engine.consumer(keys, options, "failover-consumer")) {
                consumer.start(d -> {
                    deliveries.incrementAndGet();
                    delivered.put(new String(d.content(), StandardCharsets.UTF_8), Boolean.TRUE);
                    d.commit();
                    consumer.request(1);
                });
                consumer.request(256);
                // the backlog acked more than the lag window before the kill: only the live sends may be lost
                await().atMost(drainTimeout).until(() -> delivered.keySet().stream()
                        .filter(c -> c.startsWith("backlog-")).count() >= backlog / 3
                        && System.nanoTime() - backlogAckedAt > LAG_WINDOW.toNanos());

                killedAt.set(System.nanoTime());
                kill.run();
                deadAt.set(System.nanoTime());
                // keep sending through the failover, until the slot of the killed master takes sends again
                await("slot 0 takes sends again").atMost(drainTimeout).until(() -> acked.values().stream()
                        .anyMatch(s -> s.slot() == 0 && s.sentAt() > deadAt.get())
                        && System.nanoTime() - killedAt.get() > Duration.ofSeconds(5).toNanos());
                sending.set(false);
                live.join();
                durable.stop();

                // drained: nothing pending and nothing in a prepare queue; a commit lost in the failover leaves its
                // messages there until they are committed again or redelivered after the prepare timeout. What
                // was acked and is not delivered by then was lost.
                try (RmqAdmin admin = RmqAdmin.connect(uri)) {
                    await("the topic drained").atMost(drainTimeout).pollInterval(Duration.ofMillis(200))
                            .ignoreExceptions().until(() -> admin.stats(keys.topic()).slots().stream()
                                    .allMatch(slot -> slot.pending() == 0 && slot.inFlight() == 0));
                }
                long drained = Duration.ofNanos(System.nanoTime() - killedAt.get()).toMillis();

                List<String> durableLost = durable.confirmed.stream().filter(c -> !delivered.containsKey(c)).sorted()
                        .toList();
                List<String> lost = acked.keySet().stream().filter(c -> !delivered.containsKey(c)).sorted().toList();
                long windowFrom = killedAt.get() - LAG_WINDOW.toNanos();
                int inWindow = (int) acked.values().stream()
                        .filter(s -> s.ackedAt() >= windowFrom && s.sentAt() < deadAt.get()).count();
                Outcome outcome = new Outcome(acked.size(), failedSends.get(), lost.size(), inWindow, durable,
                        durableLost.size(), deliveries.get(), delivered.size(), drained);

                assertThat(durableLost).as("durable sends confirmed and lost; " + outcome).isEmpty();
                // the only sends Redis may lose: made before the master was dead, and acked within the lag window
                List<String> lostOutsideWindow = lost.stream().filter(c -> acked.get(c).ackedAt() < windowFrom
                        || acked.get(c).sentAt() >= deadAt.get()).map(c -> c + " (acked " + Duration.ofNanos(
                                killedAt.get() - acked.get(c).ackedAt()).toMillis() + " ms before the kill)").toList();
                assertThat(lostOutsideWindow).as("acked sends lost that the master had acked more than "
                        + LAG_WINDOW.toMillis() + " ms before the kill, or that it never saw; " + outcome).isEmpty();
                assertThat(lost.size()).as("acked sends lost; " + outcome).isLessThanOrEqualTo(inWindow);
                return outcome;
            }
        }
    }

    /** Sends, recording the send as acked (when and to which slot) or counting it as failed. */
    private static CompletableFuture<SendResult> send(TopicProducer producer, String content, double priority,
            Map<String, Send> acked, AtomicInteger failed) {
        long sentAt = System.nanoTime();
        return producer.sendWithPriority(content.getBytes(StandardCharsets.UTF_8), priority, null).toCompletableFuture()
                .whenComplete((r, f) -> {
                    if (f == null && r != null) {
                        acked.put(content, new Send(sentAt, System.nanoTime(), r.slot()));
                    } else {
                        failed.incrementAndGet();
                    }
                });
    }
}
