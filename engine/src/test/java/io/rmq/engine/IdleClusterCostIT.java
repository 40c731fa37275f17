package io.rmq.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisClusterTestServer;
import io.rmq.testing.redis.RedisProcess;

/**
 * What an idle consumer of an empty 16-slot topic costs a Redis Cluster of the test's own (three masters,
 * three replicas), with default settings: there the existence checks of the safety poll and the sweeper
 * become one {@code EXISTS} per slot, since the slots' keys live in different hash slots. Counts
 * {@code total_commands_processed} on the masters (where the consumer's commands go) and on every node
 * (replicas also count the replication {@code PING}s of their master, every node the client's topology
 * reads), less the test's own {@code INFO} and the {@code REPLCONF ACK} each replica sends its master every
 * second (replication, which costs the same with no client); prints {@code IDLE COST cluster ...} and
 * each master's command statistics. Asserts a loose bound (12 per second) against regressions.
 */
class IdleClusterCostIT {

    private static final int SLOTS = 16;
    private static final Duration SETTLE = Duration.ofSeconds(12);
    private static final Duration WINDOW = Duration.ofSeconds(60);

    @Test
    void anIdleConsumerCostsTheClusterAFewCommandsPerSecond() throws Exception {
        try (RedisClusterTestServer cluster = RedisClusterTestServer.start();
                RmqEngine engine = new RmqEngine(cluster.uri()).start()) {
            engine.ready().toCompletableFuture().join();
            TopicKeys keys = EngineFixture.register(engine, new TopicDefinition("idle", SLOTS, TopicType.FIXED_TIME));
            TopicConsumer consumer = engine.consumer(keys, ConsumerOptions.builder().build(), "idle");
            consumer.start(Delivery::commit);
            consumer.request(Long.MAX_VALUE);
            List<RedisProcess> masters = cluster.masters();
            List<RedisProcess> nodes = cluster.running();
            await().pollDelay(SETTLE).atMost(SETTLE.plusSeconds(5)).until(() -> true);
            long mastersBefore = processed(masters);
            long allBefore = processed(nodes);
            long from = System.nanoTime();
            await().pollDelay(WINDOW).atMost(WINDOW.plusSeconds(5)).until(() -> true);
            long mastersAfter = processed(masters);
            long allAfter = processed(nodes);
            double seconds = (System.nanoTime() - from) / 1e9;
            // the earlier readings' INFO calls: a master was read twice before its "after" readings, a replica once
            long onMasters = mastersAfter - mastersBefore - 2L * masters.size();
            long onAll = allAfter - allBefore - nodes.size() - masters.size();
            System.out.printf("IDLE COST cluster, engine consumer, %d slots: %d commands on the %d masters in %.1f s = %.2f"
                    + " per second; on all %d nodes %d = %.2f per second%n", SLOTS, onMasters, masters.size(), seconds,
                    onMasters / seconds, nodes.size(), onAll, onAll / seconds);
            masters.forEach(m -> System.out.println("IDLE COST cluster master " + m.address() + " since its start: "
                    + m.cli("INFO", "commandstats").replaceAll("(?m)^cmdstat_([^:]+):calls=(\\d+).*$", "$1=$2")
                            .replaceAll("\\s+", " ")));
            assertThat(onMasters / seconds).isLessThanOrEqualTo(12.0);
            consumer.close();
        }
    }

    /**
     * Commands processed by these nodes, less the {@code REPLCONF} their replicas send every second
     * (replication acknowledgements, which a cluster costs with no client at all).
     */
    private static long processed(List<RedisProcess> nodes) {
        long total = 0;
        for (RedisProcess node : nodes) {
            for (String line : node.cli("INFO", "all").split("\\r?\\n")) {
                if (line.startsWith("total_commands_processed:")) {
                    total += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                } else if (line.startsWith("cmdstat_replconf:calls=")) {
                    total -= Long.parseLong(line.substring(line.indexOf('=') + 1, line.indexOf(',')));
                }
            }
        }
        return total;
    }
}
