package io.rmq.connector;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.spi.Connector;

/**
 * The injectable entry to what an application can do to its messages after sending them: by the name of one of
 * the connector's channels, outgoing or incoming, an {@link RmqTopic} that cancels, finds, reschedules or
 * reprioritizes a message of the channel's topic, given its payload and slot basis:
 *
 * <pre>{@code
 * @Inject RmqTopics topics;
 *
 * Cancellation c = topics.channel("order-timeouts-out").cancel("close:" + orderId, orderId);
 * }</pre>
 *
 * <p>Named after the topics it reaches; the channel is the key because it carries what a payload needs to become
 * a message (the codec) and where it lies (the topic's definition and Redis). It uses the connector's bean and
 * MicroProfile Reactive Messaging's SPI only, so it works wherever the connector does (SmallRye on Weld or
 * Quarkus, Open Liberty). Code without CDI uses the engine's {@code RmqEngine.pendingMessages} instead.
 */
@ApplicationScoped
public class RmqTopics {

    @Inject
    @Connector(RedisRmqConnector.CONNECTOR_NAME)
    RedisRmqConnector connector;

    /**
     * The messages of the topic of channel {@code channel}.
     *
     * @throws IllegalArgumentException RMQ-2300 naming the channel and the connector's channels, when it is not
     *                                  one of them (or the runtime has not created the channels yet)
     */
    public RmqTopic channel(String channel) {
        return connector.topicOf(channel);
    }
}
