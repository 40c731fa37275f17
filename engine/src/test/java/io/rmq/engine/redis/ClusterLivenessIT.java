package io.rmq.engine.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rmq.engine.RmqEngine;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.produce.SendsResume;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.LogRecorder;
import io.rmq.testing.faults.FaultProxy;
import io.rmq.testing.redis.RedisProcess;

/**
 * On a Redis Cluster, a master's connection that goes half-open is found by its {@code PING}, closed
 * (RMQ-0170) and reconnected by Lettuce, so that sends to that master's slots and their consumption resume
 * within a bounded time instead of timing out for ever. The cluster is one master that announces a proxy's
 * port, so every connection the client opens to it, node connections included, passes the proxy.
 */
class ClusterLivenessIT {

    private static final TopicDefinition TOPIC = new TopicDefinition("cluster-live", 4, TopicType.PRIORITY);

    /**
     * {@link ConnectionLiveness#PUB_SUB_TICKS} intervals between a node's checks, its {@code PING}'s command
     * timeout, a reconnection, and a send's own command timeout if it was written on the silent connection.
     */
    private static final Duration REPLACED_WITHIN = RmqClient.LIVENESS_INTERVAL
            .multipliedBy(ConnectionLiveness.PUB_SUB_TICKS + 1).plus(RedisAccess.DEFAULT_COMMAND_TIMEOUT.multipliedBy(2))
            .plusSeconds(10);

    @Test
    void aSilencedNodeConnectionIsReplacedAndSendsAndConsumptionResume(@TempDir Path dir) throws Exception {
        try (RedisProcess node = RedisProcess.start(dir, List.of("cluster-enabled yes", "cluster-config-file nodes.conf",
                "cluster-require-full-coverage no"), false);
                FaultProxy proxy = FaultProxy.to(node.port())) {
            node.cli("CONFIG", "SET", "cluster-announce-ip", RedisProcess.HOST);
            node.cli("CONFIG", "SET", "cluster-announce-port", Integer.toString(proxy.port()));
            node.cli("CLUSTER", "ADDSLOTSRANGE", "0", "16383");
            Awaitility.await("the one-master cluster up").atMost(Duration.ofSeconds(30))
                    .until(() -> node.cli("CLUSTER", "INFO").contains("cluster_state:ok"));
            try (LogRecorder log = LogRecorder.record(EngineLogging.LOGGER_NAME);
                    RmqEngine engine = new RmqEngine("redis://" + proxy.address()).start()) {
                TopicKeys keys = engine.registerTopic(TOPIC).toCompletableFuture().get(30, TimeUnit.SECONDS);
                TopicProducer producer = engine.producer(keys);
                BlockingQueue<String> consumed = new LinkedBlockingQueue<>();
                TopicConsumer consumer = engine.consumer(keys, ConsumerOptions.builder().build(), "live");
                consumer.start(d -> {
                    consumed.add(new String(d.content(), StandardCharsets.UTF_8));
                    d.commit();
                });
                consumer.request(Long.MAX_VALUE);
                producer.sendWithPriority(bytes("before"), 1, null).toCompletableFuture().get(30, TimeUnit.SECONDS);
                assertThat(consumed.poll(30, TimeUnit.SECONDS)).isEqualTo("before");

                proxy.silence(); // every connection open now carries nothing any more

                String stored = SendsResume.awaitStored(producer, REPLACED_WITHIN);
                assertThat(log.messagesContaining("RMQ-0170")).anySatisfy(m -> assertThat(m)
                        .startsWith("RMQ-0170 The node 127.0.0.1:" + proxy.port() + " connection to Redis at redis://"
                                + proxy.address() + " did not answer a PING"));
                Awaitility.await("the stored send consumed").atMost(REPLACED_WITHIN).until(() -> consumed.contains(stored));
                consumer.close();
            }
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
