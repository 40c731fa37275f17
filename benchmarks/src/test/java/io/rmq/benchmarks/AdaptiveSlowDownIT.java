package io.rmq.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.consume.flow.AdaptiveSlowDown;
import io.rmq.engine.consume.flow.FlowLimit;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisExtension;
import io.rmq.testing.redis.RedisTestServer;

/**
 * The adaptive slow-down end to end, against a real Redis: a topic limited to 200/s whose downstream fails every
 * delivery for 30 s, then recovers. The rate the limiter holds the topic to ({@code a.rate}) is sampled every 250 ms:
 * it reaches the floor (10/s) within the windows the halving needs, stays there while the downstream fails, and
 * comes back to the limit once it succeeds again. The run writes its samples (CSV) and the chart of the rate and
 * the failure ratio against time: {@code -Drmq.flow.chart=<png path>} (default {@code target/flow-adaptive.png}).
 */
@ExtendWith(RedisExtension.class)
class AdaptiveSlowDownIT {

    private static final double LIMIT = 200;
    private static final double FLOOR = 10;
    private static final Duration FAILING = Duration.ofSeconds(30);
    private static final long SAMPLE_MILLIS = 250;

    /** One sample: seconds since the start, the rate the limiter holds the topic to, deliveries and failures since the last. */
    private record Sample(double seconds, double rate, long delivered, long failed) {
    }

    @Test
    void theRateBacksOffToTheFloorWhileTheDownstreamFailsAndRecoversAfter(RedisTestServer redis) throws Exception {
        TopicDefinition topic = new TopicDefinition("adaptive", 4, TopicType.PRIORITY);
        RedisClient client = RedisClient.create(redis.uri());
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        try (RmqEngine engine = new RmqEngine(redis.uri()).start();
                StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> sync = connection.sync();
            engine.ready().toCompletableFuture().get(10, TimeUnit.SECONDS);
            TopicKeys keys = engine.registerTopic(topic).toCompletableFuture().get(10, TimeUnit.SECONDS);
            TopicProducer producer = engine.producer(keys);
            List<CompletableFuture<?>> sends = new ArrayList<>();
            for (int i = 0; i < 12_000; i++) {
                sends.add(producer.sendWithPriority(("m" + i).getBytes(StandardCharsets.UTF_8), 1, null).toCompletableFuture());
            }
            CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

            AtomicLong delivered = new AtomicLong();
            AtomicLong failed = new AtomicLong();
            long start = System.nanoTime();
            long recoversAt = start + FAILING.toNanos();
            ConsumerOptions options = ConsumerOptions.builder().maxRetries(1_000).retryBackoff(Duration.ZERO)
                    .rateLimit(new FlowLimit(LIMIT, 0)).adaptiveSlowDown(new AdaptiveSlowDown(0.5, FLOOR)).build();
            TopicConsumer consumer = engine.consumer(keys, options, "adaptive-consumer");
            consumer.start(d -> {
                delivered.incrementAndGet();
                if (System.nanoTime() < recoversAt) {
                    failed.incrementAndGet();
                    d.rollback(new IllegalStateException("the downstream is down"));
                } else {
                    d.commit();
                }
            });
            consumer.request(Long.MAX_VALUE);

            List<Sample> samples = new java.util.concurrent.CopyOnWriteArrayList<>();
            AtomicLong lastDelivered = new AtomicLong();
            AtomicLong lastFailed = new AtomicLong();
            sampler.scheduleAtFixedRate(() -> {
                String slowed = sync.hget(keys.flow(), "a.rate");
                long d = delivered.get();
                long f = failed.get();
                samples.add(new Sample((System.nanoTime() - start) / 1e9, slowed == null ? LIMIT : Double.parseDouble(slowed),
                        d - lastDelivered.getAndSet(d), f - lastFailed.getAndSet(f)));
            }, 0, SAMPLE_MILLIS, TimeUnit.MILLISECONDS);

            // halving from 200/s to 10/s takes log2(20) = 4.3 windows of 1 s; 2 more for the first window and slack
            await().atMost(Duration.ofSeconds(12)).until(() -> rateNow(sync, keys) == FLOOR);
            double atFloor = (System.nanoTime() - start) / 1e9;
            await().atMost(FAILING.plusSeconds(5)).until(() -> System.nanoTime() >= recoversAt);
            double failingEnds = FAILING.toMillis() / 1000.0;
            // additive increase: a tenth of the limit per window of successes, 10 windows from the floor; slack for
            // windows stretched until they hold enough outcomes at the floor's rate
            await().atMost(Duration.ofSeconds(25)).until(() -> sync.hget(keys.flow(), "a.rate") == null);
            double recovered = (System.nanoTime() - start) / 1e9;
            await().atMost(Duration.ofSeconds(5)).until(() -> samples.get(samples.size() - 1).seconds() > recovered + 2);
            sampler.shutdown();
            consumer.close();

            assertThat(samples).filteredOn(s -> s.seconds() > atFloor + 0.3 && s.seconds() < failingEnds)
                    .as("held at the floor while the downstream fails").isNotEmpty()
                    .allSatisfy(s -> assertThat(s.rate()).isEqualTo(FLOOR));
            assertThat(sync.hget(keys.flow(), "a.reason")).startsWith("recovered");

            Path chart = Path.of(System.getProperty("rmq.flow.chart", "target/flow-adaptive.png")).toAbsolutePath();
            write(samples, chart);
            System.out.printf("adaptive slow-down: limit %.0f/s, floor %.0f/s, downstream failing for %d s;"
                    + " floor reached after %.1f s, back at the limit %.1f s after the downstream recovered;"
                    + " chart %s%n", LIMIT, FLOOR, FAILING.toSeconds(), atFloor, recovered - failingEnds, chart);
        } finally {
            sampler.shutdownNow();
            client.shutdown();
        }
    }

