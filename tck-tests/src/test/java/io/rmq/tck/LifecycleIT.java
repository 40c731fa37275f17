package io.rmq.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.tck.deployment.TckDeployment;
import io.rmq.tck.support.Inbox;
import io.rmq.tck.support.RedisProbe;
import io.rmq.testing.redis.RedisTestServer;

/**
 * Undeploying and redeploying, as in a rolling restart: a stopping application finishes and commits
 * what it is processing and returns what it prefetched, so nothing stays in the prepare queue and
 * nothing is processed twice; it leaves no Redis connection open; deployed again, it goes on where
 * it stopped. Runs on the client, which deploys the application itself and watches Redis.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
public class LifecycleIT {

    static final String APP = "app";
    static final String PREFIX = TckDeployment.keyPrefix("LifecycleIT-" + APP);
    static final int MESSAGES = 200;

    @Deployment(name = APP, managed = false)
    public static WebArchive application() {
        return TckDeployment.of(LifecycleIT.class, APP)
                .incoming("backlog", "topic-type", "PRIORITY", "slot-amount", 1, "batch-size", 20, "poll-interval", 200)
                .build();
    }

    /**
     * Processes the backlog slowly, and records in Redis what it processed: the set
     * {@code <prefix>processed}, and {@code <prefix>duplicates} counting messages processed twice.
     */
    @ApplicationScoped
    public static class BacklogProcessor {
        @Inject
        RedisProbe probe;

        @Incoming("backlog")
        public void process(String item) throws InterruptedException {
            Thread.sleep(10); // the slow processing itself, so that the application stops part way
            if (probe.redis().sadd(probe.key("processed"), item) == 0) {
                probe.redis().incr(probe.key("duplicates"));
            }
        }
    }

    @ArquillianResource
    Deployer deployer;

    private RedisClient client;
    private StatefulRedisConnection<String, String> connection;
    private RedisCommands<String, String> redis;

    @BeforeEach
    void connect() {
        client = RedisClient.create(RedisTestServer.shared().uri());
        connection = client.connect();
        redis = connection.sync();
    }

    @AfterEach
    void disconnect() {
        connection.close();
        client.shutdown();
    }

    @Test
    public void anApplicationStoppedWhileConsumingCommitsWhatItProcessedAndResumesWhenDeployedAgain() {
        List<String> items = IntStream.range(0, MESSAGES).mapToObj(i -> "item-" + i).collect(Collectors.toList());
        for (String item : items) {
            redis.zadd(PREFIX + "backlog_0", 1, item);
        }

        deployer.deploy(APP);
        await().atMost(Inbox.WAIT).until(() -> redis.scard(PREFIX + "processed") >= 20);
        deployer.undeploy(APP);

        long processed = redis.scard(PREFIX + "processed");
        assertThat(processed).as("stopped part way").isLessThan(MESSAGES);
        assertThat(redis.zcard("prepare{" + PREFIX + "backlog_0}")).as("nothing left in the prepare queue").isZero();
        assertThat(redis.zcard(PREFIX + "backlog_0")).as("the rest is pending").isEqualTo(MESSAGES - processed);
        assertNoConnectionLeft();

        deployer.deploy(APP);
        await().atMost(Inbox.WAIT.multipliedBy(2)).until(() -> redis.scard(PREFIX + "processed") == MESSAGES);
        await().atMost(Inbox.WAIT).until(() -> redis.zcard("prepare{" + PREFIX + "backlog_0}") == 0);
        deployer.undeploy(APP);

        assertThat(redis.smembers(PREFIX + "processed")).containsExactlyInAnyOrderElementsOf(items);
        assertThat(redis.get(PREFIX + "duplicates")).as("nothing processed twice").isNull();
        assertThat(redis.zcard(PREFIX + "backlog_0")).isZero();
        assertNoConnectionLeft();
    }

    /** Only this test's own connection is left: the application closed all of its connections when it stopped. */
    private void assertNoConnectionLeft() {
        long own = redis.clientId();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(otherConnections(own)).isEmpty());
    }

    private List<String> otherConnections(long own) {
        return redis.clientList().lines()
                .filter(line -> !line.startsWith("id=" + own + " "))
                .collect(Collectors.toList());
    }
}
