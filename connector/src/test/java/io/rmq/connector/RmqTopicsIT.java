package io.rmq.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.api.sync.RedisCommands;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.rmq.engine.pending.CancelOutcome;
import io.rmq.engine.pending.MessageState;
import io.rmq.engine.pending.Rescheduling;
import io.rmq.testing.WeldApp;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;

/**
 * The injected {@link RmqTopics} on SmallRye Reactive Messaging and Weld, against a real Redis: a payload is
 * encoded with the channel's codec as the outgoing channel encodes it, found, rescheduled (and then delivered at
 * its new time) or cancelled (and never delivered), by the outgoing or the incoming channel's name; the counters
 * {@code rmq.messages.cancelled} and {@code .rescheduled}; an unknown channel's error.
 */
@RedisTest
class RmqTopicsIT {

    private static final String RMQ = RedisRmqConnector.CONNECTOR_NAME;
    private static final Duration WAIT = Duration.ofSeconds(20);

    /** The channels' codec: upper-cases strings, so a payload that was not encoded by it is not found. */
    public static class UpperCase implements RmqCodec {
        @Override
        public byte[] encode(Object payload) {
            return payload.toString().toUpperCase(java.util.Locale.ROOT).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }

        @Override
        public Object decode(byte[] content) {
            return new String(content, java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    /** The application's Micrometer registry. */
    public static class Micrometer {
        @Produces
        @Singleton
        MeterRegistry registry() {
            return new SimpleMeterRegistry();
        }
    }

    /** Schedules order time-outs and reaches them afterwards. */
    @ApplicationScoped
    public static class OrderDesk {
        @Inject
        @Channel("timeouts-out")
        Emitter<String> timeouts;

        @Inject
        RmqTopics topics;

        CompletionStage<Void> schedule(String payload, String orderId, Instant due) {
            CompletableFuture<Void> acked = new CompletableFuture<>();
            timeouts.send(Message.of(payload, Metadata.of(OutgoingRmqMetadata.builder().withDeliverAt(due)
                    .withSlotBasis(orderId).build()), () -> {
                        acked.complete(null);
                        return CompletableFuture.completedFuture(null);
                    }, reason -> {
                        acked.completeExceptionally(reason);
                        return CompletableFuture.completedFuture(null);
                    }));
            return acked;
        }

        RmqTopic timeouts(String channel) {
            return topics.channel(channel);
        }
    }

    /** Closes unpaid orders: records each time-out. */
    @ApplicationScoped
    public static class OrderCloser {
        final List<String> closed = new CopyOnWriteArrayList<>();

        @Incoming("timeouts")
        public void close(String timeout) {
            closed.add(timeout);
        }

        List<String> closed() {
            return closed;
        }
    }

    private WeldApp app;
    private RedisCommands<String, String> redis;

    @BeforeEach
    void setUp(RedisTestServer server, RedisConnections connections) {
        redis = connections.sync();
        app = WeldApp.builder().beans(RedisRmqConnector.class, RmqTopics.class, OrderDesk.class, OrderCloser.class,
                        Micrometer.class)
                .config("mp.messaging.connector." + RMQ + ".redis-uri", server.uri())
                .outgoing("timeouts-out", RMQ, "topic", "timeouts", "topic-type", "FIXED_TIME", "slot-amount", 4,
                        "codec", UpperCase.class.getName())
                .incoming("timeouts", RMQ, "topic-type", "FIXED_TIME", "slot-amount", 4, "poll-interval", 600_000,
                        "codec", UpperCase.class.getName())
                .start();
    }

    @AfterEach
    void tearDown() {
        app.close();
    }

    @Test
    void aScheduledTimeOutIsFoundRescheduledOrCancelledThroughTheInjectedBean() throws Exception {
        OrderDesk desk = app.get(OrderDesk.class);
        Instant inAnHour = Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.MILLIS);
        desk.schedule("close:order-1", "order-1", inAnHour).toCompletableFuture().get(10, TimeUnit.SECONDS);
        desk.schedule("close:order-2", "order-2", inAnHour).toCompletableFuture().get(10, TimeUnit.SECONDS);
        RmqTopic byOutgoing = desk.timeouts("timeouts-out");

        MessageState state = byOutgoing.find("close:order-1", "order-1");
        assertThat(state.pending()).as("encoded by the codec as when sent: CLOSE:ORDER-1").isTrue();
        assertThat(state.dueAt()).isEqualTo(inAnHour);
        assertThat(byOutgoing.find("close:order-1", null).found()).as("another slot basis, another slot").isFalse();

        // made due soon: the idle consumer (safety poll 10 minutes) is woken and gets it at its new time
        Instant soon = Instant.now().plusMillis(300);
        assertThat(byOutgoing.reschedule("close:order-1", "order-1", soon)).isEqualTo(new Rescheduling(true, false));
        OrderCloser closer = app.get(OrderCloser.class);
        await().atMost(WAIT).until(() -> closer.closed().contains("CLOSE:ORDER-1"));

        // the incoming channel's name reaches the same topic
        assertThat(desk.timeouts("timeouts").cancelAsync("close:order-2", "order-2").toCompletableFuture()
                .get(10, TimeUnit.SECONDS).outcome()).isEqualTo(CancelOutcome.CANCELLED);
        assertThat(redis.zcard("timeouts_" + io.rmq.engine.topic.SlotRouter.slotOf("order-2", null, 4))).isZero();
        assertThat(byOutgoing.cancel("close:order-2", "order-2").outcome()).isEqualTo(CancelOutcome.NOT_FOUND);

        MeterRegistry meters = app.get(MeterRegistry.class);
        assertThat(meters.get("rmq.messages.cancelled").tags("topic", "timeouts").counter().count()).isEqualTo(1.0);
        assertThat(meters.get("rmq.messages.rescheduled").tags("topic", "timeouts").counter().count()).isEqualTo(1.0);
        assertThat(closer.closed()).containsExactly("CLOSE:ORDER-1");
    }

    @Test
    void anUnknownChannelIsNamedWithTheConnectorsChannels() {
        assertThatThrownBy(() -> app.get(OrderDesk.class).timeouts("timeout"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("RMQ-2300 'timeout' is not a channel of the connector smallrye-redis-rmq; its channels are"
                        + " timeouts, timeouts-out");
    }

    @Test
    void aPriorityChangeOnATimedTopicIsRefused() {
        assertThatThrownBy(() -> app.get(OrderDesk.class).timeouts("timeouts-out").reprioritize("x", null, 3))
                .hasMessageStartingWith("RMQ-0502 Topic 'timeouts' is of type FIXED_TIME: reprioritize");
    }
}
