package io.rmq.tck.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;

import io.rmq.connector.RmqTopics;
import io.rmq.tck.support.Inbox;
import io.rmq.tck.support.RedisProbe;
import io.rmq.tck.support.SmallRyePausables;

/**
 * Pausing an incoming channel from the application: through the injected {@link RmqTopics} on every runtime
 * (a paused channel pops nothing, leaves what is written pending, and consumes it once resumed; the messages it
 * had popped and not handed over go back to the store queue with their scores and no attempt counted, while the
 * one the application holds stays in flight and is acked as usual), and through
 * SmallRye's {@code pausable} channels ({@code pausable.initially-paused}: nothing popped until
 * {@code ChannelRegistry.getPausable(channel).resume()}) where the application sees SmallRye's
 * {@code ChannelRegistry}. Open Liberty does not: its SmallRye Reactive Messaging (4.16) has no pausable
 * channels and hides SmallRye's types from applications, so that rule is skipped there.
 *
 * <p>Messages are written with one {@code ZADD} (due at once) into {@code FIXED_TIME} topics of one slot.
 *
 * <p>A contract rule class: the contract suite runs it on Weld embedded and Open Liberty
 * ({@code io.rmq.tck.PauseIT}), the Quarkus example on Quarkus ({@code PauseContractIT}); {@link #CHANNELS}
 * are its channels, and its beans (the nested classes) are part of the application under test.
 */
public abstract class PauseRules {

    static final String APP_PAUSED = "pause-by-app";
    static final String INITIALLY_PAUSED = "pause-initially";
    static final String PREFETCHING = "pause-prefetch";
    /** How long a paused channel is watched for a pop it must not make. */
    static final Duration WATCHED = Duration.ofMillis(800);

    /**
     * The system property naming the runtime, when the one that runs the rules says: the contract suite's Open Liberty
     * execution sets {@code open-liberty}, so that its Arquillian client skips what the server cannot do (an
     * assumption that fails inside the server is reported as an error, not as a skip).
     */
    public static final String RUNTIME_PROPERTY = "rmq.tck.runtime";
    /** Why SmallRye's pausable channels are not tested on Open Liberty. */
    static final String NO_PAUSABLE = "SmallRye's pausable channels: Open Liberty 26.0.0.3 bundles SmallRye Reactive"
            + " Messaging 4.16, which has no pausable channels (the attributes pausable and pausable.initially-paused are"
            + " ignored: the channel consumes at once), and hides SmallRye's ChannelRegistry from applications; use"
            + " RmqTopics.pause/resume there";

    /** The channels of these rules: {@link #INITIALLY_PAUSED} is one of SmallRye's pausable channels. */
    public static final ContractChannels CHANNELS = ContractChannels.declare()
            .incoming(APP_PAUSED, "topic-type", "FIXED_TIME", "slot-amount", 1, "poll-interval", 200)
            .incoming(PREFETCHING, "topic-type", "FIXED_TIME", "slot-amount", 1, "poll-interval", 200, "batch-size", 10)
            .incoming(INITIALLY_PAUSED, "topic-type", "FIXED_TIME", "slot-amount", 1, "poll-interval", 200,
                    "pausable", true, "pausable.initially-paused", true);

    /** Records and acks what the channel paused by the application delivers. */
    @ApplicationScoped
    public static class AppPausedConsumer {
        private final Inbox inbox = new Inbox();

        public Inbox inbox() {
            return inbox;
        }

        @Incoming(APP_PAUSED)
        public CompletionStage<Void> consume(Message<String> message) {
            inbox.record(message);
            return message.ack();
        }
    }

    /** Records what the prefetching channel delivers; holds a "hold" message (unsettled) until released. */
    @ApplicationScoped
    public static class HoldingConsumer {
        private final Inbox inbox = new Inbox();
        private final CompletableFuture<Void> release = new CompletableFuture<>();

        public Inbox inbox() {
            return inbox;
        }

        /** Lets the held message be acked. */
        public void release() {
            release.complete(null);
        }

        @Incoming(PREFETCHING)
        public CompletionStage<Void> consume(Message<String> message) {
            inbox.record(message);
            return message.getPayload().startsWith("hold") ? release.thenCompose(v -> message.ack()) : message.ack();
        }
    }

    /** Records and acks what the initially paused channel delivers. */
    @ApplicationScoped
    public static class InitiallyPausedConsumer {
        private final Inbox inbox = new Inbox();

        public Inbox inbox() {
            return inbox;
        }

