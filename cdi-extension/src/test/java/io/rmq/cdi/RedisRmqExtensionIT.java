package io.rmq.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import jakarta.enterprise.inject.spi.DeploymentException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.rmq.connector.RedisRmqConnector;
import io.rmq.connector.RmqTopic;
import io.rmq.connector.RmqTopics;
import io.rmq.connector.config.ConfigProblem;
import io.rmq.connector.config.Direction;
import io.rmq.connector.config.RmqConfigurationException;
import io.rmq.testing.WeldApp;
import io.rmq.testing.redis.RedisExtension;
import io.rmq.testing.redis.RedisTestServer;

/** The extension in SmallRye Reactive Messaging on Weld SE, against a real Redis. */
@ExtendWith(RedisExtension.class)
class RedisRmqExtensionIT {

    private static final String RMQ = RedisRmqConnector.CONNECTOR_NAME;
    private static final Duration WAIT = Duration.ofSeconds(15);

    /** How an application gets the connector's bean. */
    enum Packaging {
        /** Only the extension: it adds the connector, which discovery (off here) did not find. */
        EXTENSION_ONLY,
        /** The extension and the connector's bean, as with bean discovery: the extension adds nothing. */
        EXTENSION_AND_DISCOVERED_BEANS,
        /** No extension: the connector's bean, as a plain SmallRye application with bean discovery has it. */
        BEANS_WITHOUT_EXTENSION
    }

    private RedisTestServer redis;
    private Set<Thread> threadsBefore;
    private WeldApp app;
    private final List<LogRecord> logged = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void setUp(RedisTestServer redis) {
        this.redis = redis;
        // the server may list a connection of the previous test for a moment after it was closed
        await().atMost(Duration.ofSeconds(5)).until(() -> Leftovers.redisClients(redis).isEmpty());
        threadsBefore = Leftovers.snapshot();
        Logger.getLogger("io.rmq").addHandler(capture);
    }

    @AfterEach
    void tearDown() {
        try {
            if (app != null) {
                app.close();
            }
        } finally {
            Logger.getLogger("io.rmq").removeHandler(capture);
        }
    }

    private WeldApp.Builder app(Packaging packaging, Class<?>... beans) {
        WeldApp.Builder builder = WeldApp.builder().beans(beans)
                .config("mp.messaging.connector." + RMQ + ".redis-uri", redis.uri());
        if (packaging != Packaging.BEANS_WITHOUT_EXTENSION) {
            builder.extension(new RedisRmqExtension());
        }
        if (packaging != Packaging.EXTENSION_ONLY) {
            builder.beans(RedisRmqConnector.class, RmqTopics.class);
        }
        return builder;
    }

    @Test
    void theExtensionAddsTheTopicsBeanWhenDiscoveryMissesIt() {
        app = app(Packaging.EXTENSION_ONLY, AppBeans.Sender.class, AppBeans.Receiver.class)
                .incoming("in", RMQ, "topic", "orders", "topic-type", "FIXED_TIME", "slot-amount", 2)
                .outgoing("out", RMQ, "topic", "orders", "topic-type", "FIXED_TIME", "slot-amount", 2)
                .start();

        RmqTopic orders = app.get(RmqTopics.class).channel("out");
        assertThat(orders.topic().name()).isEqualTo("orders");
        assertThat(orders.find("never sent", null).found()).isFalse();
    }

