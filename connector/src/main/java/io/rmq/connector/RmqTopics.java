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
 * <p>It also pauses and resumes the application's own incoming channels ({@link #pause}), on every runtime, beside
 * SmallRye's {@code pausable} channels and the cluster-wide pause of the admin API.
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

    /**
     * Pauses incoming channel {@code channel} in this application instance (other instances go on), every copy of
     * it when it runs several ({@code concurrency}; a copy's own name, {@code <channel>$<n>}, pauses that one): it pops
     * nothing more and hands nothing more to the application; the messages it popped and has not handed over go
     * back to the store queue with their score, no attempt counted (with {@code batch=true}, a batch gathered
     * already waits for the resume); messages the application holds are acked or nacked as usual. Does nothing
     * when paused already.
     *
     * @throws IllegalArgumentException RMQ-2362 naming the connector's incoming channels, when it is not one
     */
    public void pause(String channel) {
        connector.incomingChannels(channel).forEach(IncomingRmqChannel::pause);
    }

    /**
     * Resumes incoming channel {@code channel} (every copy of it) after {@link #pause}: it pops again at once. Does
     * nothing when not paused.
     *
     * @throws IllegalArgumentException RMQ-2362 naming the connector's incoming channels, when it is not one
     */
    public void resume(String channel) {
        connector.incomingChannels(channel).forEach(IncomingRmqChannel::resume);
    }

    /**
     * Whether incoming channel {@code channel} (every copy of it) is paused by {@link #pause} in this application
     * instance.
     *
     * @throws IllegalArgumentException RMQ-2362 naming the connector's incoming channels, when it is not one
     */
    public boolean isPaused(String channel) {
        return connector.incomingChannels(channel).stream().allMatch(IncomingRmqChannel::isPaused);
    }
}
