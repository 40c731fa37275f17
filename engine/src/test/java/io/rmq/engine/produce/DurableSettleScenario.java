package io.rmq.engine.produce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.rmq.engine.RmqEngine;
import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.LogRecorder;

/**
 * Durable sends at a steady rate through a master kill: one send every 2 ms (500 per second) with
 * {@code replicas:1} and a durability timeout of 1 s, the master killed with {@code SIGKILL} once 1,500 were
 * sent, the old master restarted once the promoted one served the durable connection (which logs RMQ-0190: it has
 * no replica), and the stream kept on until sends are acked again for 2 s. Then the topic is consumed until it is
 * drained, and the outcome of every send is checked against what it said:
 * <ul>
 * <li>every send was settled (acked or failed) within {@link #BOUND} of the call: the durability timeout plus
 * {@link SendDeadlines#REPLY_ALLOWANCE}, plus the guard {@link #SCHEDULING} for a busy test machine;</li>
 * <li>no send that failed as {@link WriteState#NOT_WRITTEN} was delivered;</li>
 * <li>every acked send was delivered.</li>
 * </ul>
 * Prints {@code DURABLE SETTLE <setup>: ...} with the distribution of the settle latencies and the outcomes.
 */
final class DurableSettleScenario {

    static final Duration TIMEOUT = Duration.ofSeconds(1);
    /**
     * A guard, not the bound: the bound a send is settled in is measured and printed (the report counts the sends
     * settled after {@link #DOCUMENTED}; on the project machine, shared with other builds at a load average of 5 to
     * 7, up to 111 ms late were seen during a failover). Asserting it to the millisecond would assert the machine's
     * scheduling; this margin only catches a send left waiting for a whole further {@code WAIT} or reconnection,
     * as before the deadlines were per send (settles of up to 6 s with a 1 s timeout).
     */
    static final Duration SCHEDULING = Duration.ofSeconds(2);
    /** What the documentation promises: the durability timeout plus the allowance for a reply on its way. */
    static final Duration DOCUMENTED = TIMEOUT.plus(SendDeadlines.REPLY_ALLOWANCE);
    static final Duration BOUND = TIMEOUT.plus(SendDeadlines.REPLY_ALLOWANCE).plus(SCHEDULING);
    private static final ProducerOptions ONE_REPLICA = ProducerOptions.builder().durableReplicas(1)
            .durabilityTimeout(TIMEOUT).build();

    /** One send: when made and settled ({@link System#nanoTime()}), and how; {@code state} null when acked. */
    private record Outcome(String content, long sentAt, long settledAt, WriteState state, String code) {
        long latencyMillis() {
            return TimeUnit.NANOSECONDS.toMillis(settledAt - sentAt);
        }
    }

    /** What the master kill needs: kill it, wait for the promotion, give it a replica again. */
    interface Failover {
        /** Kills the master of slot 0 and returns once it is dead. */
        void kill();

        /** Waits until a replica took over. */
        void awaitPromotion();

        /** Restarts the killed master as a replica of the promoted one. */
        void heal();
    }

    private final String uri;
    private final String setup;

    DurableSettleScenario(String uri, String setup) {
        this.uri = uri;
        this.setup = setup;
    }

