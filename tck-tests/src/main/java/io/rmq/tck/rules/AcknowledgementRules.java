package io.rmq.tck.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

import io.rmq.tck.support.Inbox;
import io.rmq.tck.support.Received;
import io.rmq.tck.support.RedisProbe;

/**
 * Two-phase consumption as the application sees it: {@code ack()} commits; {@code nack()} retries,
 * after {@code retry-backoff} for timed topics, and a message is moved to the dead queue after
 * {@code 1 + max-retries} deliveries; a message whose consumer died is delivered again once its
 * {@code prepare-timeout} deadline passes, while a live consumer that holds a message longer keeps it.
 *
 * <p>Messages are written as any producer may write them (one {@code ZADD}, due at once), so each
 * channel is tested on its own; the topics are {@code FIXED_TIME} with one slot.
 *
 * <p>A contract rule class: the contract suite runs it on Weld embedded and Open Liberty
 * ({@code io.rmq.tck.AcknowledgementIT}), the Quarkus example on Quarkus ({@code AcknowledgementContractIT}); {@link #CHANNELS}
 * are its channels, and its beans (the nested classes) are part of the application under test.
 */
public abstract class AcknowledgementRules {

    /** The channel ack-flaky's {@code retry-backoff}. */
    static final long BACKOFF_MS = 800;
    /** The channel ack-abandoned's {@code prepare-timeout}. */
    static final long PREPARE_TIMEOUT_MS = 1_000;

    /** The channels of these rules: FIXED_TIME topics of one slot, written to with ZADD. */
    public static final ContractChannels CHANNELS = ContractChannels.declare()
            .incoming("ack-committed", topic())
            .incoming("ack-failing", topic("max-retries", 2, "retry-backoff", 0))
            .incoming("ack-flaky", topic("retry-backoff", BACKOFF_MS))
            .incoming("ack-abandoned", topic("prepare-timeout", PREPARE_TIMEOUT_MS, "retry-backoff", 0))
            .incoming("ack-slow", topic("prepare-timeout", PREPARE_TIMEOUT_MS));

