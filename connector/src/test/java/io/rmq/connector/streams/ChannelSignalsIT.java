package io.rmq.connector.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisExtension;
import io.rmq.testing.redis.RedisTestServer;

/**
 * Reactive Streams behaviour of the channels that the TCK cannot check (see
 * docs/reactive-streams-tck.md): serial signalling under a concurrent failure (rule 1.3), demand up
 * to {@code Long.MAX_VALUE} on an endless stream (rule 3.17), refusing subscribers after close, cancel
 * giving popped messages back, and the outgoing channel's serial calls to its subscription (rule 2.7),
 * its handling of messages after close (rule 2.8) and of acks that throw.
 */
@ExtendWith(RedisExtension.class)
class ChannelSignalsIT {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private RedisTestServer redis;
    private RedisConnections connections;
    private ConnectorStreams streams;

    @BeforeEach
    void setUp(RedisTestServer redis, RedisConnections connections) {
        this.redis = redis;
        this.connections = connections;
        streams = new ConnectorStreams();
    }

    @AfterEach
    void tearDown() {
        streams.close();
    }

    private Publisher<Message<?>> incoming(String topic, int messages) {
        for (int i = 0; i < messages; i++) {
            connections.sync().zadd(topic + "_0", messages - i, "m" + i);
        }
        return streams.incoming(topic, "topic-type", "PRIORITY", "slot-amount", 1, "redis-uri", redis.uri(),
                "batch-size", 4, "poll-interval", 200, "shutdown-timeout", 500);
    }

    private Subscriber<Message<?>> outgoing(String topic, int maxInflight) {
        return streams.outgoing(topic, "topic-type", "FIXED_TIME", "slot-amount", 1, "redis-uri", redis.uri(),
                "max-inflight", maxInflight);
    }

