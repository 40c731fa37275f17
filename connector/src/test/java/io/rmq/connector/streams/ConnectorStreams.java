package io.rmq.connector.streams;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.streams.operators.spi.Graph;
import org.eclipse.microprofile.reactive.streams.operators.spi.ReactiveStreamsEngine;
import org.eclipse.microprofile.reactive.streams.operators.spi.Stage;
import org.eclipse.microprofile.reactive.streams.operators.spi.SubscriberWithCompletionStage;
import org.eclipse.microprofile.reactive.streams.operators.spi.UnsupportedStageException;
import org.reactivestreams.Processor;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;

import io.rmq.connector.RedisRmqConnector;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * The connector's channels as the runtime receives them, for tests that talk Reactive Streams to
 * them directly: {@link RedisRmqConnector#getPublisherBuilder(Config)} and
 * {@link RedisRmqConnector#getSubscriberBuilder(Config)} are called with a channel configuration,
 * and the {@link Publisher} or {@link Subscriber} inside the returned builder is taken out as it is,
 * unwrapped, by an engine that only accepts a graph of that one stage. So the TCK verifies the
 * connector's own objects, not an operator library's wrappers.
 *
 * <p>{@link #close()} shuts the connector down (every channel) and closes its Redis clients. Not
 * thread-safe; one per test method.
 */
final class ConnectorStreams implements AutoCloseable {

    private final RedisRmqConnector connector = new RedisRmqConnector();
    private final UnwrappingEngine engine = new UnwrappingEngine();

    /** The publisher of a new incoming channel; {@code attributes} are channel attribute/value pairs. */
    @SuppressWarnings("unchecked")
    Publisher<Message<?>> incoming(String channel, Object... attributes) {
        return (Publisher<Message<?>>) connector.getPublisherBuilder(config(channel, attributes)).buildRs(engine);
    }

    /** The subscriber of a new outgoing channel; {@code attributes} are channel attribute/value pairs. */
    @SuppressWarnings("unchecked")
    Subscriber<Message<?>> outgoing(String channel, Object... attributes) {
        connector.getSubscriberBuilder(config(channel, attributes)).build(engine);
        return (Subscriber<Message<?>>) engine.lastSubscriber;
    }

    /** Stops every channel of the connector, then closes its Redis clients. */
    void shutdownConnector() {
        connector.shutdown();
    }

    /** The same as {@link #shutdownConnector()}; idempotent. */
    @Override
    public void close() {
        connector.shutdown();
    }

    private static Config config(String channel, Object... attributes) {
        Map<String, String> properties = new HashMap<>();
        properties.put("channel-name", channel);
        properties.put("connector", RedisRmqConnector.CONNECTOR_NAME);
        for (int i = 0; i + 1 < attributes.length; i += 2) {
            properties.put(String.valueOf(attributes[i]), String.valueOf(attributes[i + 1]));
        }
        return new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(properties, "channel", 100)).build();
    }

    /** Builds only single-stage graphs, by handing out the stage's own publisher or subscriber. */
    private static final class UnwrappingEngine implements ReactiveStreamsEngine {
        Subscriber<?> lastSubscriber;

        @Override
        @SuppressWarnings("unchecked")
        public <T> Publisher<T> buildPublisher(Graph graph) {
            if (only(graph) instanceof Stage.PublisherStage stage) {
                return (Publisher<T>) stage.getRsPublisher();
            }
            throw new UnsupportedStageException(only(graph));
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T, R> SubscriberWithCompletionStage<T, R> buildSubscriber(Graph graph) {
            if (!(only(graph) instanceof Stage.SubscriberStage stage)) {
                throw new UnsupportedStageException(only(graph));
            }
            Subscriber<T> subscriber = (Subscriber<T>) stage.getRsSubscriber();
            lastSubscriber = subscriber;
            CompletableFuture<R> completion = new CompletableFuture<>();
            return new SubscriberWithCompletionStage<>() {
                @Override
                public CompletionStage<R> getCompletion() {
                    return completion;
                }

                @Override
                public Subscriber<T> getSubscriber() {
                    return subscriber;
                }
            };
        }

        @Override
        public <T, R> Processor<T, R> buildProcessor(Graph graph) {
            throw new UnsupportedStageException(only(graph));
        }

        @Override
        public <T> CompletionStage<T> buildCompletion(Graph graph) {
            throw new UnsupportedStageException(only(graph));
        }

        private static Stage only(Graph graph) {
            List<Stage> stages = List.copyOf(graph.getStages());
            if (stages.size() != 1) {
                throw new IllegalArgumentException("expected a graph of one stage, got " + stages);
            }
            return stages.get(0);
        }
    }
}
