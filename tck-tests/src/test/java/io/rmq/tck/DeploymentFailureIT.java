package io.rmq.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.arquillian.container.spi.client.container.DeploymentException;
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
import io.rmq.testing.redis.RedisTestServer;

/**
 * A channel whose configuration cannot work fails the deployment, with a message that names the
 * channel and each attribute at fault; with the CDI extension ({@code rmq-cdi-extension}, in every
 * deployment of the suite), several misconfigured channels fail it with one error that lists every
 * problem of every channel, before any channel is created. A channel that uses a topic with another
 * type or slot amount than the one recorded in Redis fails it too, naming both definitions. Runs on the
 * client: the test deploys each application itself.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
public class DeploymentFailureIT {

    static final String MISCONFIGURED = "misconfigured";
    static final String CONFLICTING = "conflicting";
    static final String SEVERAL_MISCONFIGURED = "several-misconfigured";

    @Deployment(name = MISCONFIGURED, managed = false)
    public static WebArchive misconfigured() {
        return TckDeployment.of(DeploymentFailureIT.class, MISCONFIGURED)
                // no topic-type; a slot amount that is not a power of two
                .incoming("orders", "slot-amount", 12)
                .build();
    }

    @Deployment(name = SEVERAL_MISCONFIGURED, managed = false)
    public static WebArchive severalMisconfigured() {
        return TckDeployment.of(DeploymentFailureIT.class, SEVERAL_MISCONFIGURED)
                // no topic-type; a slot amount that is not a power of two
                .incoming("orders", "slot-amount", 12)
                // a prepare timeout below the minimum
                .incoming("invoices", "topic-type", "PRIORITY", "prepare-timeout", 5)
                // an unknown topic type, on an outgoing channel
                .outgoing("receipts", "topic-type", "SOMETIMES")
                // a good channel, which the error does not name
                .incoming("refunds", "topic-type", "FIXED_TIME")
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

    /** Consumes "invoices" and "refunds" (deployed with {@link #severalMisconfigured()} only). */
    @ApplicationScoped
    public static class BillingProcessor {
        @Incoming("invoices")
        public CompletionStage<Void> invoice(Message<String> invoice) {
            return invoice.ack();
        }

        @Incoming("refunds")
        public CompletionStage<Void> refund(Message<String> refund) {
            return refund.ack();
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

    /**
     * The CDI extension checks every channel before the runtime creates any: the deployment fails with
     * one error (RMQ-2001) naming each bad channel with each attribute at fault and its value, and not
     * the good channel. Without the extension, the connector would report only the first channel the
     * runtime creates. No channel is created: nothing is written to Redis under the deployment's prefix.
     */
    @Test
    public void severalMisconfiguredChannelsFailTheDeploymentWithOneErrorListingEveryProblem() {
        Throwable failure = catchThrowable(() -> deployer.deploy(SEVERAL_MISCONFIGURED));
        assertThat(failure).as("the deployment's failure: CDI's on Weld embedded, the Arquillian adapter's on Open Liberty")
                .isInstanceOfAny(jakarta.enterprise.inject.spi.DeploymentException.class, DeploymentException.class)
                .hasStackTraceContaining("RMQ-2001");

        List<String> errors = rmqConfigurationErrors(failure);
        assertThat(errors).as("RMQ-2001 errors in %s", failure).isNotEmpty();
        // Open Liberty's Arquillian adapter rebuilds the exception from the server's FFDC files, one line of
        // each message: the error in full (one line per channel) is the server's log entry of the failure.
        String error = libertyServerLog().map(DeploymentFailureIT::applicationFailure).orElse(errors.get(0));
        assertThat(error).as("the error").startsWith(errors.get(0).lines().findFirst().orElseThrow());
        assertThat(error)
                .contains("Channel 'orders' (incoming)", "'topic-type' is missing", "'slot-amount' = '12'")
                .contains("Channel 'invoices' (incoming)", "'prepare-timeout' = '5'")
                .contains("Channel 'receipts' (outgoing)", "'topic-type' = 'SOMETIMES'")
                .doesNotContain("'refunds'");
        assertThat(errors).as("every RMQ-2001 error in the chain is (part of) that one error")
                .allSatisfy(e -> assertThat(error).startsWith(e));

        RedisClient client = RedisClient.create(RedisTestServer.shared().uri());
        try (StatefulRedisConnection<String, String> redis = client.connect()) {
            String prefix = TckDeployment.keyPrefix("DeploymentFailureIT-" + SEVERAL_MISCONFIGURED);
            assertThat(redis.sync().keys(prefix + "*")).as("no channel created, nothing written").isEmpty();
        } finally {
            client.shutdown();
        }
    }

    /** Open Liberty only: the server's {@code messages.log} (the failsafe execution names the server). */
    private static Optional<String> libertyServerLog() {
        String wlpHome = System.getProperty("rmq.tck.wlpHome");
        String server = System.getProperty("rmq.tck.serverName");
        if (wlpHome == null || server == null) {
            return Optional.empty();
        }
        Path log = Path.of(wlpHome, "usr", "servers", server, "logs", "messages.log");
        try {
            return Optional.of(Files.readString(log));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + log, e);
        }
    }

    /**
     * The last entry of the log that reports the failure of the application (CWWKZ0002E), from RMQ-2001
     * to the next entry (the message's lines continue on lines of their own).
     */
    private static String applicationFailure(String log) {
        String marker = "CWWKZ0002E: An exception occurred while starting the application "
                + "DeploymentFailureIT-" + SEVERAL_MISCONFIGURED + ".";
        int start = log.lastIndexOf(marker);
        assertThat(start).as("the server logs the failure of the application (%s)", marker).isNotNegative();
        String entry = log.substring(start);
        int next = entry.indexOf("\n[");
        entry = next < 0 ? entry : entry.substring(0, next);
        assertThat(entry).as("the failure's entry").contains("RMQ-2001");
        return entry.substring(entry.indexOf("RMQ-2001")).strip();
    }

    /** The messages in the cause chain (and suppressed exceptions) that carry RMQ-2001, from the code on. */
    private static List<String> rmqConfigurationErrors(Throwable failure) {
        List<String> errors = new ArrayList<>();
        collect(failure, errors, 0);
        return errors;
    }

    private static void collect(Throwable t, List<String> errors, int depth) {
        if (t == null || depth > 20) {
            return;
        }
        String message = t.getMessage();
        if (message != null && message.contains("RMQ-2001")) {
            errors.add(message.substring(message.indexOf("RMQ-2001")).strip());
        }
        for (Throwable suppressed : t.getSuppressed()) {
            collect(suppressed, errors, depth + 1);
        }
        if (t.getCause() != t) {
            collect(t.getCause(), errors, depth + 1);
        }
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
