package io.rmq.cdi.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.spi.Connector;

import io.rmq.cdi.health.ConnectorHealth.ChannelEntry;
import io.rmq.connector.RedisRmqConnector;
import io.smallrye.reactive.messaging.health.HealthReport;
import io.smallrye.reactive.messaging.health.HealthReporter;

/**
 * The connector's part in SmallRye Reactive Messaging's own health reporting: SmallRye's
 * {@code HealthCenter} asks every {@link HealthReporter} bean, and reports what they say in its
 * readiness, liveness and startup checks (Quarkus serves them at {@code /q/health}). One channel
 * entry per channel of the connector, not OK when the channel fails the check, with
 * {@code <direction>, topic <topic>, <STATE>} as its message; the same rules as the MicroProfile
 * Health checks ({@link RedisRmqHealthChecks}).
 *
 * <p>{@link HealthReporter} is a SmallRye type, which Open Liberty does not let applications see. The
 * CDI extension therefore adds this bean only when that type is visible; otherwise this class is
 * never loaded. Its jar's {@code beans.xml} says {@code bean-discovery-mode="none"}, so containers
 * that honour it never discover it by themselves; Quarkus, which does not run CDI extensions and
 * reads every library with a {@code beans.xml} whatever its mode, discovers it through its
 * {@code @ApplicationScoped}.
 */
@ApplicationScoped
public class RedisRmqHealthReporter implements HealthReporter {

    @Inject
    @Connector(RedisRmqConnector.CONNECTOR_NAME)
    RedisRmqConnector connector;

    @Override
    public HealthReport getReadiness() {
        return report(ConnectorHealth.Check.READINESS);
    }

    @Override
    public HealthReport getLiveness() {
        return report(ConnectorHealth.Check.LIVENESS);
    }

    @Override
    public HealthReport getStartup() {
        return report(ConnectorHealth.Check.STARTUP);
    }

    private HealthReport report(ConnectorHealth.Check check) {
        HealthReport.HealthReportBuilder report = HealthReport.builder();
        for (ChannelEntry channel : ConnectorHealth.evaluate(check, connector.channelSnapshots()).channels()) {
            report.add(channel.key(), channel.ok(), channel.description());
        }
        return report.build();
    }
}
