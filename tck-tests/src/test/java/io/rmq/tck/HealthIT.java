package io.rmq.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;
import org.eclipse.microprofile.health.Startup;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.tck.client.HealthEndpoint;
import io.rmq.tck.deployment.TckDeployment;
import io.rmq.tck.support.Inbox;

/**
 * Health: with the CDI extension and a runtime that serves MicroProfile Health, the application has
 * readiness, liveness and startup checks named {@code smallrye-redis-rmq}, UP while Redis answers,
 * with one data entry per channel ({@code <channel>: <direction>, topic <topic>, <STATE>}); on Open
 * Liberty, {@code GET /health/ready} shows it.
 */
@ExtendWith(ArquillianExtension.class)
public class HealthIT {

    static final String CHECK = TckDeployment.CONNECTOR;
    static final Map<String, String> CHANNELS_UP = Map.of(
            "reminders", "incoming, topic reminders, UP",
            "reminders-out", "outgoing, topic reminders, UP");

    @Deployment
    public static WebArchive deployment() {
        return TckDeployment.of(HealthIT.class)
                .outgoing("reminders-out", "topic", "reminders", "topic-type", "FIXED_TIME")
                .incoming("reminders", "topic-type", "FIXED_TIME", "poll-interval", 200)
                .build();
    }

    /** Sends and consumes reminders, so that the application has a channel in each direction. */
    @ApplicationScoped
    public static class Reminders {
        @Inject
        @Channel("reminders-out")
        Emitter<String> emitter;

        @Incoming("reminders")
        public void remind(String reminder) {
        }
    }

    @Inject
    @Readiness
    Instance<HealthCheck> readiness;

    @Inject
    @Liveness
    Instance<HealthCheck> liveness;

    @Inject
    @Startup
    Instance<HealthCheck> startup;

    @Test
    public void theReadinessLivenessAndStartupChecksAreUpWithEveryChannel() {
        for (Instance<HealthCheck> kind : List.of(readiness, liveness, startup)) {
            await().atMost(Inbox.WAIT).untilAsserted(() -> {
                HealthCheckResponse response = ours(kind);
                assertThat(response.getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
                assertThat(response.getData()).hasValueSatisfying(data -> assertThat(data).isEqualTo(CHANNELS_UP));
            });
        }
    }

    /** The connector's check among those of one kind: exactly one. */
    private static HealthCheckResponse ours(Instance<HealthCheck> checks) {
        return checks.stream().map(HealthCheck::call).filter(r -> CHECK.equals(r.getName()))
                .reduce((a, b) -> {
                    throw new AssertionError("two checks named " + CHECK);
                })
                .orElseThrow(() -> new AssertionError("no check named " + CHECK));
    }

    @Test
    @RunAsClient
    public void theReadinessEndpointShowsTheCheckUpWithItsChannels() {
        Optional<Integer> port = HealthEndpoint.libertyHttpPort();
        assumeTrue(port.isPresent(), "an HTTP health endpoint: served by Open Liberty (mpHealth-4.0), not by Weld embedded");

        // No lambda of this class takes a client type as a parameter: the class is loaded in the server
        // too, where the client package is not, and JUnit's discovery reads its methods' signatures.
        await().atMost(Inbox.WAIT).untilAsserted(() -> {
            HealthEndpoint.Check check = HealthEndpoint.check(port.get(), "/health/ready", CHECK)
                    .orElseThrow(() -> new AssertionError("no " + CHECK + " check at /health/ready"));
            assertThat(check.status()).as("status of %s", check).isEqualTo("UP");
            assertThat(check.data()).as("data of %s", check).isEqualTo(CHANNELS_UP);
        });
    }
}