    @Test
    void severalMisconfiguredChannelsFailTheDeploymentWithOneDeploymentExceptionNamingEveryProblem() {
        WeldApp.Builder bad = app(Packaging.EXTENSION_ONLY, AppBeans.Sender.class, AppBeans.Receiver.class,
                AppBeans.SecondReceiver.class)
                .incoming("in", RMQ, "topic", "orders", "slot-amount", 12)
                .incoming("in2", RMQ, "topic", "prices", "topic-type", "PRIORITY", "prepare-timeout", 5)
                .outgoing("out", RMQ, "topic", "orders", "topic-type", "SOMETIMES", "redis-uri", "http://cache:6379")
                // a good channel, which would connect to Redis if the runtime created it
                .incoming("fine", RMQ, "topic", "fine", "topic-type", "FIXED_TIME");

        Throwable failure = catchThrowable(bad::start);

        List<DeploymentException> ours = deploymentExceptionsCausedByInvalidConfiguration(failure);
        assertThat(ours).as("deployment exceptions caused by the configuration in %s", failure).hasSize(1);
        RmqConfigurationException invalid = (RmqConfigurationException) ours.get(0).getCause();
        assertThat(invalid.problems())
                .extracting(ConfigProblem::channel, ConfigProblem::direction, ConfigProblem::attribute, ConfigProblem::value)
                .containsExactlyInAnyOrder(
                        tuple("in", Direction.INCOMING, "topic-type", null),
                        tuple("in", Direction.INCOMING, "slot-amount", "12"),
                        tuple("in2", Direction.INCOMING, "prepare-timeout", "5"),
                        tuple("out", Direction.OUTGOING, "redis-uri", "http://cache:6379"),
                        tuple("out", Direction.OUTGOING, "topic-type", "SOMETIMES"));
        assertThat(invalid.problems()).allSatisfy(p -> assertThat(p.requirement()).isNotBlank());
        assertThat(ours.get(0).getMessage()).contains(
                "Channel 'in' (incoming): attribute 'topic-type' is missing: one of RANGE_MERGE, PRIORITY, FIXED_TIME is required",
                "attribute 'slot-amount' = '12' is invalid: a power of two from 1 to 16384 is required",
                "Channel 'in2' (incoming): attribute 'prepare-timeout' = '5' is invalid",
                "Channel 'out' (outgoing): attribute 'redis-uri' = 'http://cache:6379' is invalid",
                "attribute 'topic-type' = 'SOMETIMES' is invalid: one of RANGE_MERGE, PRIORITY, FIXED_TIME is required");
        assertThat(ours.get(0).getMessage()).doesNotContain("'fine'");

        assertNothingWasOpened();
    }

    @Test
    void connectorLevelAttributesApplyToEveryChannelAndChannelLevelOnesWin() {
        WeldApp.Builder bad = app(Packaging.EXTENSION_ONLY, AppBeans.Sender.class, AppBeans.Receiver.class)
                .config("mp.messaging.connector." + RMQ + ".slot-amount", 3)
                .config("mp.messaging.connector." + RMQ + ".batch-size", 0)
                .incoming("in", RMQ, "topic", "orders", "topic-type", "PRIORITY", "slot-amount", 4)
                .outgoing("out", RMQ, "topic", "orders", "topic-type", "PRIORITY");

        Throwable failure = catchThrowable(bad::start);

        List<DeploymentException> ours = deploymentExceptionsCausedByInvalidConfiguration(failure);
        assertThat(ours).hasSize(1);
        assertThat(((RmqConfigurationException) ours.get(0).getCause()).problems())
                .extracting(ConfigProblem::channel, ConfigProblem::attribute, ConfigProblem::value)
                .containsExactlyInAnyOrder(tuple("in", "batch-size", "0"), tuple("out", "slot-amount", "3"));
        assertNothingWasOpened();
    }

    @ParameterizedTest
    @EnumSource(Packaging.class)
    void aWellConfiguredApplicationSendsAndReceives(Packaging packaging) throws Exception {
        app = app(packaging, AppBeans.Sender.class, AppBeans.Receiver.class)
                .outgoing("out", RMQ, "topic", "greetings", "topic-type", "FIXED_TIME", "slot-amount", 1)
                .incoming("in", RMQ, "topic", "greetings", "topic-type", "FIXED_TIME", "slot-amount", 1,
                        "poll-interval", 500)
                .start();
        app.get(AppBeans.Sender.class).send("hello").toCompletableFuture().get(10, TimeUnit.SECONDS);
        AppBeans.Receiver receiver = app.get(AppBeans.Receiver.class);
        await().atMost(WAIT).until(() -> receiver.payloads().contains("hello"));
    }

