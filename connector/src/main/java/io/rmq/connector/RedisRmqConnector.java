package io.rmq.connector;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.stream.Stream;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import jakarta.enterprise.inject.Produces;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.spi.Connector;
import org.eclipse.microprofile.reactive.messaging.spi.IncomingConnectorFactory;
import org.eclipse.microprofile.reactive.messaging.spi.OutgoingConnectorFactory;
import org.eclipse.microprofile.reactive.streams.operators.PublisherBuilder;
import org.eclipse.microprofile.reactive.streams.operators.ReactiveStreams;
import org.eclipse.microprofile.reactive.streams.operators.SubscriberBuilder;

import io.rmq.connector.config.ChannelConfig;
import io.rmq.connector.config.IncomingChannelConfig;
import io.rmq.connector.config.OutgoingChannelConfig;
import io.rmq.connector.i18n.RmqExceptions;
import io.rmq.connector.metrics.RmqMetrics;
import io.rmq.connector.tracing.RmqTracing;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.settlement.EngineEvents;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;

/**
 * The {@code smallrye-redis-rmq} connector: reads a channel's configuration, creates an incoming or
 * outgoing channel over the shared engine for its Redis, and closes them all at shutdown:
 * incoming channels first, gracefully, then outgoing ones, then the engines.
 *
 * <p><b>Shared engines.</b> The connector owns one engine ({@link RmqEngine}) per distinct {@code redis-uri} and credentials
 * ({@link SharedEngines}), shared by the channels that use it. Owning them, rather than sharing them
 * with another bean, is what makes the shutdown order hold on every container: the channels stop
 * (committing what was processed, releasing what was prefetched) while the engines still work, even
 * where the container destroys beans in another order or does not fire {@code @BeforeDestroyed}
 * (Arquillian's Weld embedded container does not). After shutdown no connection and no thread of the
 * connector or of Lettuce is left.
 *
 * <p>It implements the MicroProfile connector SPI only, so it runs wherever MicroProfile Reactive
 * Messaging runs (SmallRye on Weld or Quarkus, Open Liberty) without SmallRye-private types.
 *
 * <p><b>A failed deployment leaves nothing open.</b> When a channel cannot be created (its
 * configuration is invalid, its topic is recorded in Redis with another definition), the runtime
 * fails the deployment, and a container may then never stop the application's beans (Weld SE does
 * not). So the connector closes at once the channels and engines it already opened and refuses
 * further channels, before rethrowing the failure.
 *
 * <p><b>Health.</b> {@link #channelSnapshots()} tells how each channel stands (connected to Redis and
 * ZooKeeper, failed, stopped), in plain Java types; the health checks of the CDI extension
 * ({@code rmq-cdi-extension}) report it as MicroProfile Health checks and to SmallRye's health.
 *
 * <p>Outside CDI, create it with {@code new RedisRmqConnector()} and call {@link #shutdown()} when
 * done. Thread-safe.
 */
@ApplicationScoped
@Connector(RedisRmqConnector.CONNECTOR_NAME)
public class RedisRmqConnector implements IncomingConnectorFactory, OutgoingConnectorFactory {

    /** What SmallRye puts between a channel's name and the number of each copy it runs ({@code concurrency}). */
    static final String COPY_SEPARATOR = "$";

    /** The connector name used in {@code mp.messaging.*.connector}. */
    public static final String CONNECTOR_NAME = "smallrye-redis-rmq";

    private final SharedEngines engines = new SharedEngines(CONNECTOR_NAME);
    private final RmqMetrics metrics = RmqMetrics.discover();
    private final RmqTracing tracing = RmqTracing.discover();
    private final List<IncomingRmqChannel> incoming = new CopyOnWriteArrayList<>();
    private final List<OutgoingRmqChannel> outgoing = new CopyOnWriteArrayList<>();
    /** By channel name: what the application can do to the channel's messages after sending ({@link RmqTopics}). */
    private final Map<String, RmqTopic> topics = new ConcurrentHashMap<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    @Override
    public PublisherBuilder<? extends Message<?>> getPublisherBuilder(Config config) {
        IncomingRmqChannel channel = open(() -> {
            IncomingChannelConfig c = IncomingChannelConfig.from(config);
            RmqEngine engine = engines.acquire(c.redisAccess());
            IncomingRmqChannel created = new IncomingRmqChannel(c, engine,
                    metrics.incoming(c.channel(), c.topic(), engine, c.redisAccess()), tracing);
            addTopic(c, engine);
            return created;
        });
        incoming.add(channel);
        return ReactiveStreams.fromPublisher(channel);
    }

