package io.rmq.cdi;

import java.util.List;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.AfterTypeDiscovery;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import jakarta.interceptor.Interceptor;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import io.rmq.cdi.health.HealthBeans;
import io.rmq.connector.RedisRmqConnector;
import io.rmq.connector.RmqTopics;
import io.rmq.connector.config.ConfigProblem;
import io.rmq.connector.config.RmqConfigurationException;

/**
 * The CDI portable extension of the {@code smallrye-redis-rmq} connector. An application adds the
 * {@code rmq-cdi-extension} dependency (which brings the connector); the container finds the
 * extension through {@code META-INF/services/jakarta.enterprise.inject.spi.Extension}. It
 *
 * <ol>
 * <li>makes sure the connector's beans, {@link RedisRmqConnector} and {@link RmqTopics} (what the application
 *     can do to its messages after sending them), are part of the deployment even when bean discovery does not
 *     reach the connector's jar (a container started with discovery off, a repackaged jar without
 *     {@code beans.xml});</li>
 * <li>checks, at deployment, the configuration of every channel of the connector in MicroProfile
 *     Config (channel-level attributes, falling back to the connector-level ones) with the connector's
 *     own rules, and fails the deployment with one {@link DeploymentException} listing every problem
 *     of every channel: channel, attribute, value and what is allowed. The check runs first among the
 *     observers of {@link AfterDeploymentValidation}; when it throws, the container stops notifying
 *     observers of that event, so the Reactive Messaging runtime never creates a channel: no
 *     connection is opened and no thread started.</li>
 * <li>adds the connector's health checks ({@code io.rmq.cdi.health}): MicroProfile Health readiness,
 *     liveness and startup checks named {@code smallrye-redis-rmq} when the MicroProfile Health API is
 *     visible to the application, and a SmallRye Reactive Messaging {@code HealthReporter} when that
 *     SmallRye type is (never on Open Liberty); see {@link HealthBeans}.</li>
 * </ol>
 *
 * <p>The shared Redis clients (one per distinct {@code redis-uri}) belong to the connector, which
 * closes them after its channels when the application stops, and at once when a deployment fails
 * on one of its channels: see {@link RedisRmqConnector}.
 *
 * <p>Runtime needs: CDI, MicroProfile Config and the MicroProfile Reactive Messaging SPI only (no
 * SmallRye type), as on Open Liberty; the health beans need their API only where they are added. The container calls it on one thread at a time.
 */
public class RedisRmqExtension implements Extension {

    /** Before the Reactive Messaging runtime, which creates the channels in its own observer of the event. */
    static final int VALIDATION_PRIORITY = Interceptor.Priority.PLATFORM_BEFORE;

    private boolean connectorDiscovered;
    private boolean topicsDiscovered;

    void connectorDiscovered(@Observes ProcessAnnotatedType<RedisRmqConnector> event) {
        connectorDiscovered = true;
    }

    void topicsDiscovered(@Observes ProcessAnnotatedType<RmqTopics> event) {
        topicsDiscovered = true;
    }

    /** Adds the connector's beans when discovery did not find them; adding them when it did would make them ambiguous. */
    void addConnectorIfMissing(@Observes AfterTypeDiscovery event) {
        if (!connectorDiscovered) {
            event.addAnnotatedType(RedisRmqConnector.class, RedisRmqExtension.class.getName() + ".connector");
        }
        if (!topicsDiscovered) {
            event.addAnnotatedType(RmqTopics.class, RedisRmqExtension.class.getName() + ".topics");
        }
    }

    /** Adds the health checks the runtime can serve: MicroProfile Health, SmallRye's health reporting, both or neither. */
    void addHealthChecks(@Observes AfterTypeDiscovery event) {
        HealthBeans.addTo(event);
    }

    /**
     * Fails the deployment when a channel of the connector is misconfigured.
     *
     * @throws DeploymentException naming every problem; its cause is the connector's
     *                             {@link RmqConfigurationException}, whose {@code problems()} lists them
     */
    void validateChannels(@Observes @Priority(VALIDATION_PRIORITY) AfterDeploymentValidation event) {
        List<ConfigProblem> problems = ConfiguredChannels.problems(applicationConfig());
        if (!problems.isEmpty()) {
            RmqConfigurationException invalid = RmqConfigurationException.of(problems);
            throw new DeploymentException(invalid.getMessage(), invalid);
        }
    }

    /** The application's configuration: that of the context class loader, which the container sets to the application's. */
    private static Config applicationConfig() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        return ConfigProvider.getConfig(loader != null ? loader : RedisRmqExtension.class.getClassLoader());
    }
}
