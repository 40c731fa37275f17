package io.rmq.connector;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.spi.Connector;
import org.eclipse.microprofile.reactive.messaging.spi.IncomingConnectorFactory;
import org.eclipse.microprofile.reactive.messaging.spi.OutgoingConnectorFactory;
import org.eclipse.microprofile.reactive.streams.operators.PublisherBuilder;
import org.eclipse.microprofile.reactive.streams.operators.ReactiveStreams;
import org.eclipse.microprofile.reactive.streams.operators.SubscriberBuilder;

import io.rmq.connector.config.IncomingChannelConfig;
import io.rmq.connector.config.OutgoingChannelConfig;
import io.rmq.engine.RmqClient;

/**
 * The {@code smallrye-redis-rmq} connector: reads a channel's configuration, creates an incoming or
 * outgoing channel over the shared Redis client for its URI ({@link RedisClients}), and closes them
 * all at shutdown: incoming channels first, gracefully, then outgoing ones, then it releases the
 * clients.
 *
 * <p>It implements the MicroProfile connector SPI only, so it runs wherever MicroProfile Reactive
 * Messaging runs (SmallRye on Weld or Quarkus, Open Liberty) without SmallRye-private types.
 *
 * <p><b>A failed deployment leaves nothing open.</b> When a channel cannot be created (its
 * configuration is invalid, its topic is recorded in Redis with another definition), the runtime
 * fails the deployment, and a container may then never stop the application's beans (Weld SE does
 * not). So the connector closes at once the channels and clients it already opened and refuses
 * further channels, before rethrowing the failure.
 *
 * <p>Outside CDI, create it with {@link #RedisRmqConnector(RedisClients)} and call
 * {@link #shutdown()} when done. Thread-safe.
 */
@ApplicationScoped
@Connector(RedisRmqConnector.CONNECTOR_NAME)
public class RedisRmqConnector implements IncomingConnectorFactory, OutgoingConnectorFactory {

    /** The connector name used in {@code mp.messaging.*.connector}. */
    public static final String CONNECTOR_NAME = "smallrye-redis-rmq";

    @Inject
    RedisClients clients;

    private final List<IncomingRmqChannel> incoming = new CopyOnWriteArrayList<>();
    private final List<OutgoingRmqChannel> outgoing = new CopyOnWriteArrayList<>();
    /** One entry per client acquired for a channel, released at shutdown. */
    private final List<String> acquiredUris = new CopyOnWriteArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    /** For the container, which injects the {@link RedisClients}. */
    public RedisRmqConnector() {
    }

    /**
     * A connector outside CDI.
     *
     * @param clients the clients its channels share; the connector releases what it acquired at
     *                {@link #shutdown()}, the caller closes {@code clients}
     */
    public RedisRmqConnector(RedisClients clients) {
        this.clients = Objects.requireNonNull(clients, "clients");
    }

    @Override
    public PublisherBuilder<? extends Message<?>> getPublisherBuilder(Config config) {
        IncomingRmqChannel channel = open(() -> {
            IncomingChannelConfig c = IncomingChannelConfig.from(config);
            return new IncomingRmqChannel(c, acquire(c.redisUri()));
        });
        incoming.add(channel);
        return ReactiveStreams.fromPublisher(channel);
    }

    @Override
    public SubscriberBuilder<? extends Message<?>, Void> getSubscriberBuilder(Config config) {
        OutgoingRmqChannel channel = open(() -> {
            OutgoingChannelConfig c = OutgoingChannelConfig.from(config);
            return new OutgoingRmqChannel(c, acquire(c.redisUri()));
        });
        outgoing.add(channel);
        return ReactiveStreams.fromSubscriber(channel);
    }

    private <C> C open(Supplier<C> creation) {
        if (closed.get()) {
            throw new IllegalStateException("Connector " + CONNECTOR_NAME + " is stopped (the application is"
                    + " stopping, or one of its channels failed to start); it creates no more channels");
        }
        try {
            return creation.get();
        } catch (RuntimeException e) {
            shutdown(); // the deployment fails: nothing may stay open behind it
            throw e;
        }
    }

    private RmqClient acquire(String redisUri) {
        RmqClient client = clients.acquire(redisUri);
        acquiredUris.add(redisUri);
        return client;
    }

    /** Stops the channels while the application's beans still work, so in-process messages can finish. */
    void beforeShutdown(@Observes(notifyObserver = Reception.IF_EXISTS) @Priority(50) @BeforeDestroyed(ApplicationScoped.class) Object event) {
        shutdown();
    }

    /**
     * Stops every channel (incoming ones gracefully: see {@code shutdown-timeout}) and releases the
     * Redis clients they used; later calls do nothing, and no channel can be created afterwards.
     * Called by the container when the application stops.
     */
    @PreDestroy
    public void shutdown() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        join(incoming.stream().map(IncomingRmqChannel::close).toList());
        join(outgoing.stream().map(OutgoingRmqChannel::close).toList());
        for (String uri : acquiredUris) {
            clients.release(uri);
        }
        acquiredUris.clear();
    }

    private static void join(List<CompletionStage<Void>> stops) {
        CompletableFuture.allOf(stops.stream().map(CompletionStage::toCompletableFuture)
                .toArray(CompletableFuture[]::new)).join();
    }
}
