package io.rmq.connector.streams;

import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.reactivestreams.Subscriber;
import org.reactivestreams.tck.SubscriberBlackboxVerification;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.BeforeMethod;

import io.rmq.testing.redis.RedisTestServer;

/**
 * The Reactive Streams TCK ({@link SubscriberBlackboxVerification}) against the subscriber of an
 * outgoing channel, over a real Redis: the channel under test is the connector's own object, which
 * requests by itself ({@code max-inflight} at first, one more per settled message), so the black-box
 * verification fits it without instrumentation. Each subscriber writes to a {@code FIXED_TIME}
 * topic of its own; the elements are messages due at once. docs/reactive-streams-tck.md lists every
 * rule not verified and why.
 */
public class OutgoingChannelSubscriberTckIT extends SubscriberBlackboxVerification<Message<?>> {

    private static final AtomicInteger TOPICS = new AtomicInteger();

    private RedisTestServer redis;
    private ConnectorStreams streams;

    public OutgoingChannelSubscriberTckIT() {
        super(TckSettings.environment());
    }

    @BeforeClass
    public void startRedis() {
        redis = RedisTestServer.shared();
        redis.start();
        redis.reset();
    }

    @BeforeMethod
    public void createConnector() {
        streams = new ConnectorStreams();
    }

    @AfterMethod(alwaysRun = true)
    public void closeConnector() {
        streams.close();
    }

    @Override
    public Subscriber<Message<?>> createSubscriber() {
        String topic = "tck-subscriber-" + TOPICS.incrementAndGet();
        return streams.outgoing(topic, "topic-type", "FIXED_TIME", "slot-amount", 1, "redis-uri", redis.uri(),
                "max-inflight", 16);
    }

    @Override
    public Message<?> createElement(int element) {
        return Message.of("element-" + element);
    }
}
