package io.rmq.connector.streams;

import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.reactivestreams.tck.PublisherVerification;
import org.testng.annotations.AfterClass;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.BeforeMethod;

import io.lettuce.core.ScoredValue;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTestServer;

/**
 * The Reactive Streams TCK ({@link PublisherVerification}) against the publisher of an incoming
 * channel, over a real Redis.
 *
 * <p>{@link #createPublisher(long)} creates a channel on a topic of its own, already holding the
 * requested number of messages (at most {@value #MOST_PREFILLED}): a queue is an endless stream
 * whose present content is what was sent so far. The stream never completes, which
 * {@link #maxElementsFromPublisher()} tells the TCK: the rules that need {@code onComplete} are
 * skipped. {@link #createFailedPublisher()} gives a channel whose one subscription is taken, so that
 * every subscriber is refused with {@code onError} (rule 1.9). docs/reactive-streams-tck.md lists
 * every rule not verified and why.
 */
public class IncomingChannelPublisherTckIT extends PublisherVerification<Message<?>> {

    /** Most messages {@link #createPublisher(long)} puts in a topic; no test of the TCK consumes more than 21. */
    static final int MOST_PREFILLED = 64;

    private static final AtomicInteger TOPICS = new AtomicInteger();

    private RedisTestServer redis;
    private RedisConnections connections;
    private ConnectorStreams streams;

    public IncomingChannelPublisherTckIT() {
        super(TckSettings.environment(), TckSettings.PUBLISHER_REFERENCE_GC_TIMEOUT_MS);
    }

    @BeforeClass
    public void startRedis() {
        redis = RedisTestServer.shared();
        redis.start();
        redis.reset();
        connections = new RedisConnections(redis);
    }

    @AfterClass(alwaysRun = true)
    public void closeConnections() {
        if (connections != null) {
            connections.close();
        }
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
    public Publisher<Message<?>> createPublisher(long elements) {
        String topic = "tck-publisher-" + TOPICS.incrementAndGet();
        int count = (int) Math.min(elements, MOST_PREFILLED);
        if (count > 0) {
            @SuppressWarnings("unchecked")
            ScoredValue<String>[] members = new ScoredValue[count];
            for (int i = 0; i < count; i++) {
                members[i] = ScoredValue.just(count - i, "message-" + i); // PRIORITY: highest first
            }
            connections.sync().zadd(topic + "_0", (Object[]) members);
        }
        return streams.incoming(topic, "topic-type", "PRIORITY", "slot-amount", 1, "redis-uri", redis.uri(),
                "batch-size", 4, "poll-interval", 200, "shutdown-timeout", 500);
    }

    /** A channel whose single subscription is taken (and cancelled): it refuses every further subscriber. */
    @Override
    public Publisher<Message<?>> createFailedPublisher() {
        Publisher<Message<?>> publisher = createPublisher(0);
        publisher.subscribe(new Subscriber<Message<?>>() {
            @Override
            public void onSubscribe(Subscription s) {
                s.cancel();
            }

            @Override
            public void onNext(Message<?> message) {
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onComplete() {
            }
        });
        return publisher;
    }

    /** A queue never completes: the TCK skips the rules that need {@code onComplete}. */
    @Override
    public long maxElementsFromPublisher() {
        return publisherUnableToSignalOnComplete();
    }
}
