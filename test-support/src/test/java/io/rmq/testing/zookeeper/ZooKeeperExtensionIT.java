package io.rmq.testing.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.zookeeper.client.FourLetterWordMain;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** The extension's own contract: one server for the class, started again when a test left it stopped. */
@ZooKeeperTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ZooKeeperExtensionIT {

    private static ZooKeeperTestServer ofTheClass;

    @BeforeAll
    static void remember(ZooKeeperTestServer server) {
        ofTheClass = server;
    }

    @Test
    @Order(1)
    void everyMethodOfTheClassGetsTheSameRunningServerAndATestMayStopIt(ZooKeeperTestServer server) throws Exception {
        assertThat(server).isSameAs(ofTheClass);
        assertThat(mode(server)).isEqualTo("standalone");

        server.stop(); // an outage the test does not end
        assertThat(server.isRunning()).isFalse();
    }

    @Test
    @Order(2)
    void aServerThatAnEarlierTestLeftStoppedRunsAgain(ZooKeeperTestServer server) throws Exception {
        assertThat(server).isSameAs(ofTheClass);
        assertThat(server.isRunning()).isTrue();
        assertThat(mode(server)).isEqualTo("standalone");
    }

    private static String mode(ZooKeeperTestServer server) throws Exception {
        String reply = FourLetterWordMain.send4LetterWord("127.0.0.1", server.port(), "srvr", false, 5_000);
        return reply.lines().filter(l -> l.startsWith("Mode: ")).map(l -> l.substring("Mode: ".length()).trim())
                .findFirst().orElse(reply);
    }
}
