package io.rmq.cdi.health;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;
import org.eclipse.microprofile.health.Startup;
import org.eclipse.microprofile.reactive.messaging.spi.Connector;

import io.rmq.cdi.health.ConnectorHealth.ChannelEntry;
import io.rmq.connector.RedisRmqConnector;

/**
 * The connector's MicroProfile Health checks, each named {@value ConnectorHealth#CHECK_NAME}, with
 * one data entry per channel (its name, then {@code <direction>, topic <topic>, <STATE>}):
 * {@link ReadinessCheck}, {@link LivenessCheck} and {@link StartupCheck}. What makes each one DOWN is
 * said by {@link io.rmq.connector.ChannelSnapshot#isReady()}, {@code isAlive()} and {@code hasStarted()}.
 *
 * <p>The CDI extension adds the three beans (application-scoped) when the MicroProfile Health API is
 * visible to the application (Open Liberty with {@code mpHealth-4.0}, SmallRye Health on Weld), and
 * only then: without that API these classes are never loaded. They carry no bean-defining annotation,
 * so that no container discovers them by itself.
 */
public abstract class RedisRmqHealthChecks implements HealthCheck {

    @Inject
    @Connector(RedisRmqConnector.CONNECTOR_NAME)
    RedisRmqConnector connector;

    RedisRmqHealthChecks() {
    }

    abstract ConnectorHealth.Check check();

    /**
     * The answer, built with the constructor rather than {@code HealthCheckResponse.named(...)}, which
     * needs the runtime's {@code HealthCheckResponseProvider}: the check works wherever the API is.
     */
    @Override
    public HealthCheckResponse call() {
        ConnectorHealth health = ConnectorHealth.evaluate(check(), connector.channelSnapshots());
        Map<String, Object> data = new LinkedHashMap<>();
        for (ChannelEntry channel : health.channels()) {
            data.put(channel.key(), channel.description());
        }
        return new HealthCheckResponse(ConnectorHealth.CHECK_NAME,
                health.isUp() ? HealthCheckResponse.Status.UP : HealthCheckResponse.Status.DOWN,
                data.isEmpty() ? Optional.empty() : Optional.of(data));
    }

    /** DOWN while a channel cannot work: Redis (or, for a coordinated consumer, ZooKeeper) unreachable, failed, stopped. */
    @Readiness
    public static class ReadinessCheck extends RedisRmqHealthChecks {
        @Override
        ConnectorHealth.Check check() {
            return ConnectorHealth.Check.READINESS;
        }
    }

    /** DOWN once a channel has failed for good (its stream ended with an error, its topic conflicts). */
    @Liveness
    public static class LivenessCheck extends RedisRmqHealthChecks {
        @Override
        ConnectorHealth.Check check() {
            return ConnectorHealth.Check.LIVENESS;
        }
    }

    /** DOWN until every channel's Redis client has connected once. */
    @Startup
    public static class StartupCheck extends RedisRmqHealthChecks {
        @Override
        ConnectorHealth.Check check() {
            return ConnectorHealth.Check.STARTUP;
        }
    }
}
