package io.rmq.tck.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

import io.rmq.connector.OutgoingRmqMetadata;
import io.rmq.tck.support.Inbox;
import io.rmq.tck.support.Outbox;
import io.rmq.tck.support.Received;
import io.rmq.tck.support.RedisProbe;

/**
 * {@code FIXED_TIME} topics: a message is delivered at the time it gives, never before; a pending
 * duplicate takes the last time sent; due messages are delivered oldest due first.
 *
 * <p>A contract rule class: the contract suite runs it on Weld embedded and Open Liberty
 * ({@code io.rmq.tck.FixedTimeIT}), the Quarkus example on Quarkus ({@code FixedTimeContractIT}); {@link #CHANNELS}
 * are its channels, and its beans (the nested classes) are part of the application under test.
 */
public abstract class FixedTimeRules {

    static final String TOPIC = "fixed-timeouts";
    /** How late a delivery may be on a busy CI machine; the connector aims at milliseconds. */
    static final long LATENESS_BOUND_MS = 2_000;

    /** The channels of these rules. */
    public static final ContractChannels CHANNELS = ContractChannels.declare()
            .outgoing("fixed-timeouts-out", "topic", TOPIC, "topic-type", "FIXED_TIME", "slot-amount", 1)
            .incoming(TOPIC, "topic-type", "FIXED_TIME", "slot-amount", 1, "poll-interval", 200);

    /** Closes unpaid orders: records each time-out and acks it. */
    @ApplicationScoped
    public static class OrderCloser {
        private final Inbox inbox = new Inbox();

        public Inbox inbox() {
            return inbox;
        }

        @Incoming("fixed-timeouts")
        public CompletionStage<Void> close(Message<String> timeout) {
            inbox.record(timeout);
            return timeout.ack();
        }
    }

    /**
     * Schedules the time-outs. (An emitter belongs in a bean: the runtime wires the emitters it finds
     * while discovering beans, and the test instance is not one. Access goes through methods, as the
     * bean is a client proxy.)
     */
    @ApplicationScoped
    public static class OrderDesk {
        @Inject
        @Channel("fixed-timeouts-out")
        Emitter<Object> timeouts;

        public Emitter<Object> timeouts() {
            return timeouts;
        }
    }

    @Inject
    OrderDesk desk;

    @Inject
    OrderCloser closer;

    @Inject
    RedisProbe probe;

    @Test
    public void aMessageIsDeliveredAtItsTimeAndNotBefore() {
        Instant due = Instant.ofEpochMilli(probe.redisTimeMillis() + 1_200);
        Outbox.sendAndAwaitAck(desk.timeouts(), "close:order-1", OutgoingRmqMetadata.builder().withDeliverAt(due).build());

        Received r = closer.inbox().awaitStartingWith("close:order-1", 1).get(0);
        assertThat(r.atMillis()).as("delivered at or after its time").isGreaterThanOrEqualTo(due.toEpochMilli());
        assertThat(r.atMillis() - due.toEpochMilli()).as("lateness in ms").isLessThan(LATENESS_BOUND_MS);
        assertThat((long) r.score()).as("the score is the delivery time").isEqualTo(due.toEpochMilli());
        assertThat(r.attempt()).isEqualTo(1);
        assertThat(r.metadata().getTopic()).isEqualTo(TOPIC);
        assertThat(r.metadata().getChannel()).isEqualTo("fixed-timeouts");
        assertThat(r.metadata().getSlot()).isZero();
    }

    @Test
    public void aDelayCountsFromWhenTheMessageIsSent() {
        long before = System.currentTimeMillis();
        Outbox.sendAndAwaitAck(desk.timeouts(), "close:order-2", OutgoingRmqMetadata.builder().withDelay(Duration.ofMillis(1_000)).build());
        long after = System.currentTimeMillis();

        Received r = closer.inbox().awaitStartingWith("close:order-2", 1).get(0);
        assertThat((long) r.score()).isBetween(before + 1_000, after + 1_000);
        assertThat(r.atMillis()).isGreaterThanOrEqualTo((long) r.score());
    }

    @Test
    public void aPendingDuplicateTakesTheLastTimeSent() {
        long now = probe.redisTimeMillis();
        // sooner than first sent: the last (sooner) time stands
        Outbox.sendAndAwaitAck(desk.timeouts(), "close:order-3", deliverAt(now + 60_000));
        Outbox.sendAndAwaitAck(desk.timeouts(), "close:order-3", deliverAt(now + 1_500));
        // later than first sent: the last (later) time stands too
        Outbox.sendAndAwaitAck(desk.timeouts(), "close:order-4", deliverAt(now + 2_500));
        Outbox.sendAndAwaitAck(desk.timeouts(), "close:order-4", deliverAt(now + 4_000));
        assertThat(probe.pendingScore(TOPIC, "close:order-3")).isEqualTo(now + 1_500.0);
        assertThat(probe.pendingScore(TOPIC, "close:order-4")).isEqualTo(now + 4_000.0);

        List<Received> received = closer.inbox().awaitMatching(
                r -> r.payload().equals("close:order-3") || r.payload().equals("close:order-4"), 2);
        assertThat(received).extracting(Received::payload).containsExactly("close:order-3", "close:order-4");
        assertThat(received.get(0).atMillis()).isBetween(now + 1_500, now + 1_500 + LATENESS_BOUND_MS);
        assertThat(received.get(1).atMillis()).isGreaterThanOrEqualTo(now + 4_000);
        assertThat(received).extracting(r -> (long) r.score()).containsExactly(now + 1_500, now + 4_000);
    }

    @Test
    public void dueMessagesAreDeliveredOldestDueFirst() {
        long now = probe.redisTimeMillis();
        // one ZADD, as a producer in another language would write them: the consumer finds all three due at once
        probe.zaddPending(TOPIC, now - 100, "expire:c", now - 300, "expire:a", now - 200, "expire:b");

        List<Received> received = closer.inbox().awaitStartingWith("expire:", 3);
        assertThat(received).extracting(Received::payload).containsExactly("expire:a", "expire:b", "expire:c");
        await().atMost(Inbox.WAIT).until(() -> probe.pending(TOPIC).isEmpty() && probe.preparing(TOPIC) == 0);
    }

    private static OutgoingRmqMetadata deliverAt(long epochMillis) {
        return OutgoingRmqMetadata.builder().withDeliverAt(Instant.ofEpochMilli(epochMillis)).build();
    }
}
