package io.rmq.engine;

import static io.rmq.engine.EngineFixture.bytes;
import static io.rmq.engine.EngineFixture.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.admin.TopicStats;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.LogRecorder;
import io.rmq.testing.faults.FaultProxy;
import io.rmq.testing.redis.RedisProcess;

/**
 * A Redis without persistence killed with {@code kill -9} and started again comes back empty, the topic
 * registry with it: the engines that keep using a topic record it again once they reconnect, so that the admin
 * API (and the CLI, the REST endpoints and the dashboard, which read the same hash) sees it again; a topic
 * recorded meanwhile with another definition is left as it is and the conflict is logged (RMQ-0007).
 */
class TopicRecordedAgainIT {

    /** Generous: the event is a reconnection and one script call. */
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final TopicDefinition BEAT = new TopicDefinition("ops.beat", 2, TopicType.FIXED_TIME);

    @Test
    void aConsumerRecordsItsTopicAgainWhenRedisComesBackEmpty(@TempDir Path dir) throws Exception {
        try (RedisProcess redis = RedisProcess.start(dir, List.of(), false);
                EngineFixture fx = new EngineFixture(redis.uri());
                RmqAdmin admin = RmqAdmin.connect(redis.uri());
                LogRecorder log = LogRecorder.record("io.rmq")) {
            RmqEngine engine = fx.client();
            TopicKeys keys = EngineFixture.register(engine, BEAT);
            EngineFixture.Recorder r = fx.consume(engine, keys, ConsumerOptions.builder()
                    .pollInterval(Duration.ofMillis(500)).shutdownTimeout(Duration.ofMillis(200)).build());
            r.consumer.request(10);
            assertThat(admin.topics("")).containsExactly(BEAT);
            redis.cli("SET", "marker", "before the kill");

            redis.kill();
            redis.restart();
            // not the registry: the engine may have recorded the topic again already
            assertThat(redis.cli("EXISTS", "marker")).as("the restarted server is empty").isEqualTo("0");

            await("the topic recorded again").atMost(WAIT).ignoreExceptions()
                    .until(() -> admin.topics("").contains(BEAT));
            TopicStats stats = admin.stats(admin.topic(BEAT.name(), ""));
            assertThat(stats.topic()).isEqualTo(BEAT);

            // and the consumer goes on consuming what is sent after the restart
            await().atMost(WAIT).ignoreExceptions().until(() ->
                    engine.producer(keys).sendAt(bytes("after"), Instant.now(), null).toCompletableFuture().join().stored());
            Delivery d = r.next(WAIT);
            assertThat(text(d)).isEqualTo("after");
            d.commit();
            await("the send counted").atMost(WAIT)
                    .until(() -> admin.stats(admin.topic(BEAT.name(), "")).counters().sent() >= 1);
            assertThat(log.messagesContaining("RMQ-0007")).isEmpty();
        }
    }

    @Test
    void aProducerOnlyEngineRecordsItsTopicAgainWithoutSending(@TempDir Path dir) throws Exception {
        try (RedisProcess redis = RedisProcess.start(dir, List.of(), false);
                EngineFixture fx = new EngineFixture(redis.uri());
                RmqAdmin admin = RmqAdmin.connect(redis.uri())) {
            RmqEngine engine = fx.client();
            TopicKeys keys = EngineFixture.register(engine, BEAT);
            assertThat(engine.producer(keys).sendAt(bytes("before"), Instant.now(), null).toCompletableFuture().join()
                    .stored()).isTrue();

            redis.kill();
            redis.restart();

            await("the topic recorded again").atMost(WAIT).ignoreExceptions()
                    .until(() -> admin.topics("").contains(BEAT));
            assertThat(admin.stats(admin.topic(BEAT.name(), "")).pending()).as("what Redis held is gone").isZero();
        }
    }

    @Test
    void aTopicRecordedMeanwhileWithAnotherDefinitionIsLeftAsItIsAndTheConflictLogged(@TempDir Path dir)
            throws Exception {
        try (RedisProcess redis = RedisProcess.start(dir, List.of(), false);
                FaultProxy proxy = FaultProxy.to(redis.port());
                EngineFixture fx = new EngineFixture("redis://" + proxy.address());
                LogRecorder log = LogRecorder.record("io.rmq")) {
            RmqEngine engine = fx.client();
            TopicKeys keys = EngineFixture.register(engine, BEAT);
            engine.producer(keys).sendAt(bytes("before"), Instant.now(), null).toCompletableFuture().join();

            // the engine cannot reconnect until another application has recorded the topic on the empty server
            proxy.cut();
            redis.kill();
            redis.restart();
            redis.cli("HSET", "rmq:topics", BEAT.name(), "PRIORITY:4");
            proxy.restore();

            List<String> logged = log.await("about the conflicting record", m -> m.startsWith("RMQ-0007"), 1, WAIT);
            assertThat(logged.get(0)).contains("'ops.beat'", "'rmq:topics'", "type PRIORITY with slot-amount 4",
                    "type FIXED_TIME with slot-amount 2");
            assertThat(redis.cli("HGET", "rmq:topics", BEAT.name())).as("the other record, not overwritten")
                    .isEqualTo("PRIORITY:4");
        }
    }
}