    /**
     * Three deployments in a row, each with two distinct Redis URIs: one client per URI, shared by
     * the channels that use it, and after each undeploy no thread and no connection is left.
     */
    @ParameterizedTest
    @EnumSource(Packaging.class)
    void redeployingLeavesNoThreadAndNoConnectionBehind(Packaging packaging) throws Exception {
        String sameServerOtherUri = redis.uri() + "/0";
        for (int deployment = 1; deployment <= 3; deployment++) {
            app = app(packaging, AppBeans.Sender.class, AppBeans.Receiver.class, AppBeans.SecondReceiver.class)
                    .outgoing("out", RMQ, "topic", "events", "topic-type", "FIXED_TIME", "slot-amount", 1)
                    .incoming("in", RMQ, "topic", "events", "topic-type", "FIXED_TIME", "slot-amount", 1,
                            "poll-interval", 500, "shutdown-timeout", 2000)
                    .incoming("in2", RMQ, "topic", "other-events", "topic-type", "FIXED_TIME", "slot-amount", 1,
                            "redis-uri", sameServerOtherUri, "poll-interval", 500, "shutdown-timeout", 2000)
                    .start();

            String payload = "deployment-" + deployment;
            app.get(AppBeans.Sender.class).send(payload).toCompletableFuture().get(10, TimeUnit.SECONDS);
            AppBeans.Receiver receiver = app.get(AppBeans.Receiver.class);
            await().atMost(WAIT).until(() -> receiver.payloads().contains(payload));
            // one client per distinct redis-uri, each with a command connection and a Pub/Sub connection
            await().atMost(WAIT).until(() -> Leftovers.redisClients(redis).size() == 4);

            app.close();
            app = null;

            assertNothingIsLeft("after deployment " + deployment);
        }
    }

    /**
     * A deployment that fails on its last channel (its topic is recorded in Redis with another type),
     * after the runtime created the others: the connector closes what they opened, since the
     * container does not stop the beans of a deployment that failed.
     */
    @ParameterizedTest
    @EnumSource(Packaging.class)
    void aDeploymentFailingOnATopicConflictLeavesNothingBehind(Packaging packaging) {
        redis.command("HSET", "rmq:topics", "conflicting", "FIXED_TIME:1");
        WeldApp.Builder conflicting = app(packaging, AppBeans.Sender.class, AppBeans.Receiver.class,
                AppBeans.SecondReceiver.class)
                .incoming("in", RMQ, "topic", "fine", "topic-type", "PRIORITY")
                .incoming("in2", RMQ, "topic", "fine-too", "topic-type", "PRIORITY")
                .outgoing("out", RMQ, "topic", "conflicting", "topic-type", "PRIORITY", "slot-amount", 1);

        Throwable failure = catchThrowable(conflicting::start);

        assertThat(failure).hasStackTraceContaining("Topic 'conflicting' is recorded in Redis as type FIXED_TIME");
        assertNothingIsLeft("after the failed deployment");
    }

    private void assertNothingWasOpened() {
        assertThat(Leftovers.newThreads(threadsBefore)).as("threads started").isEmpty();
        assertThat(Leftovers.redisClients(redis)).as("Redis connections").isEmpty();
        assertThat(logged).extracting(LogRecord::getMessage)
                .as("log of the connector and the engine")
                .noneMatch(m -> m != null && (m.startsWith("RMQ-0001") || m.startsWith("RMQ-0003")
                        || m.startsWith("RMQ-1001") || m.startsWith("RMQ-1002")));
    }

    private void assertNothingIsLeft(String when) {
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(Leftovers.newThreads(threadsBefore)).as("threads left " + when).isEmpty();
            assertThat(Leftovers.redisClients(redis)).as("Redis connections left " + when).isEmpty();
        });
    }

    private static List<DeploymentException> deploymentExceptionsCausedByInvalidConfiguration(Throwable failure) {
        List<DeploymentException> found = new ArrayList<>();
        collect(failure, found);
        return found;
    }

    private static void collect(Throwable t, List<DeploymentException> found) {
        if (t == null) {
            return;
        }
        if (t instanceof DeploymentException d && d.getCause() instanceof RmqConfigurationException) {
            found.add(d);
        }
        collect(t.getCause(), found);
        for (Throwable suppressed : t.getSuppressed()) {
            collect(suppressed, found);
        }
    }
}