    private static double rateNow(RedisCommands<String, String> sync, TopicKeys keys) {
        String slowed = sync.hget(keys.flow(), "a.rate");
        return slowed == null ? LIMIT : Double.parseDouble(slowed);
    }

    /** The samples as CSV beside the chart, and the chart: rates (left axis) and failure ratio (right axis). */
    private static void write(List<Sample> samples, Path chart) throws Exception {
        Files.createDirectories(chart.getParent());
        StringBuilder csv = new StringBuilder("seconds,limiter_rate_per_s,delivered_per_s,failure_ratio\n");
        int n = samples.size();
        double[] t = new double[n];
        double[] rate = new double[n];
        double[] deliveredPerSecond = new double[n];
        double[] failurePercent = new double[n];
        for (int i = 0; i < n; i++) {
            Sample s = samples.get(i);
            t[i] = s.seconds();
            rate[i] = s.rate();
            deliveredPerSecond[i] = s.delivered() * 1000.0 / SAMPLE_MILLIS;
            failurePercent[i] = s.delivered() == 0 ? 0 : 100.0 * s.failed() / s.delivered();
            csv.append(String.format(java.util.Locale.ROOT, "%.3f,%.3f,%.1f,%.3f%n", t[i], rate[i], deliveredPerSecond[i],
                    failurePercent[i] / 100));
        }
        Files.writeString(Path.of(chart.toString().replaceFirst("\\.png$", "") + ".csv"), csv);
        Map<String, double[][]> rates = new LinkedHashMap<>();
        rates.put("rate the limiter allows, /s", new double[][] { t, rate });
        rates.put("deliveries /s (per 250 ms)", new double[][] { t, deliveredPerSecond });
        BenchCharts.timeLine(String.format(java.util.Locale.ROOT, "Adaptive slow-down: limit %.0f/s, floor %.0f/s,"
                + " all deliveries fail for %d s", LIMIT, FLOOR, FAILING.toSeconds()), "messages / s", "failed deliveries, %", rates,
                Map.of("failed deliveries, %", new double[][] { t, failurePercent }), chart);
    }
}
