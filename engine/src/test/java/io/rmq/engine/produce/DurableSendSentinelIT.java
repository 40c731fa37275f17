package io.rmq.engine.produce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rmq.engine.RmqEngine;
import io.rmq.engine.scripts.SendResult;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.CommandStats;
import io.rmq.testing.redis.RedisProcess;
import io.rmq.testing.redis.RedisSentinelTestServer;

/**
 * Durable sends under Sentinel (a master, one replica, three sentinels): sends that ask for one replica are
 * confirmed, a few {@code WAIT}s confirm many pipelined sends, and with the master killed ({@code SIGKILL})
 * in the middle of a stream of durable sends, no confirmed send is lost after the replica takes over. Also
 * measures what durability costs ({@code DURABLE COST ...}). Through a master kill at a steady rate, every send is
 * settled within the durability timeout plus {@link SendDeadlines#REPLY_ALLOWANCE} ({@link DurableSettleScenario}).
 */
class DurableSendSentinelIT {

    private static final TopicDefinition TOPIC = new TopicDefinition("durable", 16, TopicType.PRIORITY);
    private static final ProducerOptions ONE_REPLICA = ProducerOptions.builder().durableReplicas(1)
            .durabilityTimeout(Duration.ofSeconds(1)).build();
    /** Sends in flight at once, as an outgoing channel's default max-inflight. */
    private static final int WINDOW = 1024;

    private RedisSentinelTestServer sentinel;

    @BeforeEach
    void setUp() {
        sentinel = RedisSentinelTestServer.start();
    }

    @AfterEach
    void tearDown() {
        sentinel.close();
    }

    @Test
    void durableSendsAreConfirmedOnceTheReplicaHasThemAndOneWaitCoversManySends() throws Exception {
        try (RmqEngine engine = new RmqEngine(sentinel.uri()).start()) {
            TopicKeys keys = engine.registerTopic(TOPIC).toCompletableFuture().get(30, TimeUnit.SECONDS);
            TopicProducer producer = engine.producer(keys, ONE_REPLICA);
            RedisProcess master = sentinel.master();
            RedisProcess replica = sentinel.servers().stream().filter(s -> s != master).findFirst().orElseThrow();
            long waitsBefore = waitCalls(master);

            int sent = sendAll(producer, "m", 5_000);

            assertThat(sent).isEqualTo(5_000);
            long waits = waitCalls(master) - waitsBefore;
            // the WAITs ran on the master, far fewer than the sends: each confirmed what was written meanwhile
            assertThat(waits).isBetween(1L, 5_000L / 10);
            long onReplica = 0;
            for (int slot = 0; slot < TOPIC.slotAmount(); slot++) {
                onReplica += Long.parseLong(replica.cli("ZCARD", keys.slot(slot).store()));
            }
            assertThat(onReplica).as("messages on the replica once confirmed").isEqualTo(5_000);
            System.out.println("DURABLE WAITS: 5000 sends confirmed by " + waits + " WAIT calls");
        }
    }

    @Test
    void withTheMasterKilledDuringAStreamOfDurableSendsNoConfirmedSendIsLost() throws Exception {
        try (RmqEngine engine = new RmqEngine(sentinel.uri()).start()) {
            TopicKeys keys = engine.registerTopic(TOPIC).toCompletableFuture().get(30, TimeUnit.SECONDS);
            DurableStream stream = new DurableStream(engine.producer(keys, ONE_REPLICA));
            await().atMost(Duration.ofSeconds(60)).until(() -> stream.confirmed.size() >= 3_000);

            RedisProcess killed = sentinel.killMaster();
            int confirmedAtKill = stream.confirmed.size();
            sentinel.awaitFailover(killed);
            // sends go on to the promoted master, which has no replica left: they are not confirmed
            int failedAfterFailover = stream.failed.get();
            await().atMost(Duration.ofSeconds(60)).until(() -> stream.failed.get() > failedAfterFailover + 64
                    && stream.lastFailure.get() instanceof CompletionException c
                    && c.getCause() instanceof DurabilityException);
            stream.stop();
            // the durable connection followed the sentinels to the promoted master, where no replica confirms
            assertThat(((DurabilityException) stream.lastFailure.get().getCause()).reached()).isZero();

            stream.assertNoConfirmedSendLost(engine, keys, Duration.ofSeconds(60));
            System.out.println("DURABLE FAILOVER: " + stream + " (" + confirmedAtKill
                    + " confirmed before the kill), confirmed and lost 0");
        }
    }

    /** See {@link DurableSettleScenario}: settled in time, nothing said unwritten delivered, nothing acked lost. */
    @Test
    void throughAMasterKillEveryDurableSendIsSettledInTimeAndSaysWhetherItMayHaveBeenWritten() throws Exception {
        RedisProcess[] killed = new RedisProcess[1];
        new DurableSettleScenario(sentinel.uri(), "sentinel").run(new DurableSettleScenario.Failover() {
            @Override
            public void kill() {
                killed[0] = sentinel.killMaster();
            }

            @Override
            public void awaitPromotion() {
                sentinel.awaitFailover(killed[0]);
            }

            @Override
            public void heal() {
                // as a replica of the promoted master: an old master without persistence restarted as it was would be
                // empty, and taken back as the master, it would wipe the data
                killed[0].restartAsReplicaOf(sentinel.master());
            }
        });
    }

    @Test
    void measuresWhatWaitingForOneReplicaCosts() throws Exception {
        int messages = 20_000;
        try (RmqEngine engine = new RmqEngine(sentinel.uri()).start()) {
            TopicKeys keys = engine.registerTopic(TOPIC).toCompletableFuture().get(30, TimeUnit.SECONDS);
            TopicProducer plain = engine.producer(keys);
            TopicProducer durable = engine.producer(keys, ONE_REPLICA);
            sendAll(plain, "warm-plain", 2_000);
            sendAll(durable, "warm-durable", 2_000);
            StringBuilder report = new StringBuilder("DURABLE COST (" + messages + " sends, " + WINDOW
                    + " in flight):");
            for (int round = 1; round <= 3; round++) {
                long t0 = System.nanoTime();
                assertThat(sendAll(plain, "p" + round + "-", messages)).isEqualTo(messages);
                long t1 = System.nanoTime();
                assertThat(sendAll(durable, "d" + round + "-", messages)).isEqualTo(messages);
                long t2 = System.nanoTime();
                report.append(" round ").append(round).append(": none ").append(perSecond(messages, t1 - t0))
                        .append("/s, replicas:1 ").append(perSecond(messages, t2 - t1)).append("/s;");
            }
            System.out.println(report);
        }
    }

    /** Sends {@code count} distinct messages with {@link #WINDOW} in flight; returns how many were confirmed. */
    private static int sendAll(TopicProducer producer, String prefix, int count) {
        AtomicInteger ok = new AtomicInteger();
        java.util.concurrent.Semaphore window = new java.util.concurrent.Semaphore(WINDOW);
        List<CompletableFuture<SendResult>> sends = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            window.acquireUninterruptibly();
            sends.add(producer.sendWithPriority(bytes(prefix + i), 1, null).toCompletableFuture()
                    .whenComplete((r, f) -> {
                        if (f == null) {
                            ok.incrementAndGet();
                        }
                        window.release();
                    }));
        }
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).exceptionally(f -> null).join();
        return ok.get();
    }

    private static long waitCalls(RedisProcess master) {
        return CommandStats.calls(master.cli("INFO", "commandstats"), "wait");
    }

    private static long perSecond(int messages, long nanos) {
        return Math.round(messages / (nanos / 1e9));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
