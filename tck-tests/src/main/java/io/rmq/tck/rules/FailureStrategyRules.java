package io.rmq.tck.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

import io.rmq.tck.support.ChannelHealth;
import io.rmq.tck.support.Inbox;
import io.rmq.tck.support.RedisProbe;

/**
 * What a nacked message becomes with each {@code failure-strategy} of an incoming channel: {@code dead-letter}
 * moves it to the dead queue at once with its reason, whatever retries it has left; {@code ignore} commits it
 * (never delivered again, not dead); {@code fail} rolls it back with its prefetched neighbours (nothing lost)
 * and fails the channel, whose liveness goes DOWN. The other messages of a {@code dead-letter} or
 * {@code ignore} channel are consumed as usual.
 *
 * <p>Messages are written with one {@code ZADD} (due at once) into {@code FIXED_TIME} topics of one slot; each
 * consumer nacks the payloads starting with {@code bad}.
 *
 * <p>A contract rule class: the contract suite runs it on Weld embedded and Open Liberty
 * ({@code io.rmq.tck.FailureStrategyIT}), the Quarkus example on Quarkus ({@code FailureStrategyContractIT});
 * {@link #CHANNELS} are its channels, and its beans (the nested classes) are part of the application under test.
 */
public abstract class FailureStrategyRules {

    public static final String DEAD_LETTER = "fs-dead-letter";
    public static final String IGNORE = "fs-ignore";
    public static final String FAIL = "fs-fail";

    /** The channels of these rules. */
    public static final ContractChannels CHANNELS = ContractChannels.declare()
            .incoming(DEAD_LETTER, topic("failure-strategy", "dead-letter", "max-retries", 5))
            .incoming(IGNORE, topic("failure-strategy", "ignore"))
            .incoming(FAIL, topic("failure-strategy", "fail"));

    private static Object[] topic(Object... more) {
        Object[] base = {"topic-type", "FIXED_TIME", "slot-amount", 1, "poll-interval", 200, "retry-backoff", 0};
        Object[] all = new Object[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    /** Records every message; nacks those starting with "bad", acks the others. */
    public abstract static class Judge {
        private final Inbox inbox = new Inbox();

        public Inbox inbox() {
            return inbox;
        }

        protected CompletionStage<Void> judge(Message<String> message) {
            inbox.record(message);
            return message.getPayload().startsWith("bad")
                    ? message.nack(new IllegalStateException("cannot handle " + message.getPayload()))
                    : message.ack();
        }
    }

    /** The consumer of the dead-letter channel. */
    @ApplicationScoped
    public static class DeadLetterJudge extends Judge {
        @Incoming(DEAD_LETTER)
        public CompletionStage<Void> consume(Message<String> message) {
            return judge(message);
        }
    }

    /** The consumer of the ignore channel. */
    @ApplicationScoped
    public static class IgnoreJudge extends Judge {
        @Incoming(IGNORE)
        public CompletionStage<Void> consume(Message<String> message) {
            return judge(message);
        }
    }

    /** The consumer of the fail channel. */
    @ApplicationScoped
    public static class FailJudge extends Judge {
        @Incoming(FAIL)
        public CompletionStage<Void> consume(Message<String> message) {
            return judge(message);
        }
    }

    @Inject
    DeadLetterJudge deadLetterJudge;

    @Inject
    IgnoreJudge ignoreJudge;

    @Inject
    FailJudge failJudge;

    @Inject
    ChannelHealth health;

    @Inject
    RedisProbe probe;

    @Test
    public void deadLetterMovesTheNackedMessageToTheDeadQueueAtOnceWithItsReason() {
        probe.zaddPending(DEAD_LETTER, 1, "bad-1", 2, "good-1");

        await().atMost(Inbox.WAIT).until(() -> probe.dead(DEAD_LETTER).contains("bad-1")
                && probe.pending(DEAD_LETTER).isEmpty() && probe.preparing(DEAD_LETTER) == 0);
        assertThat(probe.dead(DEAD_LETTER)).containsExactly("bad-1");
        assertThat(probe.failure(DEAD_LETTER, "bad-1")).as("its reason").contains("cannot handle bad-1");
        assertThat(deadLetterJudge.inbox().startingWith("bad-1")).as("delivered once, though 5 retries were left")
                .singleElement().satisfies(r -> assertThat(r.attempt()).isEqualTo(1));
        assertThat(deadLetterJudge.inbox().startingWith("good-1")).hasSize(1);
    }

    @Test
    public void ignoreCommitsTheNackedMessage() {
        probe.zaddPending(IGNORE, 1, "bad-1", 2, "good-1");

        ignoreJudge.inbox().awaitStartingWith("good-1", 1);
        await().atMost(Inbox.WAIT).until(() -> !probe.isQueued(IGNORE, "bad-1") && !probe.isQueued(IGNORE, "good-1"));
        assertThat(probe.dead(IGNORE)).as("not dead").isEmpty();
        // a plain commit counts its messages one round trip after removing them
        await().atMost(Inbox.WAIT).untilAsserted(() -> assertThat(probe.counter(IGNORE, "acked")).as("committed as if acked").isEqualTo(2));
        await().during(Duration.ofMillis(600)).atMost(Inbox.WAIT)
                .until(() -> ignoreJudge.inbox().startingWith("bad-1").size() == 1);
    }

    @Test
    public void failRollsTheMessagesBackAndTheChannelsLivenessGoesDown() {
        probe.zaddPending(FAIL, 1, "bad-1", 2, "good-1", 3, "good-2");

        await().atMost(Inbox.WAIT).untilAsserted(() -> {
            ChannelHealth.Entry entry = health.liveness(FAIL)
                    .orElseThrow(() -> new AssertionError("no liveness check lists " + FAIL));
            assertThat(entry.status()).as("%s", entry).isEqualTo(HealthCheckResponse.Status.DOWN);
            assertThat(entry.description()).as("%s", entry).contains("RMQ-2361").contains("cannot handle bad-1");
        });
        await().atMost(Inbox.WAIT).until(() -> probe.preparing(FAIL) == 0);
        assertThat(probe.pending(FAIL)).as("nothing lost").extracting(v -> v.getValue())
                .containsExactlyInAnyOrder("bad-1", "good-1", "good-2");
        assertThat(probe.attempts(FAIL)).as("the failed delivery counted").containsEntry("bad-1", "1");
        assertThat(failJudge.inbox().all()).extracting(r -> r.payload()).containsExactly("bad-1");
    }
}
