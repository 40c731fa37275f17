package io.rmq.testing.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

/**
 * Records the messages published on one Pub/Sub channel, such as a topic's wake channel. Open one
 * with {@link RedisConnections#record(String)}.
 *
 * <p>{@link #drain()} is exact without sleeping: it publishes a marker on the channel and waits for
 * it, and Redis delivers a channel's messages to a subscriber in the order they were published, so
 * every message published before the call (by a script, for example) has arrived with the marker.
 * An empty result therefore proves that nothing was published. Thread-safe.
 */
public final class ChannelRecorder implements AutoCloseable {

    private static final long DRAIN_TIMEOUT_MS = 10_000;

    private final String channel;
    private final StatefulRedisPubSubConnection<String, String> subscriber;
    private final RedisCommands<String, String> publisher;
    private final BlockingQueue<String> received = new LinkedBlockingQueue<>();

    private ChannelRecorder(String channel, StatefulRedisPubSubConnection<String, String> subscriber,
            RedisCommands<String, String> publisher) {
        this.channel = channel;
        this.subscriber = subscriber;
        this.publisher = publisher;
    }

    static ChannelRecorder subscribe(RedisClient client, RedisCommands<String, String> publisher, String channel) {
        ChannelRecorder recorder = new ChannelRecorder(channel, client.connectPubSub(), publisher);
        recorder.subscriber.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String from, String message) {
                if (from.equals(channel)) {
                    recorder.received.add(message);
                }
            }
        });
        // returns once Redis has confirmed the subscription
        recorder.subscriber.sync().subscribe(channel);
        return recorder;
    }

    /** The channel's name. */
    public String channel() {
        return channel;
    }

    /**
     * The messages published on the channel since the subscription or the previous call, in order.
     *
     * @throws AssertionError when the marker does not come back within 10 s
     */
    public List<String> drain() {
        String marker = "rmq-testing-marker-" + UUID.randomUUID();
        publisher.publish(channel, marker);
        List<String> messages = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_TIMEOUT_MS);
        try {
            while (true) {
                String message = received.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                if (message == null) {
                    throw new AssertionError("no marker came back on channel " + channel + " within "
                            + DRAIN_TIMEOUT_MS + " ms; received so far: " + messages);
                }
                if (message.equals(marker)) {
                    return messages;
                }
                messages.add(message);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while draining channel " + channel, e);
        }
    }

    /** Unsubscribes and closes the subscriber connection. */
    @Override
    public void close() {
        subscriber.close();
    }
}