    @Override
    public SubscriberBuilder<? extends Message<?>, Void> getSubscriberBuilder(Config config) {
        OutgoingRmqChannel channel = open(() -> {
            OutgoingChannelConfig c = OutgoingChannelConfig.from(config);
            RmqEngine engine = engines.acquire(c.redisAccess());
            OutgoingRmqChannel created = new OutgoingRmqChannel(c, engine,
                    metrics.outgoing(c.channel(), c.topic(), engine, c.redisAccess()), tracing);
            addTopic(c, engine);
            return created;
        });
        outgoing.add(channel);
        return ReactiveStreams.fromSubscriber(channel);
    }

    /**
     * How each channel created so far stands now, incoming channels first, each in the order of its
     * creation; empty before the runtime creates the channels. After {@link #shutdown()} every channel
     * is {@link ChannelSnapshot.State#STOPPED}. Cheap (no I/O), callable from any thread.
     */
    public List<ChannelSnapshot> channelSnapshots() {
        return Stream.concat(incoming.stream().map(IncomingRmqChannel::snapshot),
                outgoing.stream().map(OutgoingRmqChannel::snapshot)).toList();
    }

    /** The messages of a channel's topic, reached by their payload encoded as the channel encodes it. */
    private void addTopic(ChannelConfig c, RmqEngine engine) {
        topics.putIfAbsent(c.channel(), new RmqTopic(c.channel(), engine.pendingMessages(new TopicKeys(c.topic())),
                new PayloadEncoder(c.codec(), c.channel(), c.topic().name(), false), metrics));
    }

    /**
     * What the application can do to the messages of channel {@code channel}'s topic after sending them.
     *
     * @throws IllegalArgumentException RMQ-2300 when no channel of the connector has that name
     */
    RmqTopic topicOf(String channel) {
        RmqTopic topic = channel == null ? null : topics.get(channel);
        if (topic == null) {
            throw RmqExceptions.ex.unknownChannel(channel, CONNECTOR_NAME, new TreeSet<>(topics.keySet()));
        }
        return topic;
    }

    /**
     * The incoming channel named {@code channel}, for the application to pause or resume it.
     *
     * @throws IllegalArgumentException RMQ-2362 when no incoming channel of the connector has that name
     */
    /**
     * The incoming channel {@code channel} of this connector, or its copies when SmallRye runs several
     * ({@code concurrency}: {@code <channel>$0}, {@code <channel>$1}, ...); a copy's own name reaches that copy only.
     *
     * @throws IllegalArgumentException RMQ-2362 naming the connector's incoming channels, when there is none
     */
    List<IncomingRmqChannel> incomingChannels(String channel) {
        List<IncomingRmqChannel> found = incoming.stream()
                .filter(c -> c.channel().equals(channel) || c.channel().startsWith(channel + COPY_SEPARATOR)).toList();
        if (found.isEmpty()) {
            throw RmqExceptions.ex.notAnIncomingChannel(channel,
                    new TreeSet<>(incoming.stream().map(IncomingRmqChannel::channel).toList()));
        }
        return found;
    }

    private <C> C open(Supplier<C> creation) {
        if (closed.get()) {
            throw RmqExceptions.ex.connectorStopped(CONNECTOR_NAME);
        }
        try {
            return creation.get();
        } catch (RuntimeException e) {
            shutdown(); // the deployment fails: nothing may stay open behind it
            throw e;
        }
    }

    /** Stops the channels while the application's beans still work, so in-process messages can finish. */
    void beforeShutdown(@Observes(notifyObserver = Reception.IF_EXISTS) @Priority(50) @BeforeDestroyed(ApplicationScoped.class) Object event) {
        shutdown();
    }

    /**
     * Stops every channel (incoming ones gracefully: see {@code shutdown-timeout}), then closes the
     * engines; later calls do nothing, and no channel can be created afterwards. Called by the
     * container when the application stops.
     */
    @PreDestroy
    public void shutdown() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        join(incoming.stream().map(IncomingRmqChannel::close).toList());
        join(outgoing.stream().map(OutgoingRmqChannel::close).toList());
        engines.close();
        metrics.close();
    }

    /**
     * The connector's metrics (see {@code docs/operations.md}), e.g. for admin tools running in the
     * application to count what they requeue ({@link RmqMetrics#requeued}).
     */
    public RmqMetrics metrics() {
        return metrics;
    }

    /**
     * What the admin tools running in the application tell the connector (the dead messages an operator
     * requeued, counted in {@code rmq.messages.requeued}), as a bean of the engine's type: the admin
     * endpoints ({@code rmq-admin-rest}) look up {@link EngineEvents} and need the engine only.
     */
    @Produces
    @Dependent
    EngineEvents operatorEvents() {
        return new EngineEvents() {
            @Override
            public void requeued(TopicDefinition topic, long count) {
                metrics.requeued(topic, count);
            }
        };
    }

    private static void join(List<CompletionStage<Void>> stops) {
        CompletableFuture.allOf(stops.stream().map(CompletionStage::toCompletableFuture)
                .toArray(CompletableFuture[]::new)).join();
    }
}