    /** Rule 1.3: a failure signalled from another thread waits for the onNext under way. */
    @Test
    void onErrorFromAnotherThreadWaitsForTheOnNextUnderWay() throws Exception {
        Publisher<Message<?>> publisher = incoming("serial", 3);
        AtomicBoolean inSignal = new AtomicBoolean();
        AtomicBoolean overlapped = new AtomicBoolean();
        AtomicReference<Subscription> subscription = new AtomicReference<>();
        CountDownLatch insideOnNext = new CountDownLatch(1);
        CountDownLatch errored = new CountDownLatch(1);
        List<String> signals = new CopyOnWriteArrayList<>();
        publisher.subscribe(new Subscriber<Message<?>>() {
            @Override
            public void onSubscribe(Subscription s) {
                subscription.set(s);
                s.request(1);
            }

            @Override
            public void onNext(Message<?> message) {
                enter();
                signals.add("onNext");
                insideOnNext.countDown();
                sleep(300);
                inSignal.set(false);
            }

            @Override
            public void onError(Throwable t) {
                enter();
                signals.add("onError " + t.getClass().getSimpleName());
                inSignal.set(false);
                errored.countDown();
            }

            @Override
            public void onComplete() {
                signals.add("onComplete");
            }

            private void enter() {
                if (!inSignal.compareAndSet(false, true)) {
                    overlapped.set(true);
                }
            }
        });
        assertThat(insideOnNext.await(10, TimeUnit.SECONDS)).isTrue();

        subscription.get().request(0); // fails the stream (rule 3.9) while onNext runs on the channel's thread

        assertThat(errored.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(overlapped).as("onError overlapped onNext").isFalse();
        assertThat(signals).containsExactly("onNext", "onError IllegalArgumentException");
    }

    /** Rule 3.17, which the TCK checks only on streams that complete: demand may add up to Long.MAX_VALUE. */
    @Test
    void demandAddingUpToLongMaxValueDeliversEverythingWithoutError() {
        Publisher<Message<?>> publisher = incoming("unbounded", 10);
        Recorder recorder = new Recorder();
        publisher.subscribe(recorder);

        recorder.subscription.get().request(Long.MAX_VALUE / 2);
        recorder.subscription.get().request(Long.MAX_VALUE / 2);
        recorder.subscription.get().request(Long.MAX_VALUE);

        await().atMost(WAIT).until(() -> recorder.messages.size() == 10);
        assertThat(recorder.error.get()).isNull();
    }

    @Test
    void aSubscriberArrivingAfterTheChannelClosedIsRefusedWithOnError() {
        Publisher<Message<?>> publisher = incoming("closed", 1);
        streams.shutdownConnector();
        Recorder recorder = new Recorder();

        publisher.subscribe(recorder);

        assertThat(recorder.subscribed).isTrue();
        assertThat(recorder.error.get()).hasMessageContaining("RMQ-2009").hasMessageContaining("'closed'");
        assertThat(recorder.messages).isEmpty();
    }

    @Test
    void aSecondSubscriberIsRefusedWithOnError() {
        Publisher<Message<?>> publisher = incoming("single", 1);
        publisher.subscribe(new Recorder());
        Recorder second = new Recorder();

        publisher.subscribe(second);

        assertThat(second.subscribed).isTrue();
        assertThat(second.error.get()).hasMessageContaining("accepts a single subscriber");
    }

    /** Cancel stops the consumer gracefully: what it popped but did not hand over goes back to the queue. */
    @Test
    void cancelGivesThePoppedButUndeliveredMessagesBack() {
        Publisher<Message<?>> publisher = incoming("cancelled", 10);
        Recorder recorder = new Recorder();
        publisher.subscribe(recorder);
        recorder.subscription.get().request(1);
        await().atMost(WAIT).until(() -> recorder.messages.size() == 1);
        recorder.messages.get(0).ack();

        recorder.subscription.get().cancel();

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(connections.sync().zcard("prepare{cancelled_0}")).isZero();
            assertThat(connections.sync().zcard("cancelled_0")).isEqualTo(9);
            assertThat(connections.sync().hlen("attempts{cancelled_0}")).as("no attempt counted").isZero();
        });
        assertThat(recorder.messages).hasSize(1);
        assertThat(recorder.error.get()).isNull();
    }

    /** Rule 2.8 and shutdown: once closed, the channel writes nothing more and nacks what still arrives. */
    @Test
    void aMessageArrivingAfterTheChannelClosedIsNackedAndNotWritten() throws Exception {
        Subscriber<Message<?>> subscriber = outgoing("late", 4);
        ManualSubscription upstream = new ManualSubscription();
        subscriber.onSubscribe(upstream);
        streams.shutdownConnector();
        assertThat(upstream.cancelled).isTrue();

        CompletableFuture<Throwable> nacked = new CompletableFuture<>();
        subscriber.onNext(Message.of("too late", () -> CompletableFuture.completedFuture(null), reason -> {
            nacked.complete(reason);
            return CompletableFuture.completedFuture(null);
        }));

        assertThat(nacked.get(10, TimeUnit.SECONDS)).hasMessageContaining("RMQ-2009");
        assertThat(connections.sync().exists("late_0")).isZero();
    }

    /** An application's ack that throws still frees its place: the channel asks for the next message. */
    @Test
    void anAckThatThrowsDoesNotStallTheChannel() {
        Subscriber<Message<?>> subscriber = outgoing("throwing-ack", 1);
        ManualSubscription upstream = new ManualSubscription();
        subscriber.onSubscribe(upstream);
        assertThat(upstream.requested.get()).isEqualTo(1);

        Supplier<CompletionStage<Void>> throwingAck = () -> {
            throw new IllegalStateException("the application's ack failed");
        };
        subscriber.onNext(Message.of("first", throwingAck));

        await().atMost(WAIT).until(() -> upstream.requested.get() == 2);
        assertThat(connections.sync().zcard("throwing-ack_0")).isEqualTo(1);
    }

    /** Rule 2.7: calls to the subscription never overlap, though replies arrive on Redis client threads. */
    @Test
    void callsToTheSubscriptionNeverOverlap() {
        Subscriber<Message<?>> subscriber = outgoing("serial-requests", 8);
        ManualSubscription upstream = new ManualSubscription();
        upstream.slow = true;
        subscriber.onSubscribe(upstream);
        AtomicInteger sent = new AtomicInteger();
        AtomicInteger acked = new AtomicInteger();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (sent.get() < 200 && System.nanoTime() < deadline) {
            if (sent.get() < upstream.requested.get()) {
                subscriber.onNext(Message.of("m" + sent.getAndIncrement(), () -> {
                    acked.incrementAndGet();
                    return CompletableFuture.completedFuture(null);
                }));
            } else {
                Thread.onSpinWait();
            }
        }
        streams.shutdownConnector();

        assertThat(sent.get()).as("messages the channel asked for").isEqualTo(200);
        assertThat(acked.get()).isEqualTo(200);
        assertThat(upstream.cancelled).isTrue();
        assertThat(upstream.overlapped).as("overlapping calls to the subscription").isFalse();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Records what a publisher signals; requests nothing by itself. */
    private static final class Recorder implements Subscriber<Message<?>> {
        final AtomicReference<Subscription> subscription = new AtomicReference<>();
        final List<Message<?>> messages = new CopyOnWriteArrayList<>();
        final AtomicReference<Throwable> error = new AtomicReference<>();
        volatile boolean subscribed;

        @Override
        public void onSubscribe(Subscription s) {
            subscribed = true;
            subscription.set(s);
        }

        @Override
        public void onNext(Message<?> message) {
            messages.add(message);
        }

        @Override
        public void onError(Throwable t) {
            error.set(t);
        }

        @Override
        public void onComplete() {
        }
    }

    /** A subscription that counts demand, notices cancellation and, when slow, overlapping calls. */
    private static final class ManualSubscription implements Subscription {
        final AtomicLong requested = new AtomicLong();
        final AtomicInteger inside = new AtomicInteger();
        volatile boolean cancelled;
        volatile boolean overlapped;
        volatile boolean slow;

        @Override
        public void request(long n) {
            enter();
            requested.addAndGet(n);
            leave();
        }

        @Override
        public void cancel() {
            enter();
            cancelled = true;
            leave();
        }

        private void enter() {
            if (inside.incrementAndGet() > 1) {
                overlapped = true;
            }
            if (slow) {
                sleep(1);
            }
        }

        private void leave() {
            inside.decrementAndGet();
        }
    }
}
