package io.rmq.tck.support;

import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * A channel's liveness as the application's MicroProfile Health liveness checks report it, on every runtime:
 * the connector's check {@code smallrye-redis-rmq} (the CDI extension's, on Weld and Open Liberty), or
 * Quarkus's "SmallRye Reactive Messaging - liveness check" (fed by {@code rmq-quarkus-health}). Each lists
 * the channel under its name. Stateless.
 */
@ApplicationScoped
public class ChannelHealth {

    /**
     * What one liveness check says about a channel.
     *
     * @param check       the check's name
     * @param status      the check's status (DOWN when any channel it lists is not alive)
     * @param description the channel's entry: direction, topic, state and, for a failed channel, its failure
     */
    public record Entry(String check, HealthCheckResponse.Status status, String description) {
    }

    @Inject
    @Liveness
    Instance<HealthCheck> liveness;

    /** The liveness check that lists {@code channel}, with its entry; empty when no check lists it. */
    public Optional<Entry> liveness(String channel) {
        return liveness.stream().map(HealthCheck::call)
                .flatMap(r -> {
                    Object entry = r.getData().orElse(Map.of()).get(channel);
                    return entry == null ? Stream.empty() : Stream.of(new Entry(r.getName(), r.getStatus(), String.valueOf(entry)));
                })
                .findFirst();
    }
}
