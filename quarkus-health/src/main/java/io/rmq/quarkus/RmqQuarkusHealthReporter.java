package io.rmq.quarkus;

import jakarta.enterprise.context.ApplicationScoped;

import io.rmq.cdi.health.RedisRmqHealthReporter;

/**
 * The connector's channels in Quarkus's health checks: with {@code quarkus-smallrye-health}, Quarkus's
 * "SmallRye Reactive Messaging" readiness, liveness and startup checks ({@code /q/health/ready},
 * {@code /q/health/live}, {@code /q/health/started}) ask every SmallRye {@code HealthReporter} bean, and
 * this one answers for each channel of the connector, by the rules of {@link RedisRmqHealthReporter}.
 *
 * <p>Why a bean of its own: {@code rmq-cdi-extension} adds its reporter through its CDI portable
 * extension, which Quarkus does not run, and keeps its beans out of discovery ({@code beans.xml} with
 * {@code bean-discovery-mode="none"}, which Quarkus honours too) so that Open Liberty, which cannot
 * load SmallRye's types, never meets them. This jar is a bean archive for Quarkus alone: only Quarkus
 * applications depend on it.
 */
@ApplicationScoped
public class RmqQuarkusHealthReporter extends RedisRmqHealthReporter {
}
