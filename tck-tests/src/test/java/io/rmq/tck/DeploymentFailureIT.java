package io.rmq.tck;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.rmq.tck.deployment.TckDeployment;
import io.rmq.testing.RedisTestServer;

/**
 * A channel whose configuration cannot work fails the deployment, with a message that names the
 * channel and each attribute at fault; so does a channel that uses a topic with another type or slot
 * amount than the one recorded in Redis. Runs on the client: the test deploys each application itself.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
public class DeploymentFailureIT {

    static final String MISCONFIGURED = "misconfigured";
    static final String CONFLICTING = "conflicting";

    @Deployment(name = MISCONFIGURED, managed = false)
    public static WebArchive misconfigured() {
        return TckDeployment.of(DeploymentFailureIT.class, MISCONFIGURED)
                // no topic-type; a slot amount that is not a power of two
                .incoming("orders", "slot-amount", 12)
                .build();
    }

    @Deployment(name = CONFLICTING, managed = false)
    public static WebArchive conflicting() {
        return TckDeployment.of(DeploymentFailureIT.class, CONFLICTING)
                .incoming("orders", "topic-type", "PRIORITY", "slot-amount", 1)
                .build();
    }

    /** Consumes "orders". */
    @ApplicationScoped
    public static class OrderProcessor {
        @Incoming("orders")
        public CompletionStage<Void> process(Message<String> order) {
            return order.ack();
        }
    }

    @ArquillianResource
    Deployer deployer;

    @Test
    public void aMisconfiguredChannelFailsTheDeploymentNamingTheChannelAndEachAttribute() {
        assertThatThrownBy(() -> deployer.deploy(MISCONFIGURED))
                .hasStackTraceContaining("'orders'")
                .hasStackTraceContaining("topic-type")
                .hasStackTraceContaining("slot-amount");
    }

    @Test
    public void aChannelThatUsesATopicWithAnotherTypeFailsTheDeploymentNamingBothDefinitions() {
        RedisClient client = RedisClient.create(RedisTestServer.shared().uri());
        try (StatefulRedisConnection<String, String> redis = client.connect()) {
            // the topic "orders" as another application defined it first
            redis.sync().hset(TckDeployment.keyPrefix("DeploymentFailureIT-" + CONFLICTING) + "rmq:topics", "orders", "FIXED_TIME:1");
        } finally {
            client.shutdown();
        }
        assertThatThrownBy(() -> deployer.deploy(CONFLICTING))
                .hasStackTraceContaining("FIXED_TIME")
                .hasStackTraceContaining("PRIORITY");
    }
}
