package io.rmq.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rmq.engine.RmqEngine;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.schedule.MissedPolicy;
import io.rmq.engine.schedule.ScheduleDefinition;
import io.rmq.engine.schedule.ScheduleTiming;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisProcess;

/**
 * Recurring schedules run by three application instances in separate JVMs: a schedule every second for 60 s gives
 * 60 deliveries (one more or less at the edges of the window), no tick twice; then every instance is killed
 * ({@code kill -9}) for 10 s and started again: the schedule with {@code SKIP} sends nothing for the gap, the one
 * with {@code CATCH_UP} exactly one message, for the latest missed tick; each decided once in the cluster (one
 * RMQ-0552 line among the three instances). Each message carries its tick time as its score (a {@code FIXED_TIME}
 * topic), so ticks are checked one by one. Runs about 90 s.
 */
class ScheduleFleetIT {

    private static final String SKIP = "beat-skip";
    private static final String CATCH_UP = "beat-catch-up";
    private static final Duration WINDOW = Duration.ofSeconds(60);
    private static final Duration OUTAGE = Duration.ofSeconds(10);
    private static final Pattern MISSED = Pattern.compile("RMQ-0552 Schedule '([^']+)' .*(?:recorded up to|message for) (\\S+)$");

    private final Map<String, List<Long>> received = new ConcurrentHashMap<>();

    @Test
    void threeInstancesSendEachTickOnceAndHandleAnOutageAsTheirPolicySays(@TempDir Path dir) throws Exception {
        try (RedisProcess redis = RedisProcess.start(dir, List.of(), false);
                RmqEngine engine = new RmqEngine(redis.uri()).start()) {
            engine.ready().toCompletableFuture().join();
            List<TopicConsumer> consumers = new ArrayList<>();
            for (String name : List.of(SKIP, CATCH_UP)) {
                TopicKeys keys = engine.registerTopic(new TopicDefinition(name, 4, TopicType.FIXED_TIME)).toCompletableFuture().join();
                engine.schedules().define(new ScheduleDefinition(name, keys.topic(), name.getBytes(StandardCharsets.UTF_8),
                        null, ScheduleTiming.every(name, "PT1S", "every"),
                        name.equals(SKIP) ? MissedPolicy.SKIP : MissedPolicy.CATCH_UP, null)).toCompletableFuture().join();
                List<Long> ticks = new CopyOnWriteArrayList<>();
                received.put(name, ticks);
                TopicConsumer consumer = engine.consumer(keys, ConsumerOptions.builder().build(), name);
                consumer.start(d -> {
                    ticks.add((long) d.score());
                    d.commit();
                });
                consumer.request(Integer.MAX_VALUE);
                consumers.add(consumer);
            }
            ConsumerJvm.Spec spec = new ConsumerJvm.Spec(redis.uri(), SKIP + "," + CATCH_UP, 4, dir, null, 0, 0, 0,
                    ScheduleMain.class);

            List<ConsumerJvm> first = startThree(spec, "a");
            long from = System.currentTimeMillis();
            await().atMost(WINDOW.plusSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> System.currentTimeMillis() >= from + WINDOW.toMillis());
            long to = from + WINDOW.toMillis();
            for (String name : List.of(SKIP, CATCH_UP)) {
                long inWindow = received.get(name).stream().filter(t -> t >= from && t < to).count();
                System.out.println("SCHEDULE FLEET " + name + ": " + inWindow + " deliveries in 60 s from 3 JVMs");
                assertThat(inWindow).as(name + ": one delivery a second").isBetween(59L, 61L);
            }

            first.forEach(ConsumerJvm::kill);
            long killedAt = System.currentTimeMillis();
            Map<String, Long> lastBefore = new ConcurrentHashMap<>();
            received.forEach((name, ticks) -> lastBefore.put(name, ticks.stream().mapToLong(t -> t).max().orElseThrow()));
            await().atMost(OUTAGE.plusSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> System.currentTimeMillis() >= killedAt + OUTAGE.toMillis());
            List<ConsumerJvm> second = startThree(spec, "b");
            long restartedAt = System.currentTimeMillis();
            await().atMost(Duration.ofSeconds(30)).until(() -> received.values().stream()
                    .allMatch(ticks -> ticks.stream().anyMatch(t -> t > restartedAt + 2_000)));

            // the first round decided too, about the ticks between the definitions and its start: the restart is what counts
            Map<String, Long> decided = missedTickDecisions(second);
            assertThat(decided).containsOnlyKeys(SKIP, CATCH_UP);
            for (String name : List.of(SKIP, CATCH_UP)) {
                List<Long> ticks = received.get(name);
                assertThat(ticks).as(name + ": no tick twice").doesNotHaveDuplicates();
                long latestMissed = decided.get(name);
                assertThat(latestMissed).isGreaterThan(lastBefore.get(name) + OUTAGE.toMillis() - 1_000);
                List<Long> inGap = ticks.stream().filter(t -> t > lastBefore.get(name) && t <= latestMissed).toList();
                System.out.println("SCHEDULE FLEET " + name + ": " + inGap.size() + " message(s) for the ticks missed from "
                        + Instant.ofEpochMilli(lastBefore.get(name)) + " to " + Instant.ofEpochMilli(latestMissed));
                assertThat(inGap).as(name + ": messages for the gap").isEqualTo(name.equals(SKIP) ? List.of() : List.of(latestMissed));
                assertThat(ticks).as(name + ": the regular ticks go on after the gap").contains(latestMissed + 1_000);
            }
            second.forEach(ConsumerJvm::stop);
            for (TopicConsumer c : consumers) {
                c.close();
            }
        }
    }

    private static List<ConsumerJvm> startThree(ConsumerJvm.Spec spec, String round) {
        List<ConsumerJvm> jvms = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            jvms.add(ConsumerJvm.start(spec, "schedules-" + round + i));
        }
        jvms.forEach(ConsumerJvm::awaitReady);
        return jvms;
    }

    /** The missed-tick decision each schedule logged (RMQ-0552), asserting that one instance of those logged it. */
    private static Map<String, Long> missedTickDecisions(List<ConsumerJvm> instances) {
        Map<String, Long> decided = new ConcurrentHashMap<>();
        for (ConsumerJvm jvm : instances) {
            for (String line : jvm.linesContaining("RMQ-0552")) {
                Matcher m = MISSED.matcher(line);
                assertThat(m.find()).as(line).isTrue();
                Long earlier = decided.put(m.group(1), Instant.parse(m.group(2)).toEpochMilli());
                assertThat(earlier).as("decided once in the cluster: " + line).isNull();
            }
        }
        return decided;
    }
}
