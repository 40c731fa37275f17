package io.rmq.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rmq.admin.rest.AdminSettings;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.admin.SlotCounters;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.RedisTest;
import io.rmq.testing.RedisTestServer;

/** The sampler against a real Redis: the counters the scripts keep become rates; an unreachable Redis is reported. */
@RedisTest
class RateSamplerIT {

    private final AtomicLong clock = new AtomicLong(1_000_000);
    private RedisTestServer redis;
    private RmqEngine engine;
    private RateSampler sampler;

    @BeforeEach
    void setUp(RedisTestServer redis) {
        this.redis = redis;
        engine = new RmqEngine(redis.uri()).start();
        engine.ready().toCompletableFuture().join();
    }

    @AfterEach
    void tearDown() {
        if (sampler != null) {
            sampler.close();
        }
        engine.close();
    }

    @Test
    void turnsTheClusterWideCountersIntoRates() {
        TopicKeys keys = engine.registerTopic(new TopicDefinition("sampled", 4, TopicType.FIXED_TIME, "dash:"))
                .toCompletableFuture().join();
        TopicProducer producer = engine.producer(keys);
        AdminSettings settings = new AdminSettings(true, redis.uri(), "dash:");
        sampler = new RateSampler(() -> settings, Duration.ofSeconds(5), Duration.ofMinutes(15), clock::get);

        sampler.sample(settings);
        for (int i = 0; i < 40; i++) {
            producer.sendAt(("m-" + (i % 30)).getBytes(), Instant.now().plusSeconds(600), null).toCompletableFuture().join();
        }
        clock.addAndGet(10_000);
        sampler.sample(settings);

        RateHistory.RatePoint point = sampler.history().rates().get("sampled").get(0);
        assertThat(point.perSecond()[SlotCounters.NAMES.indexOf("sent")]).as("40 sent in 10 s").isEqualTo(4.0);
        assertThat(point.perSecond()[SlotCounters.NAMES.indexOf("merged")]).as("10 merged in 10 s").isEqualTo(1.0);
        assertThat(sampler.lastSampleMillis()).isEqualTo(1_010_000);
    }

    @Test
    void aFailedSampleIsReportedUntilOneSucceeds() {
        String unreachable = "redis://127.0.0.1:1";
        AdminSettings[] settings = { new AdminSettings(true, unreachable, "") };
        sampler = new RateSampler(() -> settings[0], Duration.ofMillis(50), Duration.ofMinutes(15), clock::get);
        sampler.start();

        await().atMost(Duration.ofSeconds(20)).until(() -> sampler.failure() != null);
        assertThat(sampler.failure()).contains("127.0.0.1:1");

        settings[0] = new AdminSettings(true, redis.uri(), "");
        await().atMost(Duration.ofSeconds(20)).until(() -> sampler.failure() == null);
    }
}
