package io.rmq.tck.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

import io.rmq.connector.OutgoingRmqMetadata;
import io.rmq.connector.RmqTopic;
import io.rmq.connector.RmqTopics;
import io.rmq.engine.pending.CancelOutcome;
import io.rmq.engine.pending.MessageState;
import io.rmq.tck.support.Inbox;
import io.rmq.tck.support.Outbox;
import io.rmq.tck.support.Received;
import io.rmq.tck.support.RedisProbe;

/**
 * Reaching a message after sending it, through the injected {@link RmqTopics}: a cancelled message is never
 * delivered; a message is found with its due time; a rescheduled one is delivered at its new time, not at the
 * one it was sent with; the incoming channel's name reaches the same messages; an unknown channel is refused.
 *
 * <p>A contract rule class: the contract suite runs it on Weld embedded and Open Liberty
 * ({@code io.rmq.tck.PendingMessagesIT}), the Quarkus example on Quarkus ({@code PendingMessagesContractIT});
 * {@link #CHANNELS} are its channels, and its beans (the nested classes) are part of the application under test.
 */
public abstract class PendingMessagesRules {

    static final String TOPIC = "pending-timeouts";
    static final String OUT = "pending-timeouts-out";
    /** How late a delivery may be on a busy CI machine; the connector aims at milliseconds. */
    static final long LATENESS_BOUND_MS = 2_000;

    /** The channels of these rules. */
    public static final ContractChannels CHANNELS = ContractChannels.declare()
            .outgoing(OUT, "topic", TOPIC, "topic-type", "FIXED_TIME", "slot-amount", 2)
            .incoming(TOPIC, "topic-type", "FIXED_TIME", "slot-amount", 2, "poll-interval", 60_000);

    /** Closes unpaid orders: records each time-out and acks it. */
    @ApplicationScoped
    public static class PendingCloser {
        private final Inbox inbox = new Inbox();

        public Inbox inbox() {
            return inbox;
        }

        @Incoming(TOPIC)
        public CompletionStage<Void> close(Message<String> timeout) {
            inbox.record(timeout);
            return timeout.ack();
        }
    }

    /** Schedules the time-outs (an emitter belongs in a bean; access goes through methods of its client proxy). */
    @ApplicationScoped
    public static class PendingDesk {
        @Inject
        @Channel(OUT)
        Emitter<Object> timeouts;

        public Emitter<Object> timeouts() {
            return timeouts;
        }
    }

    @Inject
    PendingDesk desk;

    @Inject
    PendingCloser closer;

    @Inject
    RmqTopics topics;

    @Inject
    RedisProbe probe;

    @Test
    public void aCancelledMessageIsNeverDelivered() {
        long due = probe.redisTimeMillis() + 1_000;
        Outbox.sendAndAwaitAck(desk.timeouts(), "cancel:order-1", at(due, "order-1"));
        Outbox.sendAndAwaitAck(desk.timeouts(), "cancel:order-2", at(due, "order-2"));

        assertThat(topics.channel(OUT).cancel("cancel:order-1", "order-1").outcome()).isEqualTo(CancelOutcome.CANCELLED);

        // its neighbour, due at the same time, is delivered; the cancelled one never is
        closer.inbox().awaitStartingWith("cancel:order-2", 1);
        assertThat(closer.inbox().startingWith("cancel:order-1")).isEmpty();
        assertThat(topics.channel(OUT).cancel("cancel:order-1", "order-1").outcome()).isEqualTo(CancelOutcome.NOT_FOUND);
    }

    @Test
    public void aRescheduledMessageIsDeliveredAtItsNewTime() {
        long inAnHour = probe.redisTimeMillis() + 3_600_000;
        Outbox.sendAndAwaitAck(desk.timeouts(), "moved:order-3", at(inAnHour, "order-3"));
        RmqTopic byIncoming = topics.channel(TOPIC);
        MessageState state = byIncoming.find("moved:order-3", "order-3");
        assertThat(state.pending()).isTrue();
        assertThat(state.dueAt()).isEqualTo(Instant.ofEpochMilli(inAnHour));

        long soon = probe.redisTimeMillis() + 800;
        assertThat(byIncoming.reschedule("moved:order-3", "order-3", Instant.ofEpochMilli(soon)).rescheduled()).isTrue();

        // the consumer sleeps for an hour (its safety poll is a minute): the reschedule wakes it
        Received r = closer.inbox().awaitStartingWith("moved:order-3", 1).get(0);
        assertThat(r.atMillis()).as("delivered at or after its new time").isGreaterThanOrEqualTo(soon);
        assertThat(r.atMillis() - soon).as("lateness in ms").isLessThan(LATENESS_BOUND_MS);
        assertThat((long) r.score()).isEqualTo(soon);
    }

    @Test
    public void anUnknownChannelIsRefusedWithTheChannelsOfTheConnector() {
        assertThatThrownBy(() -> topics.channel("pending-timeout"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("RMQ-2300 'pending-timeout' is not a channel of the connector smallrye-redis-rmq;")
                .hasMessageContaining(OUT);
    }

    private static OutgoingRmqMetadata at(long epochMillis, String orderId) {
        return OutgoingRmqMetadata.builder().withDeliverAt(Instant.ofEpochMilli(epochMillis)).withSlotBasis(orderId)
                .build();
    }
}
