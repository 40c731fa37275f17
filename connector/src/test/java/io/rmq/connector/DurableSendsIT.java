package io.rmq.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rmq.connector.i18n.RmqLogging;
import io.rmq.engine.produce.DurabilityException;
import io.rmq.engine.produce.WriteState;
import io.rmq.testing.LogRecorder;
import io.rmq.testing.WeldApp;
import io.rmq.testing.redis.RedisProcess;
import io.rmq.testing.redis.RedisSentinelTestServer;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;

/**
 * The {@code durability} attribute through SmallRye on Weld: on one Redis without replica every message
 * sent with {@code replicas:1} is nacked after {@code durability-timeout} with RMQ-2040 naming the channel,
 * the topic, the replicas reached and required and the settings, and none is acked; under Sentinel (a
 * master and one replica) the same messages are acked, as they are on the single Redis once a replica is
 * attached to it.
 */
@RedisTest
class DurableSendsIT {

    private static final String RMQ = RedisRmqConnector.CONNECTOR_NAME;

    private WeldApp app;

    @AfterEach
    void stop() {
        if (app != null) {
            app.close();
        }
    }

    private ConnectorBeans.Sender start(String uri, Object... durability) {
        app = WeldApp.builder().beans(RedisRmqConnector.class, ConnectorBeans.Sender.class)
                .config("mp.messaging.connector." + RMQ + ".redis-uri", uri)
                .outgoing("out", RMQ, prepend(durability, "topic", "t", "topic-type", "PRIORITY", "priority", 1))
                .start();
        return app.get(ConnectorBeans.Sender.class);
    }

    @Test
    void withoutReplicasEveryDurableMessageIsNackedAfterTheTimeoutAndNoneIsAcked(RedisTestServer redis)
            throws Exception {
        try (LogRecorder log = LogRecorder.record(RmqLogging.LOGGER_NAME)) {
            ConnectorBeans.Sender sender = start(redis.uri(), "durability", "replicas:1", "durability-timeout", 300);
            List<CompletableFuture<Void>> settled = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                settled.add(sender.send("m" + i, null).toCompletableFuture());
            }

            int notReplicated = 0;
            for (CompletableFuture<Void> message : settled) {
                Throwable reason = nackReason(message);
                if (!(reason instanceof RmqSendException)) {
                    // not even written within the timeout (a busy machine, the first sends while the connection
                    // opens): nothing was stored, the reason says so
                    assertThat(reason).hasMessageStartingWith("RMQ-0374");
                    assertThat(WriteState.of(reason)).isEqualTo(WriteState.NOT_WRITTEN);
                    continue;
                }
                // stored by the master, not confirmed: the reason says so without its text being read
                assertThat(reason).isInstanceOf(RmqSendException.class);
                assertThat(WriteState.of(reason).mayHaveBeenWritten()).isTrue();
                if (((RmqSendException) reason).writeState() == WriteState.MAYBE_WRITTEN) {
                    // written behind a WAIT, its reply came after its deadline on a busy machine: RMQ-2105
                    assertThat(reason).hasMessageStartingWith("RMQ-2105 Channel 'out' wrote a message to topic 't'");
                    continue;
                }
                notReplicated++;
                assertThat(reason).hasMessage("RMQ-2040 Channel 'out' sent a message to topic 't' that reached 0 of"
                        + " the 1 replica(s) required (channel attribute 'durability' = 'replicas:1') within 300 ms"
                        + " ('durability-timeout'): the master stored it, but it may be lost if the master fails now;"
                        + " check that enough replicas are connected, or lower 'durability' or raise"
                        + " 'durability-timeout'").hasCauseInstanceOf(DurabilityException.class);
                assertThat(((RmqSendException) reason).writeState()).isEqualTo(WriteState.WRITTEN_UNCONFIRMED);
            }
            assertThat(notReplicated).as("messages nacked with RMQ-2040").isPositive();
            assertThat(sender.acked()).as("messages acked").isEmpty();
            assertThat(sender.nacked()).hasSize(20);
            assertThat(log.messagesContaining("RMQ-1040")).hasSize(1);
        }
    }

    @Test
    void onceAReplicaIsAttachedDurableMessagesAreAckedAgain(RedisTestServer redis, @TempDir Path dir) throws Exception {
        try (LogRecorder log = LogRecorder.record(RmqLogging.LOGGER_NAME)) {
            ConnectorBeans.Sender sender = start(redis.uri(), "durability", "replicas:1", "durability-timeout", 2000);
            assertThat(nackReason(sender.send("before", null).toCompletableFuture())).hasMessageStartingWith("RMQ-2040");

            try (RedisProcess replica = RedisProcess.start(dir,
                    List.of("replicaof " + RedisProcess.HOST + " " + redis.port()), false)) {
                await("the replica in sync").atMost(Duration.ofSeconds(30)).until(replica::replicaInSyncOrMaster);
                // the master counts a replica for WAIT only once it sees it online, which may come later
                await("the master sees its replica online").atMost(Duration.ofSeconds(30))
                        .until(() -> RedisProcess.cli(redis.port(), "INFO", "replication").contains("state=online"));
                sender.send("after", null).toCompletableFuture().get(30, TimeUnit.SECONDS);

                assertThat(sender.acked()).containsExactly("after");
                // the nacked message was stored all the same, and reached the replica with its first sync
                assertThat(totalPending(replica)).isEqualTo(2);
                assertThat(log.messagesContaining("RMQ-1041")).containsExactly("RMQ-1041 Channel 'out': sends to topic"
                        + " 't' are confirmed by 1 replica(s) again");
            }
        }
    }

    @Test
    void underSentinelWithOneReplicaDurableMessagesAreAcked() throws Exception {
        try (RedisSentinelTestServer sentinel = RedisSentinelTestServer.start()) {
            ConnectorBeans.Sender sender = start(sentinel.uri(), "durability", "replicas:1");
            List<CompletableFuture<Void>> settled = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                settled.add(sender.send("m" + i, null).toCompletableFuture());
            }
            CompletableFuture.allOf(settled.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);

            assertThat(sender.nacked()).isEmpty();
            assertThat(sender.acked()).hasSize(200);
            long onReplica = sentinel.servers().stream().filter(s -> s != sentinel.master())
                    .mapToLong(s -> totalPending(s)).sum();
            assertThat(onReplica).isEqualTo(200);
        }
    }

    private static long totalPending(RedisProcess server) {
        long n = 0;
        for (int slot = 0; slot < 16; slot++) {
            n += Long.parseLong(server.cli("ZCARD", "t_" + slot));
        }
        return n;
    }

    private static Throwable nackReason(CompletableFuture<Void> settled) throws Exception {
        try {
            settled.get(Duration.ofSeconds(30).toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        }
        throw new AssertionError("the message was acked");
    }

    private static Object[] prepend(Object[] tail, Object... head) {
        Object[] all = new Object[head.length + tail.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }
}
