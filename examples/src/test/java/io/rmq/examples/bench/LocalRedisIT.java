package io.rmq.examples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.rmq.testing.Prerequisites;

/** The scaling benchmark's own servers: one Redis, and a 3-master cluster, both gone after close. */
class LocalRedisIT {

    @BeforeAll
    static void redisServerAndCli() {
        Prerequisites.redisServerAndCliOnPath("the scaling benchmark (it starts its own servers and cluster)");
    }

    @Test
    void aSingleServerAnswersAndIsGoneAfterClose() throws Exception {
        List<Integer> ports;
        try (LocalRedis redis = LocalRedis.single()) {
            ports = redis.ports();
            assertThat(redis.isCluster()).isFalse();
            assertThat(ports).hasSize(1);
            assertThat(LocalRedis.cli(ports.get(0), "PING").strip()).isEqualTo("PONG");
            assertThat(LocalRedis.info(ports.get(0), "persistence")).containsEntry("aof_enabled", "0");
            assertThat(redis.uri()).isEqualTo("redis://127.0.0.1:" + ports.get(0));
        }
        assertThat(ports).allSatisfy(port -> assertThat(listening(port)).isFalse());
    }

    @Test
    void aClusterOfThreeMastersWithReplicasServesEverySlotAndIsGoneAfterClose() throws Exception {
        List<Integer> ports;
        try (LocalRedis redis = LocalRedis.cluster(3, 1)) {
            ports = redis.ports();
            assertThat(redis.isCluster()).isTrue();
            assertThat(ports).hasSize(6);
            String info = LocalRedis.cli(ports.get(0), "CLUSTER", "INFO");
            assertThat(info).contains("cluster_state:ok", "cluster_slots_assigned:16384", "cluster_size:3",
                    "cluster_known_nodes:6");
            long masters = ports.stream().filter(p -> {
                try {
                    return "master".equals(LocalRedis.info(p, "replication").get("role"));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }).count();
            assertThat(masters).isEqualTo(3);
        }
        assertThat(ports).allSatisfy(port -> assertThat(listening(port)).isFalse());
    }

    private static boolean listening(int port) {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