        @Incoming(INITIALLY_PAUSED)
        public CompletionStage<Void> consume(Message<String> message) {
            inbox.record(message);
            return message.ack();
        }
    }

    @Inject
    AppPausedConsumer appPaused;

    @Inject
    InitiallyPausedConsumer initiallyPaused;

    @Inject
    HoldingConsumer holding;

    @Inject
    RmqTopics topics;

    @Inject
    Instance<Object> beans;

    @Inject
    RedisProbe probe;

    @Test
    public void aChannelPausedThroughRmqTopicsPopsNothingUntilResumed() {
        probe.zaddPending(APP_PAUSED, 1, "before");
        appPaused.inbox().awaitStartingWith("before", 1);

        topics.pause(APP_PAUSED);
        assertThat(topics.isPaused(APP_PAUSED)).isTrue();
        probe.zaddPending(APP_PAUSED, 2, "while-1", 3, "while-2");
        await().during(WATCHED).atMost(Inbox.WAIT).until(() -> probe.pending(APP_PAUSED).size() == 2
                && probe.preparing(APP_PAUSED) == 0 && appPaused.inbox().startingWith("while").isEmpty());

        topics.resume(APP_PAUSED);
        assertThat(topics.isPaused(APP_PAUSED)).isFalse();
        appPaused.inbox().awaitStartingWith("while", 2);
        await().atMost(Inbox.WAIT).until(() -> probe.pending(APP_PAUSED).isEmpty() && probe.preparing(APP_PAUSED) == 0);
    }

    @Test
    public void pausingPutsThePrefetchedMessagesBackAndKeepsTheOneTheApplicationHolds() {
        // one pop takes all six (batch-size 10); the consumer holds the first, so the others wait in the prefetch
        probe.zaddPending(PREFETCHING, 1, "hold-1", 2, "rest-1", 3, "rest-2", 4, "rest-3", 5, "rest-4", 6, "rest-5");
        holding.inbox().awaitStartingWith("hold-1", 1);

        topics.pause(PREFETCHING);
        await().atMost(Inbox.WAIT).until(() -> probe.pending(PREFETCHING).size() == 5 && probe.preparing(PREFETCHING) == 1);
        assertThat(probe.redis().zscore(probe.prepareKey(PREFETCHING, 0), "hold-1")).as("the held message stays in flight")
                .isNotNull();
        assertThat(probe.pending(PREFETCHING)).as("back with their scores").extracting(v -> v.getScore())
                .containsExactly(2.0, 3.0, 4.0, 5.0, 6.0);
        assertThat(probe.attempts(PREFETCHING)).as("no attempt counted").isEmpty();

        holding.release();
        await().during(WATCHED).atMost(Inbox.WAIT).until(() -> probe.preparing(PREFETCHING) == 0
                && probe.pending(PREFETCHING).size() == 5 && holding.inbox().startingWith("rest").isEmpty());

        topics.resume(PREFETCHING);
        assertThat(holding.inbox().awaitStartingWith("rest", 5)).extracting(r -> r.attempt()).containsOnly(1);
        await().atMost(Inbox.WAIT).until(() -> probe.pending(PREFETCHING).isEmpty() && probe.preparing(PREFETCHING) == 0);
    }

    @Test
    @DisabledIfSystemProperty(named = RUNTIME_PROPERTY, matches = "open-liberty", disabledReason = NO_PAUSABLE)
    public void anInitiallyPausedPausableChannelPopsNothingUntilResumed() {
        assumeTrue(SmallRyePausables.available(), NO_PAUSABLE);
        probe.zaddPending(INITIALLY_PAUSED, 1, "held-1", 2, "held-2");
        await().during(WATCHED).atMost(Inbox.WAIT).until(() -> probe.pending(INITIALLY_PAUSED).size() == 2
                && probe.preparing(INITIALLY_PAUSED) == 0 && initiallyPaused.inbox().all().isEmpty());
        assertThat(SmallRyePausables.isPaused(beans, INITIALLY_PAUSED)).isTrue();

        SmallRyePausables.resume(beans, INITIALLY_PAUSED);
        initiallyPaused.inbox().awaitStartingWith("held", 2);
        assertThat(SmallRyePausables.isPaused(beans, INITIALLY_PAUSED)).isFalse();
        await().atMost(Inbox.WAIT).until(() -> probe.pending(INITIALLY_PAUSED).isEmpty()
                && probe.preparing(INITIALLY_PAUSED) == 0);
    }
}
