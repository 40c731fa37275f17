package io.rmq.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Optional;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.tck.client.HealthEndpoint;
import io.rmq.tck.deployment.TckDeployment;
import io.rmq.tck.rules.FailureStrategyRules;
import io.rmq.tck.support.Inbox;

/**
 * The rules of {@link FailureStrategyRules}, in a deployment of their own; on Open Liberty, also as an orchestrator
 * sees the channel that the rule {@code failRollsTheMessagesBackAndTheChannelsLivenessGoesDown} failed:
 * {@code GET /health/live} answers 503 with that channel DOWN and the others UP. The tests run in the order of their
 * names, so that this one, on the client, comes after the rule.
 */
@ExtendWith(ArquillianExtension.class)
@TestMethodOrder(MethodOrderer.MethodName.class)
public class FailureStrategyIT extends FailureStrategyRules {

    @Deployment
    public static WebArchive deployment() {
        return TckDeployment.of(FailureStrategyIT.class).channels(CHANNELS).build();
    }

    @Test
    @RunAsClient
    public void theLivenessEndpointShowsTheFailedChannelDown() {
        Optional<Integer> port = HealthEndpoint.libertyHttpPort();
        assumeTrue(port.isPresent(), "an HTTP health endpoint: served by Open Liberty (mpHealth-4.0), not by Weld embedded");
        // No lambda of this class takes a client type as a parameter (see HealthIT).
        await().atMost(Inbox.WAIT).untilAsserted(() -> {
            HealthEndpoint.Check check = HealthEndpoint.check(port.get(), "/health/live", TckDeployment.CONNECTOR)
                    .orElseThrow(() -> new AssertionError("no " + TckDeployment.CONNECTOR + " check at /health/live"));
            assertThat(check.httpStatus()).as("HTTP status of %s", check).isEqualTo(503);
            assertThat(check.status()).as("status of %s", check).isEqualTo("DOWN");
            assertThat(check.data().get(FAIL)).as("data of %s", check).startsWith("incoming, topic " + FAIL + ", FAILED: RMQ-2361");
            assertThat(check.data().get(IGNORE)).as("data of %s", check).isEqualTo("incoming, topic " + IGNORE + ", UP");
        });
    }
}
