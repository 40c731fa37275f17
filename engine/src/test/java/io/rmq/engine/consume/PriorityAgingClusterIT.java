package io.rmq.engine.consume;

import static io.rmq.engine.EngineFixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.engine.EngineFixture;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.produce.ProducerOptions;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.scripts.SendResult;
import io.rmq.engine.topic.PriorityAging;
import io.rmq.engine.topic.SlotRouter;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisClusterExtension;
import io.rmq.testing.redis.RedisClusterTestServer;

/**
 * Priority aging on a local Redis Cluster (three masters, scripts run with a {@code #!lua} shebang so that Redis 7
 * refuses any cross-slot access): the epoch in the topic's flow hash, each slot's send times in its own since hash,
 * merges that keep them, and consumers that forget them as they commit.
 */
@ExtendWith(RedisClusterExtension.class)
class PriorityAgingClusterIT {

    private static final PriorityAging PACE = PriorityAging.parse("1/s");

    private EngineFixture fx;
    private RmqEngine client;
    private TopicConsumer consumer;

    @BeforeEach
    void setUp() {
        fx = EngineFixture.cluster(RedisClusterTestServer.shared().uri());
        client = fx.client();
    }

    @AfterEach
    void tearDown() throws Exception {
        if (consumer != null) {
            consumer.close();
        }
        fx.close();
    }

    @Test
    void sendsAreAgedPerSlotAndConsumersForgetTheSendTimes() {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("aged-cluster", 8, TopicType.PRIORITY));
        TopicProducer producer = client.producer(keys, ProducerOptions.builder().priorityAging(PACE).build());
        PriorityAging aging = producer.updatePriorityAging(PACE).toCompletableFuture().join();
        assertThat(fx.redis().hget(keys.flow(), PriorityAging.EPOCH_FIELD)).isEqualTo(Long.toString(aging.epochMillis()));

        int messages = 64;
        for (int i = 0; i < messages; i++) {
            producer.sendWithPriority(bytes("m" + i), i % 8, "basis-" + i).toCompletableFuture().join();
        }
        long sinceEntries = 0;
        for (int slot = 0; slot < 8; slot++) {
            sinceEntries += fx.redis().hlen(keys.slot(slot).since());
        }
        assertThat(sinceEntries).isEqualTo(messages);

        // a merge takes the new priority and keeps the first send time
        String first = fx.redis().hget(keys.slot(slotOf(keys, "basis-3")).since(), "m3");
        SendResult merged = producer.sendWithPriority(bytes("m3"), 100, "basis-3").toCompletableFuture().join();
        assertThat(merged.merged()).isTrue();
        assertThat(fx.redis().hget(keys.slot(merged.slot()).since(), "m3")).isEqualTo(first);
        assertThat(merged.score()).isEqualTo(aging.score(100, Long.parseLong(first)));

        List<String> received = new CopyOnWriteArrayList<>();
        consumer = client.consumer(keys, ConsumerOptions.builder().priorityAging(PACE).build(), "aged-consumer");
        consumer.start(d -> {
            received.add(new String(d.content(), StandardCharsets.UTF_8));
            d.commit();
        });
        consumer.request(Long.MAX_VALUE);

        await().atMost(Duration.ofSeconds(30)).until(() -> received.size() == messages && fx.prepared(keys) == 0);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            for (int slot = 0; slot < 8; slot++) {
                if (fx.redis().exists(keys.slot(slot).since()) != 0) {
                    return false;
                }
            }
            return true;
        });
        assertThat(received).doesNotHaveDuplicates().hasSize(messages);
    }

    private static int slotOf(TopicKeys keys, String basis) {
        return SlotRouter.slotOf(basis.getBytes(StandardCharsets.UTF_8), keys.topic().slotAmount());
    }
}
