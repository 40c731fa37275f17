package io.rmq.connector.config;

import static io.rmq.connector.config.TestConfigs.channel;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rmq.engine.coordination.CoordinationOptions;

/** The {@code zookeeper-*} attributes of incoming channels: serial consumption per key. */
class CoordinationAttributesTest {

    @Test
    void withoutZookeeperConnectThereIsNoCoordination() {
        IncomingChannelConfig config = IncomingChannelConfig.from(channel("in", "topic-type", "PRIORITY",
                "zookeeper-root", "/apps/rmq", "zookeeper-session-timeout", "5000"));

        assertThat(config.coordination()).isEmpty();
        assertThat(config.consumerOptions().coordination()).isEmpty();
    }

    @Test
    void zookeeperConnectTurnsCoordinationOnWithTheDefaults() {
        IncomingChannelConfig config = IncomingChannelConfig.from(channel("in", "topic-type", "PRIORITY",
                "zookeeper-connect", "zk1:2181,zk2:2181,zk3:2181"));

        CoordinationOptions coordination = config.coordination().orElseThrow();
        assertThat(coordination).isEqualTo(CoordinationOptions.builder("zk1:2181,zk2:2181,zk3:2181").build());
        assertThat(coordination.root()).isEqualTo("/rmq");
        assertThat(config.toString()).contains("zk1:2181,zk2:2181,zk3:2181");
    }

    @Test
    void everyCoordinationAttributeIsRead() {
        IncomingChannelConfig config = IncomingChannelConfig.from(channel("in", "topic-type", "FIXED_TIME",
                "zookeeper-connect", "zk:2181/chroot",
                "zookeeper-root", "/apps/rmq",
                "zookeeper-session-timeout", "6000",
                "zookeeper-connection-timeout", "3000",
                "zookeeper-rebalance-delay", "0"));

        CoordinationOptions c = config.coordination().orElseThrow();
        assertThat(c.connectString()).isEqualTo("zk:2181/chroot");
        assertThat(c.root()).isEqualTo("/apps/rmq");
        assertThat(c.sessionTimeout()).isEqualTo(Duration.ofSeconds(6));
        assertThat(c.connectionTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(c.rebalanceDelay()).isZero();
    }

    @Test
    void badValuesAreReportedTogetherNamingEachAttribute() {
        List<ConfigProblem> problems = IncomingChannelConfig.validate(channel("in", "topic-type", "PRIORITY",
                "zookeeper-connect", "zk:port",
                "zookeeper-root", "rmq",
                "zookeeper-session-timeout", "10",
                "zookeeper-connection-timeout", "soon",
                "zookeeper-rebalance-delay", "-1"));

        assertThat(problems).extracting(ConfigProblem::attribute).containsExactly("zookeeper-connect",
                "zookeeper-root", "zookeeper-session-timeout", "zookeeper-connection-timeout", "zookeeper-rebalance-delay");
        assertThat(problems.get(0).toString()).isEqualTo("Channel 'in' (incoming): attribute 'zookeeper-connect' = "
                + "'zk:port' is invalid: a ZooKeeper connect string host:port[,host:port...][/chroot] is required; "
                + "'zk:port' has a port that is not a number");
        assertThat(problems.get(1).describe()).contains("'rmq'").contains("absolute ZooKeeper path");
    }

    @Test
    void aBadRootIsReportedEvenWithoutCoordinationSinceItMayBeSetForEveryChannel() {
        List<ConfigProblem> problems = IncomingChannelConfig.validate(channel("in", "topic-type", "PRIORITY",
                "zookeeper-root", "/rmq/"));

        assertThat(problems).extracting(ConfigProblem::attribute).containsExactly("zookeeper-root");
    }
}
