package io.rmq.engine.consume;

import static io.rmq.engine.EngineFixture.bytes;
import static io.rmq.engine.EngineFixture.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.engine.EngineFixture;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.redis.RedisScript;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.topic.SlotKeys;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisExtension;
import io.rmq.testing.redis.RedisTestServer;

/**
 * A consumer commits first deliveries the plain way (a {@code ZREM} from the prepare queue, then
 * {@code committed.lua}) once a commit of the slot through {@code commit.lua} has checked its keys; the counts, the
 * wake notices (BlockedCopyIT) and a slot whose keys go bad behave as with {@code commit.lua}.
 */
@ExtendWith(RedisExtension.class)
class PlainCommitIT {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private EngineFixture fx;
    private RmqEngine client;

    @BeforeEach
    void setUp(RedisTestServer redis) {
        fx = new EngineFixture(redis.uri());
        client = fx.client();
    }

    @AfterEach
    void tearDown() throws Exception {
        fx.close();
    }

    @Test
    void afterOneCheckedCommitTheSlotsFirstDeliveriesAreCommittedThePlainWayAndCounted() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("plain-common", 1, TopicType.FIXED_TIME));
        TopicProducer producer = client.producer(keys);
        EngineFixture.Recorder r = fx.consume(client, keys, ConsumerOptions.builder().build());
        r.consumer.request(100);

        producer.sendAt(bytes("first"), Instant.now(), null).toCompletableFuture().join();
        r.next(WAIT).commit();
        await().atMost(WAIT).until(() -> "1".equals(fx.redis().hget(keys.slot(0).counters(), "acked")));
        fx.redis().scriptFlush(); // from here on, a script is loaded only if it is called

        for (int i = 0; i < 20; i++) {
            producer.sendAt(bytes("m-" + i), Instant.now(), null).toCompletableFuture().join();
        }
        for (Delivery d : r.take(20, WAIT)) {
            d.commit();
        }
        await().atMost(WAIT).until(() -> "21".equals(fx.redis().hget(keys.slot(0).counters(), "acked")));
        assertThat(fx.inQueues(keys)).isZero();
        assertThat(fx.redis().scriptExists(RedisScript.COMMITTED.sha(), RedisScript.COMMIT.sha()))
                .as("committed.lua ran, commit.lua did not").containsExactly(true, false);
    }

    @Test
    void aSlotKeyWrittenByAnotherClientStopsThePlainWayAndTheNextCommitsRemoveNothingUntilRepaired() throws Exception {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("plain-broken", 1, TopicType.FIXED_TIME));
        SlotKeys slot = keys.slot(0);
        TopicProducer producer = client.producer(keys);
        EngineFixture.Recorder r = fx.consume(client, keys, ConsumerOptions.builder()
                .prepareTimeout(Duration.ofSeconds(2)).build());
        r.consumer.request(100);
        producer.sendAt(bytes("checked"), Instant.now(), null).toCompletableFuture().join();
        r.next(WAIT).commit();
        await().atMost(WAIT).until(() -> fx.inQueues(keys) == 0);

        fx.redis().set(slot.owner(), "written by hand");
        producer.sendAt(bytes("plain"), Instant.now(), null).toCompletableFuture().join();
        r.next(WAIT).commit();
        // removed by its ZREM; what follows fails on the owner hash (RMQ-0102), so the slot's keys are checked again
        await().atMost(WAIT).until(() -> fx.inQueues(keys) == 0);

        producer.sendAt(bytes("checked-again"), Instant.now(), null).toCompletableFuture().join();
        Delivery kept = r.next(WAIT);
        assertThat(text(kept)).isEqualTo("checked-again");
        kept.commit();
        // commit.lua fails before removing anything (RMQ-0101): kept, and redelivered once the key is repaired
        await().during(Duration.ofMillis(500)).atMost(WAIT)
                .until(() -> fx.redis().zrange(slot.prepare(), 0, -1).equals(List.of("checked-again")));
        fx.redis().del(slot.owner());
        Delivery again = r.next(WAIT);
        assertThat(text(again)).isEqualTo("checked-again");
        assertThat(again.attempt()).isEqualTo(2);
        again.commit();
        await().atMost(WAIT).until(() -> fx.inQueues(keys) == 0);
    }
}
