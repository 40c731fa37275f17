package io.rmq.engine.produce;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rmq.engine.RmqEngine;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.scripts.SendResult;
import io.rmq.engine.topic.SlotRouter;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.LogRecorder;
import io.rmq.testing.faults.FaultProxy;
import io.rmq.testing.redis.RedisProcess;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;

/**
 * Durable sends on one Redis without replicas: a send that asks for a replica is never confirmed. It fails
 * after the durability timeout with RMQ-0370 naming the topic and the replicas reached and required, the
 * master keeps the write (unconfirmed, not undone), and the missing replicas are logged once (RMQ-0190).
 * With a replica attached, durable sends fail while the connection is cut and are confirmed again once it
 * is back.
 */
@RedisTest
class DurableSendIT {

    private static final TopicDefinition TOPIC = new TopicDefinition("durable", 4, TopicType.PRIORITY);

    @Test
    void aSendThatNoReplicaConfirmsFailsAfterTheTimeoutNamingWhatWasMissing(RedisTestServer redis) throws Exception {
        try (LogRecorder log = LogRecorder.record(EngineLogging.LOGGER_NAME);
                RmqEngine engine = new RmqEngine(redis.uri()).start()) {
            TopicKeys keys = engine.registerTopic(TOPIC).toCompletableFuture().get(30, TimeUnit.SECONDS);
            TopicProducer producer = engine.producer(keys,
                    ProducerOptions.builder().durableReplicas(1).durabilityTimeout(Duration.ofMillis(200)).build());

            List<CompletableFuture<SendResult>> sends = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                sends.add(producer.sendWithPriority(bytes("m" + i), 1, null).toCompletableFuture());
            }

            int notReplicated = 0;
            int notWritten = 0;
            for (CompletableFuture<SendResult> send : sends) {
                Throwable failure = failureOf(send);
                if (WriteState.of(failure) == WriteState.NOT_WRITTEN) {
                    // still queued behind its slot's previous call (the durable connection opens on the first
                    // send) when its 200 ms ran out, on a busy machine: not written, and never written afterwards
                    assertThat(failure).hasMessageStartingWith("RMQ-0374");
                    notWritten++;
                    continue;
                }
                if (WriteState.of(failure) == WriteState.MAYBE_WRITTEN) {
                    // written behind a WAIT, its reply came after its deadline on a busy machine
                    assertThat(failure).hasMessageStartingWith("RMQ-0373");
                    continue;
                }
                notReplicated++;
                assertThat(failure).isInstanceOf(DurabilityException.class)
                        .hasMessage("RMQ-0370 A send to topic 'durable' reached 0 of the 1 replica(s) required within"
                                + " 200 ms: the master stored it, but it may be lost if the master fails now; check that"
                                + " enough replicas are connected and in sync (INFO replication), or lower the number of"
                                + " replicas required or raise the durability timeout");
                DurabilityException e = (DurabilityException) failure;
                assertThat(e.reached()).isZero();
                assertThat(e.required()).isEqualTo(1);
                assertThat(e.topic()).isEqualTo("durable");
            }
            assertThat(notReplicated).isPositive();
            // stored on the master all the same: unconfirmed, not undone
            long stored = 0;
            for (int slot = 0; slot < TOPIC.slotAmount(); slot++) {
                stored += Long.parseLong(redis.command("ZCARD", keys.slot(slot).store()));
            }
            assertThat(stored).as("every send but those not written").isEqualTo(50 - notWritten);
            assertThat(log.messagesContaining("RMQ-0190")).containsExactly("RMQ-0190 Redis at " + redis.uri()
                    + " reports 0 connected replica(s), but sends to topic 'durable' require 1: they fail after 200 ms"
                    + " each until enough replicas are connected");
        }
    }

    @Test
    void aDurableSendWaitsOnAConnectionOfItsOwnSoConsumersAreNotBlocked(RedisTestServer redis) throws Exception {
        try (RmqEngine engine = new RmqEngine(redis.uri()).start()) {
            TopicKeys keys = engine.registerTopic(TOPIC).toCompletableFuture().get(30, TimeUnit.SECONDS);
            TopicProducer durable = engine.producer(keys,
                    ProducerOptions.builder().durableReplicas(1).durabilityTimeout(Duration.ofSeconds(5)).build());
            CompletableFuture<SendResult> waiting = durable.sendWithPriority(bytes("waits"), 1, null).toCompletableFuture();
            awaitClientBlockedInWait(redis);

            // the engine's shared connection still answers while the WAIT blocks the durable one
            SendResult plain = engine.producer(keys).sendWithPriority(bytes("plain"), 1, null).toCompletableFuture()
                    .get(2, TimeUnit.SECONDS);

            assertThat(plain.stored()).isTrue();
            assertThat(waiting).isNotDone();
            assertThat(failureOf(waiting)).isInstanceOf(DurabilityException.class);
        }
    }

    @Test
    void whileTheConnectionIsCutDurableSendsFailAndAfterwardsTheyAreConfirmedAgain(RedisTestServer redis,
            @TempDir Path dir) throws Exception {
        try (RedisProcess replica = RedisProcess.start(dir, List.of("replicaof " + RedisProcess.HOST + " " + redis.port()),
                false);
                FaultProxy proxy = FaultProxy.to(redis.port());
                RmqEngine engine = new RmqEngine("redis://" + proxy.address()).start()) {
            org.awaitility.Awaitility.await("the replica in sync").atMost(Duration.ofSeconds(30))
                    .until(replica::replicaInSyncOrMaster);
            TopicKeys keys = engine.registerTopic(TOPIC).toCompletableFuture().get(30, TimeUnit.SECONDS);
            TopicProducer producer = engine.producer(keys,
                    ProducerOptions.builder().durableReplicas(1).durabilityTimeout(Duration.ofSeconds(2)).build());
            assertThat(producer.sendWithPriority(bytes("before"), 1, null).toCompletableFuture()
                    .get(30, TimeUnit.SECONDS).stored()).isTrue();

            proxy.cut();
            Throwable cut = failureOf(producer.sendWithPriority(bytes("during"), 1, null).toCompletableFuture());
            assertThat(cut).isNotInstanceOf(DurabilityException.class);
            proxy.restore();

            // Lettuce reconnects the durable connection by itself; sends are confirmed on it again
            org.awaitility.Awaitility.await("durable sends confirmed again").atMost(Duration.ofSeconds(30))
                    .ignoreExceptions().until(() -> producer.sendWithPriority(bytes("after"), 1, null)
                            .toCompletableFuture().get(10, TimeUnit.SECONDS) != null);
            assertThat(Long.parseLong(replica.cli("ZSCORE", keys.slot(SlotRouter.slotOf(null, bytes("after"),
                    TOPIC.slotAmount())).store(), "after"))).isEqualTo(1);
        }
    }

    @Test
    void sendsWithoutDurabilityOpenNoConnection(RedisTestServer redis) throws Exception {
        try (RmqEngine engine = new RmqEngine(redis.uri()).start()) {
            TopicKeys keys = engine.registerTopic(TOPIC).toCompletableFuture().get(30, TimeUnit.SECONDS);
            int before = connectedClients(redis);
            engine.producer(keys).sendWithPriority(bytes("m"), 1, null).toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertThat(connectedClients(redis)).isEqualTo(before);
        }
    }

    private static void awaitClientBlockedInWait(RedisTestServer redis) {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> redis.command("CLIENT", "LIST").contains("cmd=wait"));
    }

    private static int connectedClients(RedisTestServer redis) {
        return redis.command("CLIENT", "LIST").split("\n").length;
    }

    private static Throwable failureOf(CompletableFuture<?> send) throws InterruptedException {
        try {
            send.get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | CompletionException e) {
            return e.getCause();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("the send was neither confirmed nor failed", e);
        }
        throw new AssertionError("the send was confirmed");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
