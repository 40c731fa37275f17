package io.rmq.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.InstanceSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rmq.engine.coordination.CoordinationOptions;
import io.rmq.testing.faults.FaultProxy;
import io.rmq.testing.redis.RedisProcess;
import io.rmq.testing.zookeeper.ZooKeeperTestEnsemble;
import io.rmq.testing.zookeeper.ZooKeeperTestServer;

/**
 * Scenario d: faults of the ZooKeeper coordination during a coordinated stream (each slot owned by one
 * worker; three consumer JVMs): the network to ZooKeeper reset, silenced (half-open) and cut for longer
 * than the session timeout (the sessions expire), the JVM of the leading worker killed with
 * {@code kill -9}, and a server of a three-server ensemble killed. No key is ever processed by two
 * workers at once, and nothing is lost.
 */
class ZooKeeperFaultIT {

    private static final int MESSAGES = FaultSizes.of(12_000, 100_000);
    private static final int RATE = FaultSizes.of(800, 2_000);
    private static final long PREPARE_TIMEOUT_MS = 3_000;
    /** Processing takes long enough that two workers processing one key at once would show. */
    private static final long PROCESSING_MICROS = 1_000;

    @Test
    void networkFaultsSessionExpiryAndTheLeadersDeath(@TempDir Path dir) throws Exception {
        try (RedisProcess redis = RedisProcess.start(dir, List.of(), false); ZooKeeperTestServer zooKeeper = ZooKeeperTestServer.start();
                FaultProxy proxy = FaultProxy.to(zooKeeper.port());
                Scenario scenario = new Scenario("zookeeper faults", redis.uri());
                CuratorFramework reader = reader(zooKeeper.connectString())) {
            ConsumerJvm.Spec spec = new ConsumerJvm.Spec(redis.uri(), scenario.topic.name(), Scenario.SLOTS, dir,
                    proxy.address(), PREPARE_TIMEOUT_MS, PROCESSING_MICROS, 1);
            ConsumerFleet workers = new ConsumerFleet(spec, 3);
            try {
                Load load = scenario.send(MESSAGES, 400, RATE);
                List<String> faults = new ArrayList<>();
                long pause = MESSAGES * 1000L / RATE / 6;

                Thread.sleep(pause); // the pace of the faults, not a wait for an event
                proxy.reset();
                faults.add("every ZooKeeper connection reset");

                Thread.sleep(pause);
                proxy.silence();
                faults.add("every ZooKeeper connection silenced (half-open)");

                Thread.sleep(pause);
                proxy.refuse(true);
                proxy.silence();
                Thread.sleep(Scenario.coordination("-").build().sessionTimeout().toMillis() * 2); // the sessions expire
                proxy.refuse(false);
                faults.add("ZooKeeper unreachable for twice the session timeout (sessions expired)");

                Thread.sleep(pause);
                String leader = awaitLeader(reader, scenario);
                workers.killAndReplace(leader);
                faults.add("kill -9 of the leading worker's JVM");

                long lastSend = load.await(10);
                scenario.awaitDrained();
                long drained = System.currentTimeMillis();
                workers.stopAll();

                Verdict verdict = scenario.verdict(true, workers.historyFiles());
                scenario.report(verdict, String.join(", ", faults), Scenario.seconds(drained - lastSend)
                        + " to drain after the last send");
                assertThat(verdict.overlaps()).as(verdict.problems()).isEmpty();
                assertThat(verdict.lost()).as(verdict.problems()).isEmpty();
                assertThat(verdict.deadLettered()).isEmpty();
                assertThat(workers.linesContaining("RMQ-0204")).as("sessions that expired (RMQ-0204)").isPositive();
            } finally {
                workers.close();
            }
        }
    }

    @Test
    void aServerOfTheEnsembleDies(@TempDir Path dir) throws Exception {
        try (RedisProcess redis = RedisProcess.start(dir, List.of(), false);
                ZooKeeperTestEnsemble ensemble = ZooKeeperTestEnsemble.start(3);
                Scenario scenario = new Scenario("zookeeper leader loss", redis.uri())) {
            ConsumerJvm.Spec spec = new ConsumerJvm.Spec(redis.uri(), scenario.topic.name(), Scenario.SLOTS, dir,
                    ensemble.connectString(), PREPARE_TIMEOUT_MS, PROCESSING_MICROS, 1);
            ConsumerFleet workers = new ConsumerFleet(spec, 3);
            try {
                Load load = scenario.send(MESSAGES / 2, 400, RATE);
                Thread.sleep(MESSAGES / 2 * 1000L / RATE / 3); // the pace of the faults
                InstanceSpec zooKeeperLeader = ensemble.awaitLeader(30_000);
                ensemble.kill(zooKeeperLeader);
                long killed = System.currentTimeMillis();
                InstanceSpec next = ensemble.awaitLeader(30_000);
                long elected = System.currentTimeMillis();
                long lastSend = load.await(10);
                scenario.awaitDrained();
                long drained = System.currentTimeMillis();
                workers.stopAll();

                Verdict verdict = scenario.verdict(true, workers.historyFiles());
                scenario.report(verdict, "the leading server of a 3-server ZooKeeper ensemble killed",
                        Scenario.seconds(elected - killed) + " to elect server " + next.getServerId() + "; "
                                + Scenario.seconds(drained - lastSend) + " to drain after the last send");
                assertThat(verdict.overlaps()).as(verdict.problems()).isEmpty();
                assertThat(verdict.lost()).as(verdict.problems()).isEmpty();
                assertThat(verdict.deadLettered()).isEmpty();
            } finally {
                workers.close();
            }
        }
    }

    private static CuratorFramework reader(String connect) {
        CuratorFramework c = CuratorFrameworkFactory.newClient(connect, new RetryOneTime(200));
        c.start();
        return c;
    }

    /** The worker id of the topic's leader, as the assignment it published records it. */
    private static String awaitLeader(CuratorFramework reader, Scenario scenario) {
        String path = CoordinationOptions.DEFAULT_ROOT + "/topics/"
                + URLEncoder.encode(scenario.topic.keyPrefix() + scenario.topic.name(), StandardCharsets.UTF_8) + "/assignment";
        return await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
            String text = new String(reader.getData().forPath(path), StandardCharsets.UTF_8);
            return text.lines().filter(l -> l.startsWith("leader ")).map(l -> l.substring("leader ".length()).strip())
                    .findFirst();
        }, Optional::isPresent).orElseThrow();
    }
}