    String run(Failover failover) throws Exception {
        Map<String, Outcome> outcomes = new ConcurrentHashMap<>();
        Set<String> delivered = ConcurrentHashMap.newKeySet();
        AtomicInteger next = new AtomicInteger();
        ScheduledExecutorService pacer = Executors.newSingleThreadScheduledExecutor();
        try (LogRecorder log = LogRecorder.record(EngineLogging.LOGGER_NAME);
                RmqEngine engine = new RmqEngine(RedisAccess.of(uri)).start()) {
            TopicKeys keys = engine.registerTopic(new TopicDefinition("settle", 16, TopicType.PRIORITY))
                    .toCompletableFuture().get(30, TimeUnit.SECONDS);
            TopicProducer producer = engine.producer(keys, ONE_REPLICA);
            pacer.scheduleAtFixedRate(() -> {
                String content = "d-" + next.getAndIncrement();
                long sentAt = System.nanoTime();
                producer.sendWithPriority(content.getBytes(StandardCharsets.UTF_8), 1, null)
                        .whenComplete((r, f) -> {
                            long settledAt = System.nanoTime();
                            Throwable cause = f instanceof java.util.concurrent.CompletionException c ? c.getCause() : f;
                            outcomes.put(content, new Outcome(content, sentAt, settledAt,
                                    f == null ? null : WriteState.of(f),
                                    f == null ? "ack" : String.valueOf(cause.getMessage()).replaceAll("^(RMQ-\\d{4}).*$",
                                            "$1").replaceAll("^(.{40}).*$", "$1")));
                        });
            }, 0, 2, TimeUnit.MILLISECONDS);

            await().atMost(Duration.ofSeconds(60)).until(() -> next.get() >= 1_500);
            int logged0190 = log.messagesContaining("RMQ-0190").size();
            failover.kill();
            long killedAt = System.nanoTime();
            failover.awaitPromotion();
            // the durable connection reaches the promoted master, which has no replica yet
            await("RMQ-0190 after the failover").atMost(Duration.ofSeconds(60))
                    .until(() -> log.messagesContaining("RMQ-0190").size() > logged0190);
            failover.heal();
            await("acked again for 2 s after the kill").atMost(Duration.ofSeconds(90)).until(() -> outcomes.values()
                    .stream().filter(o -> o.state() == null && o.sentAt() > killedAt).count() >= 1_000);
            pacer.shutdown();
            pacer.awaitTermination(10, TimeUnit.SECONDS);
            int sent = next.get();
            await("every send settled").atMost(BOUND.plusSeconds(10)).until(() -> outcomes.size() == sent);

            ConsumerOptions options = ConsumerOptions.builder().pollInterval(Duration.ofMillis(200)).build();
            try (TopicConsumer consumer = engine.consumer(keys, options, "settle-check");
                    RmqAdmin admin = RmqAdmin.connect(uri)) {
                consumer.start(d -> {
                    delivered.add(new String(d.content(), StandardCharsets.UTF_8));
                    d.commit();
                    consumer.request(1);
                });
                consumer.request(256);
                await("the topic drained").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                        .ignoreExceptions().until(() -> admin.stats(keys.topic()).slots().stream()
                                .allMatch(slot -> slot.pending() == 0 && slot.inFlight() == 0));
            }
            return check(new ArrayList<>(outcomes.values()), delivered, killedAt);
        } finally {
            pacer.shutdownNow();
        }
    }

    private String check(List<Outcome> all, Set<String> delivered, long killedAt) {
        long[] latencies = all.stream().mapToLong(Outcome::latencyMillis).sorted().toArray();
        Map<WriteState, Integer> failed = new EnumMap<>(WriteState.class);
        Map<WriteState, Integer> failedDelivered = new EnumMap<>(WriteState.class);
        Map<String, Integer> codes = new java.util.TreeMap<>();
        int acked = 0;
        for (Outcome o : all) {
            codes.merge(o.code(), 1, Integer::sum);
            if (o.state() == null) {
                acked++;
            } else {
                failed.merge(o.state(), 1, Integer::sum);
                if (delivered.contains(o.content())) {
                    failedDelivered.merge(o.state(), 1, Integer::sum);
                }
            }
        }
        long nackMax = all.stream().filter(o -> o.state() != null).mapToLong(Outcome::latencyMillis).max().orElse(0);
        long ackMax = all.stream().filter(o -> o.state() == null).mapToLong(Outcome::latencyMillis).max().orElse(0);
        String report = "DURABLE SETTLE " + setup + ": sends " + all.size() + ", settle latency p50 "
                + percentile(latencies, 50) + " ms, p99 " + percentile(latencies, 99) + " ms, max "
                + latencies[latencies.length - 1] + " ms (acks max " + ackMax + " ms, nacks max " + nackMax
                + " ms; after " + DOCUMENTED.toMillis() + " ms: " + all.stream().filter(o -> o.latencyMillis()
                        > DOCUMENTED.toMillis()).count() + "); acked " + acked + ", failed " + failed + ", of those delivered "
                + failedDelivered + "; by code " + codes + "; delivered " + delivered.size();
        System.out.println(report);

        List<String> late = all.stream().filter(o -> o.latencyMillis() > BOUND.toMillis())
                .map(o -> o.content() + " " + o.code() + " after " + o.latencyMillis() + " ms").toList();
        assertThat(late).as("sends settled later than " + BOUND.toMillis() + " ms; " + report).isEmpty();
        List<String> notWrittenDelivered = all.stream().filter(o -> o.state() == WriteState.NOT_WRITTEN
                && delivered.contains(o.content())).map(o -> o.content() + " " + o.code()).toList();
        assertThat(notWrittenDelivered).as("sends failed as not written, and delivered; " + report).isEmpty();
        List<String> ackedLost = all.stream().filter(o -> o.state() == null && !delivered.contains(o.content()))
                .map(Outcome::content).toList();
        assertThat(ackedLost).as("acked sends lost; " + report).isEmpty();
        assertThat(failed).as("sends failed around the kill").isNotEmpty();
        return report;
    }

    private static long percentile(long[] sorted, int p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}