    private static Object[] topic(Object... more) {
        Object[] base = {"topic-type", "FIXED_TIME", "slot-amount", 1, "poll-interval", 200};
        Object[] all = new Object[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    /** Acks every message. */
    @ApplicationScoped
    public static class Committing {
        private final Inbox inbox = new Inbox();

        public Inbox inbox() {
            return inbox;
        }

        @Incoming("ack-committed")
        public CompletionStage<Void> consume(Message<String> m) {
            inbox.record(m);
            return m.ack();
        }
    }

    /** Nacks every message. */
    @ApplicationScoped
    public static class Failing {
        private final Inbox inbox = new Inbox();

        public Inbox inbox() {
            return inbox;
        }

        @Incoming("ack-failing")
        public CompletionStage<Void> consume(Message<String> m) {
            inbox.record(m);
            return m.nack(new IllegalStateException("cannot process " + m.getPayload()));
        }
    }

    /** Nacks the first delivery of each message, acks the next. */
    @ApplicationScoped
    public static class Flaky {
        private final Inbox inbox = new Inbox();

        public Inbox inbox() {
            return inbox;
        }

        @Incoming("ack-flaky")
        public CompletionStage<Void> consume(Message<String> m) {
            Received r = inbox.record(m);
            return r.attempt() == 1 ? m.nack(new IllegalStateException("not yet")) : m.ack();
        }
    }

    /** Acks every message (messages whose earlier consumer died). */
    @ApplicationScoped
    public static class Recovering {
        private final Inbox inbox = new Inbox();

        public Inbox inbox() {
            return inbox;
        }

        @Incoming("ack-abandoned")
        public CompletionStage<Void> consume(Message<String> m) {
            inbox.record(m);
            return m.ack();
        }
    }

    /** Takes four prepare timeouts to process each message, then acks it. */
    @ApplicationScoped
    public static class Slow {
        /**
         * Four prepare timeouts. The deadline is extended every third of a prepare timeout; with 1 s, a JVM
         * stalled for up to about 0.6 s still extends it in time (with 300 ms, the rule failed once on a machine
         * running at a load average of 10).
         */
        static final long PROCESSING_MS = 4 * PREPARE_TIMEOUT_MS;
        private final Inbox inbox = new Inbox();

        public Inbox inbox() {
            return inbox;
        }

        @Incoming("ack-slow")
        public CompletionStage<Void> consume(Message<String> m) {
            inbox.record(m);
            return CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(PROCESSING_MS, TimeUnit.MILLISECONDS))
                    .thenCompose(v -> m.ack());
        }
    }

    @Inject
    Committing committing;

    @Inject
    Failing failing;

    @Inject
    Flaky flaky;

    @Inject
    Recovering recovering;

    @Inject
    Slow slow;

    @Inject
    RedisProbe probe;

    @Test
    public void ackCommitsTheMessage() {
        probe.zaddPending("ack-committed", probe.redisTimeMillis(), "invoice-1");

        Received r = committing.inbox().awaitStartingWith("invoice-1", 1).get(0);
        assertThat(r.attempt()).isEqualTo(1);
        await().atMost(Inbox.WAIT).until(() -> probe.preparing("ack-committed") == 0);
        assertThat(probe.pending("ack-committed")).isEmpty();
        assertThat(probe.attempts("ack-committed")).isEmpty();
        assertThat(probe.dead("ack-committed")).isEmpty();
        // nothing of it is left in Redis, so it cannot be delivered again
        assertThat(committing.inbox().startingWith("invoice-1")).as("never delivered again").hasSize(1);
    }

    @Test
    public void aNackedMessageIsRetriedThenDeadLetteredAfterOnePlusMaxRetriesDeliveries() {
        probe.zaddPending("ack-failing", probe.redisTimeMillis(), "poison");

        List<Received> deliveries = failing.inbox().awaitStartingWith("poison", 3);
        await().atMost(Inbox.WAIT).until(() -> probe.dead("ack-failing").contains("poison"));
        assertThat(probe.pending("ack-failing")).isEmpty();
        assertThat(probe.preparing("ack-failing")).isZero();
        assertThat(probe.dead("ack-failing")).containsExactly("poison");
        // only in the dead queue: it cannot be delivered again
        assertThat(failing.inbox().startingWith("poison")).as("1 + max-retries (2) deliveries")
                .extracting(Received::attempt).containsExactly(1, 2, 3);
        assertThat(deliveries).allMatch(d -> d.payload().equals("poison"));
    }

    @Test
    public void aNackedTimedMessageIsRetriedAfterTheBackoffThenAckedOnce() {
        probe.zaddPending("ack-flaky", probe.redisTimeMillis(), "report-7");

        List<Received> deliveries = flaky.inbox().awaitStartingWith("report-7", 2);
        assertThat(deliveries).extracting(Received::attempt).containsExactly(1, 2);
        assertThat(deliveries.get(1).atMillis() - deliveries.get(0).atMillis())
                .as("retried after retry-backoff").isGreaterThanOrEqualTo(BACKOFF_MS);
        await().atMost(Inbox.WAIT).until(() -> probe.preparing("ack-flaky") == 0);
        assertThat(probe.pending("ack-flaky")).isEmpty();
        assertThat(probe.dead("ack-flaky")).isEmpty();
        // committed, nothing of it is left in Redis: no third delivery can come
        assertThat(flaky.inbox().startingWith("report-7")).hasSize(2);
    }

    @Test
    public void aMessageWhoseConsumerDiedIsDeliveredAgainOnceItsPrepareDeadlinePasses() {
        // What a consumer that popped the message and died leaves behind: the member in the prepare
        // queue, scored with its deadline (pop time + prepare-timeout), never committed.
        long deadline = probe.redisTimeMillis() + PREPARE_TIMEOUT_MS;
        probe.leaveInPrepareQueue("ack-abandoned", "order-77", deadline);

        Received r = recovering.inbox().awaitStartingWith("order-77", 1).get(0);
        assertThat(r.atMillis()).as("not before the deadline").isGreaterThanOrEqualTo(deadline);
        assertThat(r.attempt()).as("the abandoned delivery counts as a failed one").isEqualTo(2);
        await().atMost(Inbox.WAIT).until(() -> probe.preparing("ack-abandoned") == 0);
        assertThat(probe.pending("ack-abandoned")).isEmpty();
    }

    @Test
    public void aLiveConsumerThatHoldsAMessageLongerThanThePrepareTimeoutKeepsIt() {
        probe.zaddPending("ack-slow", probe.redisTimeMillis(), "render-video-3");

        slow.inbox().awaitStartingWith("render-video-3", 1);
        // committed after four prepare timeouts of processing
        await().atMost(Inbox.WAIT).until(() -> probe.preparing("ack-slow") == 0);
        assertThat(probe.pending("ack-slow")).isEmpty();
        assertThat(probe.attempts("ack-slow")).as("never rolled back by the sweeper").isEmpty();
        // nothing of it is left in Redis: a second delivery would have come before the commit, or not at all
        assertThat(slow.inbox().startingWith("render-video-3")).as("not delivered twice").hasSize(1);
    }
}
