package io.rmq.engine.produce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.engine.RmqEngine;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.scripts.SendResult;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.CommandStats;
import io.rmq.testing.redis.RedisClusterExtension;
import io.rmq.testing.redis.RedisClusterTestServer;
import io.rmq.testing.redis.RedisProcess;

/**
 * Durable sends on a Redis Cluster (3 masters, each with one replica): each slot's sends and their
 * {@code WAIT} go to the slot's master, so sends are confirmed on every master; with one master killed
 * ({@code SIGKILL}) during a stream of durable sends, no confirmed send is lost after its replica takes over, and
 * every send is settled in time ({@link DurableSettleScenario}).
 */
@ExtendWith(RedisClusterExtension.class)
class DurableSendClusterIT {

    private static final TopicDefinition TOPIC = new TopicDefinition("durable", 16, TopicType.PRIORITY);
    private static final ProducerOptions ONE_REPLICA = ProducerOptions.builder().durableReplicas(1)
            .durabilityTimeout(Duration.ofSeconds(1)).build();

    @Test
    void durableSendsAreConfirmedOnEveryMaster(RedisClusterTestServer cluster) throws Exception {
        try (RmqEngine engine = new RmqEngine(RedisAccess.of(cluster.uri())).start()) {
            TopicKeys keys = engine.registerTopic(TOPIC).toCompletableFuture().get(30, TimeUnit.SECONDS);
            TopicProducer producer = engine.producer(keys, ONE_REPLICA);
            java.util.Map<RedisProcess, Long> waitsBefore = new java.util.HashMap<>();
            cluster.masters().forEach(m -> waitsBefore.put(m, waitCalls(m)));
            List<CompletableFuture<SendResult>> sends = new ArrayList<>();
            for (int i = 0; i < 2_000; i++) {
                sends.add(producer.sendWithPriority(bytes("m" + i), 1, null).toCompletableFuture());
            }
            CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

            Set<Integer> slotsSent = ConcurrentHashMap.newKeySet();
            sends.forEach(s -> slotsSent.add(s.join().slot()));
            assertThat(slotsSent).hasSize(16);
            // every master took writes and ran WAITs: no WAIT went to a node that did not take the writes
            for (RedisProcess master : cluster.masters()) {
                assertThat(waitCalls(master) - waitsBefore.get(master)).as("WAITs on " + master).isPositive();
            }
        }
    }

    @Test
    void withAMasterKilledDuringAStreamOfDurableSendsNoConfirmedSendIsLost(RedisClusterTestServer cluster)
            throws Exception {
        try (RmqEngine engine = new RmqEngine(RedisAccess.of(cluster.uri())).start()) {
            TopicKeys keys = engine.registerTopic(TOPIC).toCompletableFuture().get(30, TimeUnit.SECONDS);
            DurableStream stream = new DurableStream(engine.producer(keys, ONE_REPLICA));
            await().atMost(Duration.ofSeconds(60)).until(() -> stream.confirmed.size() >= 3_000);

            cluster.killMasterOf(keys.slot(0).store());
            int confirmedAtKill = stream.confirmed.size();
            // go on through the failover until sends are confirmed again on the other masters' slots
            await().atMost(Duration.ofSeconds(90))
                    .until(() -> stream.failed.get() > 0 && stream.confirmed.size() > confirmedAtKill + 3_000);
            stream.stop();

            stream.assertNoConfirmedSendLost(engine, keys, Duration.ofSeconds(90));
            System.out.println("DURABLE FAILOVER cluster: " + stream + " (" + confirmedAtKill
                    + " confirmed before the kill), confirmed and lost 0");
        }
    }

    /** See {@link DurableSettleScenario}: settled in time, nothing said unwritten delivered, nothing acked lost. */
    @Test
    void throughAMasterKillEveryDurableSendIsSettledInTimeAndSaysWhetherItMayHaveBeenWritten(
            RedisClusterTestServer cluster) throws Exception {
        String key = new TopicKeys(new TopicDefinition("settle", 16, TopicType.PRIORITY)).slot(0).store();
        new DurableSettleScenario(cluster.uri(), "cluster").run(new DurableSettleScenario.Failover() {
            @Override
            public void kill() {
                cluster.killMasterOf(key);
            }

            @Override
            public void awaitPromotion() {
                cluster.awaitHealthy();
            }

            @Override
            public void heal() {
                cluster.heal();
            }
        });
    }

    private static long waitCalls(RedisProcess master) {
        return CommandStats.calls(master.cli("INFO", "commandstats"), "wait");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
