package io.rmq.tck.support;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import io.rmq.connector.IncomingRmqMetadata;

/**
 * What an application bean received on one incoming channel, in arrival order. A bean's
 * {@code @Incoming} method calls {@link #record}; a bean that consumes an injected
 * {@code @Channel} publisher subscribes {@link #ackingSubscriber()} when the test lets it start. Thread-safe.
 */
public final class Inbox {

    /** How long a test waits for an expected message: generous, for a busy 2-core CI machine. */
    public static final Duration WAIT = Duration.ofSeconds(20);

    private final List<Received> received = new CopyOnWriteArrayList<>();

    /** Records a message; the caller acks or nacks it. */
    public Received record(Message<?> message) {
        IncomingRmqMetadata metadata = message.getMetadata(IncomingRmqMetadata.class)
                .orElseThrow(() -> new AssertionError("a message without IncomingRmqMetadata: " + message.getPayload()));
        Received r = new Received(String.valueOf(message.getPayload()), metadata, System.currentTimeMillis());
        received.add(r);
        return r;
    }

    /** Everything received so far. */
    public List<Received> all() {
        return List.copyOf(received);
    }

    /** What was received with a payload starting with {@code prefix}, in arrival order. */
    public List<Received> startingWith(String prefix) {
        return received.stream().filter(r -> r.payload().startsWith(prefix)).collect(Collectors.toList());
    }

    /** Waits until {@code count} messages with a payload starting with {@code prefix} have arrived, and returns them all. */
    public List<Received> awaitStartingWith(String prefix, int count) {
        return awaitMatching(r -> r.payload().startsWith(prefix), count);
    }

    /** Waits until {@code count} matching messages have arrived, and returns them all. */
    public List<Received> awaitMatching(Predicate<Received> filter, int count) {
        await().atMost(WAIT).until(() -> received.stream().filter(filter).count() >= count);
        return received.stream().filter(filter).collect(Collectors.toList());
    }

    /** A subscriber that requests everything and acks each message after recording it. */
    public Subscriber<Message<String>> ackingSubscriber() {
        return new Subscriber<>() {
            @Override
            public void onSubscribe(Subscription s) {
                s.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(Message<String> message) {
                record(message);
                message.ack();
            }

            @Override
            public void onError(Throwable t) {
                throw new AssertionError("the incoming channel failed", t);
            }

            @Override
            public void onComplete() {
            }
        };
    }
}
