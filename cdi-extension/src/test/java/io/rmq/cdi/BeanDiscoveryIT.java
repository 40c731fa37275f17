package io.rmq.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.inject.spi.DeploymentException;

import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.smallrye.config.SmallRyeConfig;
import io.rmq.connector.RedisRmqConnector;
import io.rmq.connector.RmqTopics;
import io.rmq.connector.config.RmqConfigurationException;
import io.rmq.testing.WeldApp;
import io.rmq.testing.redis.RedisExtension;
import io.rmq.testing.redis.RedisTestServer;

/**
 * The extension as an application gets it by adding the dependency only: Weld SE with bean
 * discovery on finds the extension through {@code META-INF/services}, the connector's beans in the
 * connector's jar, and the application's beans ({@link AppBeans}) in the test classes.
 */
@ExtendWith(RedisExtension.class)
class BeanDiscoveryIT {

    private static final String RMQ = RedisRmqConnector.CONNECTOR_NAME;

    private final Map<String, String> properties = new HashMap<>();
    private RedisTestServer redis;

    @BeforeEach
    void setUp(RedisTestServer redis) {
        this.redis = redis;
        // the server may list a connection of the previous test for a moment after it was closed
        await().atMost(Duration.ofSeconds(5)).until(() -> Leftovers.redisClients(redis).isEmpty());
        properties.put("mp.messaging.connector." + RMQ + ".redis-uri", redis.uri());
        channel("outgoing", "out", "topic", "news", "topic-type", "FIXED_TIME", "slot-amount", 1);
        channel("incoming", "in", "topic", "news", "topic-type", "FIXED_TIME", "slot-amount", 1, "poll-interval", 500);
        channel("incoming", "in2", "topic", "other-news", "topic-type", "FIXED_TIME", "poll-interval", 500);
    }

    private void channel(String direction, String name, Object... attributes) {
        String prefix = "mp.messaging." + direction + "." + name + ".";
        properties.put(prefix + "connector", RMQ);
        for (int i = 0; i < attributes.length; i += 2) {
            properties.put(prefix + attributes[i], String.valueOf(attributes[i + 1]));
        }
    }

    @Test
    void theExtensionIsFoundAndRejectsABadConfigurationBeforeAnyConnection() {
        properties.put("mp.messaging.incoming.in2.topic-type", "LIFO");
        Set<Thread> before = Leftovers.snapshot();

        Throwable failure = catchThrowable(() -> withApplication(container -> { }));

        assertThat(failure).isInstanceOf(DeploymentException.class)
                .hasMessageContaining("Channel 'in2' (incoming): attribute 'topic-type' = 'LIFO' is invalid")
                .hasRootCauseInstanceOf(RmqConfigurationException.class);
        assertThat(Leftovers.newThreads(before)).isEmpty();
        assertThat(Leftovers.redisClients(redis)).isEmpty();
    }

    @Test
    void aWellConfiguredApplicationWorksAndLeavesNothingBehind() {
        Set<Thread> before = Leftovers.snapshot();

        withApplication(container -> {
            container.select(AppBeans.Sender.class).get().send("extra").toCompletableFuture().get(10, TimeUnit.SECONDS);
            AppBeans.Receiver receiver = container.select(AppBeans.Receiver.class).get();
            await().atMost(Duration.ofSeconds(15)).until(() -> receiver.payloads().contains("extra"));
            // the connector's other bean, discovered in its jar (the extension adds no second one)
            assertThat(container.select(RmqTopics.class).get().channel("out").find("never sent", null).found()).isFalse();
        });

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(Leftovers.newThreads(before)).isEmpty();
            assertThat(Leftovers.redisClients(redis)).isEmpty();
        });
    }

    interface Body {
        void run(WeldContainer container) throws Exception;
    }

    /** Starts Weld SE with discovery on and the test's configuration registered, runs {@code body}, stops it. */
    private void withApplication(Body body) throws RuntimeException {
        SmallRyeConfig config = WeldApp.registerConfig(properties);
        try (WeldContainer container = new Weld().property("org.jboss.weld.construction.relaxed", true).initialize()) {
            body.run(container);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        } finally {
            ConfigProviderResolver.instance().releaseConfig(config);
        }
    }
}
