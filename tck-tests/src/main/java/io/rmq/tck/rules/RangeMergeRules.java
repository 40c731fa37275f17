package io.rmq.tck.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

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
 * {@code RANGE_MERGE} topics: a message is due its time range after it is sent; a duplicate sent
 * while one is pending merges into it and the first due time stands, so a burst is consumed once;
 * due messages are delivered oldest due first.
 *
 * <p>A contract rule class: the contract suite runs it on Weld embedded and Open Liberty
 * ({@code io.rmq.tck.RangeMergeIT}), the Quarkus example on Quarkus ({@code RangeMergeContractIT}); {@link #CHANNELS}
 * are its channels, and its beans (the nested classes) are part of the application under test.
 */
public abstract class RangeMergeRules {

    static final String TOPIC = "merge-price-refresh";
    /** The channel merge-refresh-out's {@code time-range}. */
    static final long CHANNEL_TIME_RANGE_MS = 1_500;

    /** The channels of these rules. */
    public static final ContractChannels CHANNELS = ContractChannels.declare()
            .outgoing("merge-refresh-out", "topic", TOPIC, "topic-type", "RANGE_MERGE", "slot-amount", 1,
                    "time-range", CHANNEL_TIME_RANGE_MS)
            .incoming("merge-refresh", "topic", TOPIC, "topic-type", "RANGE_MERGE", "slot-amount", 1, "poll-interval", 200);

    /** Asks for cached prices to be refreshed. */
    @ApplicationScoped
    public static class PriceDesk {
        @Inject
        @Channel("merge-refresh-out")
        Emitter<Object> refreshRequests;

        public Emitter<Object> refreshRequests() {
            return refreshRequests;
        }
    }

    /** Refreshes cached prices: records each request and acks it. */
    @ApplicationScoped
    public static class Refresher {
        private final Inbox inbox = new Inbox();

        public Inbox inbox() {
            return inbox;
        }

        @Incoming("merge-refresh")
        public CompletionStage<Void> refresh(Message<String> request) {
            inbox.record(request);
            return request.ack();
        }
    }

    @Inject
    PriceDesk desk;

    @Inject
    Refresher refresher;

    @Inject
    RedisProbe probe;

    @Test
    public void aPendingDuplicateMergesAndTheFirstDueTimeStands() {
        long before = probe.redisTimeMillis();
        Outbox.sendAndAwaitAck(desk.refreshRequests(), "refresh:sku-1", range(2_000));
        long after = probe.redisTimeMillis();
        Double firstDue = probe.pendingScore(TOPIC, "refresh:sku-1");
        assertThat(firstDue).as("due its time range after it was sent").isBetween(before + 2_000.0, after + 2_000.0);

        // neither a sooner nor a later due time replaces the first one
        Outbox.sendAndAwaitAck(desk.refreshRequests(), "refresh:sku-1", range(300));
        Outbox.sendAndAwaitAck(desk.refreshRequests(), "refresh:sku-1", range(30_000));
        assertThat(probe.pendingScore(TOPIC, "refresh:sku-1")).isEqualTo(firstDue);

        Received r = refresher.inbox().awaitStartingWith("refresh:sku-1", 1).get(0);
        assertThat(r.score()).isEqualTo(firstDue);
        assertThat(r.atMillis()).as("not before its due time").isGreaterThanOrEqualTo(firstDue.longValue());
        assertThat(r.attempt()).isEqualTo(1);
        // once it is committed nothing of it is left in Redis, so no second delivery can come
        await().atMost(Inbox.WAIT).until(() -> !probe.isQueued(TOPIC, "refresh:sku-1"));
        assertThat(refresher.inbox().startingWith("refresh:sku-1")).as("consumed once").hasSize(1);
    }

    @Test
    public void aBurstOfDuplicatesIsConsumedOncePerContent() throws Exception {
        List<CompletableFuture<Void>> acks = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            acks.add(Outbox.send(desk.refreshRequests(), "refresh:burst-sku-" + (i % 3), range(1_000)));
        }
        CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).get(Inbox.WAIT.toMillis(), TimeUnit.MILLISECONDS);

        List<Received> received = refresher.inbox().awaitStartingWith("refresh:burst-", 3);
        // once the three are committed nothing of the burst is left in Redis: the 57 duplicates were merged
        await().atMost(Inbox.WAIT).until(() -> IntStream.range(0, 3)
                .noneMatch(i -> probe.isQueued(TOPIC, "refresh:burst-sku-" + i)));
        assertThat(refresher.inbox().startingWith("refresh:burst-")).extracting(Received::payload)
                .containsExactlyInAnyOrder("refresh:burst-sku-0", "refresh:burst-sku-1", "refresh:burst-sku-2");
        assertThat(received).allMatch(r -> r.attempt() == 1);
    }

    @Test
    public void theChannelTimeRangeAppliesToAMessageWithoutOne() {
        long before = probe.redisTimeMillis();
        Outbox.sendAndAwaitAck(desk.refreshRequests(), "refresh:sku-2", null);
        long after = probe.redisTimeMillis();

        Received r = refresher.inbox().awaitStartingWith("refresh:sku-2", 1).get(0);
        assertThat(r.score()).isBetween((double) before + CHANNEL_TIME_RANGE_MS, (double) after + CHANNEL_TIME_RANGE_MS);
        assertThat(r.atMillis()).isGreaterThanOrEqualTo((long) r.score());
    }

    @Test
    public void dueMessagesAreDeliveredOldestDueFirst() {
        long now = probe.redisTimeMillis();
        // one ZADD, as a producer in another language would write them: the consumer finds all three due at once
        probe.zaddPending(TOPIC, now - 100, "refresh:order-c", now - 300, "refresh:order-a", now - 200, "refresh:order-b");

        List<Received> received = refresher.inbox().awaitStartingWith("refresh:order-", 3);
        assertThat(received).extracting(Received::payload)
                .containsExactly("refresh:order-a", "refresh:order-b", "refresh:order-c");
        await().atMost(Inbox.WAIT).until(() -> probe.pendingScore(TOPIC, "refresh:order-c") == null
                && probe.preparing(TOPIC) == 0);
    }

    private static OutgoingRmqMetadata range(long millis) {
        return OutgoingRmqMetadata.builder().withTimeRange(Duration.ofMillis(millis)).build();
    }
}
