package io.rmq.connector;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.annotation.Priority;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;

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

/**
 * The {@code smallrye-redis-rmq} connector: reads a channel's configuration, creates an incoming or
 * outgoing channel over the shared Redis client for its URI, and closes them all at shutdown
 * (incoming channels first, gracefully, then outgoing ones, then the clients).
 *
 * <p>It implements the MicroProfile connector SPI only, so it runs wherever MicroProfile Reactive
 * Messaging runs (SmallRye on Weld or Quarkus, Open Liberty) without SmallRye-private types.
 */
@ApplicationScoped
@Connector(RedisRmqConnector.CONNECTOR_NAME)
public class RedisRmqConnector implements IncomingConnectorFactory, OutgoingConnectorFactory {

    /** The connector name used in {@code mp.messaging.*.connector}. */
    public static final String CONNECTOR_NAME = "smallrye-redis-rmq";

    private final RedisClients clients = new RedisClients();
    private final List<IncomingRmqChannel> incoming = new CopyOnWriteArrayList<>();
    private final List<OutgoingRmqChannel> outgoing = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    @Override
    public PublisherBuilder<? extends Message<?>> getPublisherBuilder(Config config) {
        IncomingChannelConfig c = IncomingChannelConfig.from(config);
        IncomingRmqChannel channel;
        try {
            channel = new IncomingRmqChannel(c, clients.acquire(c.redisUri()));
        } catch (RuntimeException e) {
            clients.release(c.redisUri());
            throw e;
        }
        incoming.add(channel);
        return ReactiveStreams.fromPublisher(channel);
    }

    @Override
    public SubscriberBuilder<? extends Message<?>, Void> getSubscriberBuilder(Config config) {
        OutgoingChannelConfig c = OutgoingChannelConfig.from(config);
        OutgoingRmqChannel channel;
        try {
            channel = new OutgoingRmqChannel(c, clients.acquire(c.redisUri()));
        } catch (RuntimeException e) {
            clients.release(c.redisUri());
            throw e;
        }
        outgoing.add(channel);
        return ReactiveStreams.fromSubscriber(channel);
    }

    /** Stops the channels while the application's beans still work, so in-process messages can finish. */
    void beforeShutdown(@Observes(notifyObserver = Reception.IF_EXISTS) @Priority(50) @BeforeDestroyed(ApplicationScoped.class) Object event) {
        shutdown();
    }

    @PreDestroy
    void shutdown() {
        if (closed) {
            return;
        }
        closed = true;
        CompletableFuture.allOf(incoming.stream().map(c -> c.close().toCompletableFuture())
                .toArray(CompletableFuture[]::new)).join();
        CompletableFuture.allOf(outgoing.stream().map(c -> c.close().toCompletableFuture())
                .toArray(CompletableFuture[]::new)).join();
        clients.close();
    }
}
