package io.rmq.engine.consume;

import static io.rmq.engine.EngineFixture.bytes;
import static io.rmq.engine.EngineFixture.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.engine.EngineFixture;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.produce.ProducerOptions;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.topic.FairShare;
import io.rmq.engine.topic.KeyLimits;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisExtension;
import io.rmq.testing.redis.RedisTestServer;

/**
 * Limits per key, fair share and priority aging follow the topic's flow hash: configuration writes the starting
 * values, and a change made live through the admin API reaches consumers and producers configured without them.
 */
@ExtendWith(RedisExtension.class)
class FlowFeaturesLiveIT {

    private static final Duration WAIT = Duration.ofSeconds(30);

    EngineFixture fx;
    RmqEngine client;
    RmqAdmin admin;

    @BeforeEach
    void setUp(RedisTestServer redis) {
        fx = new EngineFixture(redis.uri());
        client = fx.client();
        admin = RmqAdmin.connect(fx.uri);
    }

    @AfterEach
    void tearDown() throws Exception {
        admin.close();
        fx.close();
    }

    @Test
    void limitsPerKeySetLiveReachAConsumerAndAProducerConfiguredWithoutThem() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("live-keys", 1, TopicType.FIXED_TIME));
        TopicProducer producer = client.producer(keys);
        EngineFixture.Recorder r = fx.consume(client, keys, ConsumerOptions.builder().batchSize(10).build());
        assertThat(producer.recordsKeys()).isFalse();
        r.consumer.request(Long.MAX_VALUE); // a consumer that pops reads the flow settings every second

        admin.flow(keys.topic()).setKeyLimits(1, 0, 0);
        // at most a second while consumers pop, 30 s while they are idle (docs/flow-control.md)
        await().atMost(Duration.ofSeconds(45)).until(() -> producer.recordsKeys() && r.consumer.keyLimits().on());

        Instant past = Instant.now().minusSeconds(60);
        producer.sendAt(bytes("k-1"), past, "k").toCompletableFuture().join();
        producer.sendAt(bytes("k-2"), past.plusMillis(1), "k").toCompletableFuture().join();
        producer.sendAt(bytes("o-1"), past.plusMillis(2), "o").toCompletableFuture().join();
        Map<String, Delivery> first = new HashMap<>();
        first.put(text(r.next(WAIT)), null);
        first.put(text(r.next(WAIT)), null);
        assertThat(first).as("one message of key k at a time, the other key not held back").containsOnlyKeys("k-1", "o-1");
        assertThat(fx.redis().zscore(keys.slot(0).parkedKeys(), "k")).as("k-2 is held back by its key").isNotNull();
    }

    @Test
    void configurationWritesTheStartingValuesAndALiveRemovalReachesTheConsumer() {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("start-keys", 1, TopicType.PRIORITY));
        EngineFixture.Recorder r = fx.consume(client, keys,
                ConsumerOptions.builder().keyLimits(new KeyLimits(2, 0, 0)).build());
        r.consumer.request(1);
        await().atMost(WAIT).until(() -> "2".equals(fx.redis().hget(keys.flow(), "key.conc")));
        assertThat(r.consumer.keyLimits().concurrency()).isEqualTo(2);

        admin.flow(keys.topic()).setKeyLimits(5, 0, 0);
        await().atMost(WAIT).until(() -> r.consumer.keyLimits().concurrency() == 5);
        admin.flow(keys.topic()).removeKeyLimits();
        await().atMost(WAIT).until(() -> !r.consumer.keyLimits().on());
    }

    @Test
    void fairShareAndItsWeightsSetLiveReachAConsumer() {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("live-fair", 1, TopicType.FIXED_TIME));
        EngineFixture.Recorder r = fx.consume(client, keys, ConsumerOptions.builder().build());
        r.consumer.request(1);

        admin.flow(keys.topic()).setFair(true);
        admin.flow(keys.topic()).setWeight("acme", 3);
        await().atMost(WAIT).until(() -> r.consumer.fairShare().on()
                && Double.valueOf(3).equals(r.consumer.fairShare().weights().get("acme")));
        admin.flow(keys.topic()).setFair(false);
        await().atMost(WAIT).until(() -> r.consumer.fairShare().equals(FairShare.OFF));
    }

    @Test
    void anAgingPaceSetLiveReachesAProducerConfiguredWithoutOne() {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("live-aging", 1, TopicType.PRIORITY));
        TopicProducer producer = client.producer(keys, ProducerOptions.defaults());
        EngineFixture.Recorder r = fx.consume(client, keys, ConsumerOptions.builder().build());
        r.consumer.request(1);
        assertThat(producer.priorityAging().on()).isFalse();

        admin.flow(keys.topic()).setAgingPace(0.001);
        await().atMost(WAIT).until(() -> producer.priorityAging().on() && r.consumer.priorityAging().on());
        assertThat(producer.priorityAging().pacePerMilli()).isEqualTo(0.001);
    }
}
