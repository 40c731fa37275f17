package io.rmq.connector.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;

import io.rmq.engine.admin.SlotStats;
import io.rmq.engine.admin.TopicStats;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;

/** The queue gauges' state: read lazily, at most once per interval, no value before a read or after a failed one. */
class TopicStateTest {

    private static final TopicDefinition TOPIC = new TopicDefinition("prices", 2, TopicType.RANGE_MERGE, "shop:");

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final List<CompletableFuture<TopicStats>> reads = new CopyOnWriteArrayList<>();

    private CompletableFuture<TopicStats> read(RedisAccess redis, TopicDefinition topic) {
        CompletableFuture<TopicStats> r = new CompletableFuture<>();
        reads.add(r);
        return r;
    }

    private static TopicStats stats(long pending, long dead) {
        return new TopicStats(TOPIC, List.of(
                new SlotStats(0, pending, 1, 2_500, 4, dead, false, Optional.empty()),
                new SlotStats(1, 0, 0, 0, 0, 0, false, Optional.empty())));
    }

    @Test
    void nothingIsReadBeforeAGaugeIsAndEveryGaugeOfAScrapeSharesOneRead() {
        TopicState state = new TopicState(TOPIC, RedisAccess.of("redis://x"), this::read, TimeUnit.SECONDS.toNanos(5), 0);
        assertThat(reads).isEmpty();

        assertThat(state.value(RmqMeter.PENDING)).as("no read answered yet").isNaN();
        reads.get(0).complete(stats(7, 3));
        assertThat(state.value(RmqMeter.PENDING)).isEqualTo(7);
        assertThat(state.value(RmqMeter.DUE)).isEqualTo(1);
        assertThat(state.value(RmqMeter.OLDEST_DUE_AGE)).as("seconds").isEqualTo(2.5);
        assertThat(state.value(RmqMeter.INFLIGHT)).isEqualTo(4);
        assertThat(state.value(RmqMeter.DEAD_QUEUE)).isEqualTo(3);
        for (int i = 0; i < 100; i++) {
            state.value(RmqMeter.PENDING);
        }
        assertThat(reads).as("one read per interval, however often the gauges are read").hasSize(1);
    }

    @Test
    void aNewReadStartsOnceTheIntervalHasPassedAndAFailedOneShowsNoValue() throws InterruptedException {
        TopicState state = new TopicState(TOPIC, RedisAccess.of("redis://x"), this::read, TimeUnit.MILLISECONDS.toNanos(50), 0);
        state.value(RmqMeter.PENDING);
        reads.get(0).complete(stats(7, 3));
        Thread.sleep(60); // the interval itself, not a wait for an event
        assertThat(state.value(RmqMeter.PENDING)).as("the last state while the new read is under way").isEqualTo(7);
        assertThat(reads).hasSize(2);
        reads.get(1).completeExceptionally(new IllegalStateException("Redis unreachable"));
        assertThat(state.value(RmqMeter.PENDING)).as("a failed read: no value rather than a stale one").isNaN();
    }

    @Test
    void aGaugeWaitsForTheReadItStarted() {
        UnansweredRead read = new UnansweredRead();
        TopicState state = new TopicState(TOPIC, RedisAccess.of("redis://x"), (redis, topic) -> read,
                TimeUnit.SECONDS.toNanos(5), TimeUnit.SECONDS.toNanos(30));
        CompletableFuture<Double> gauge = CompletableFuture.supplyAsync(() -> state.value(RmqMeter.PENDING));
        await().atMost(WAIT).until(() -> !read.waits.isEmpty());
        read.complete(stats(7, 3));
        assertThat(gauge).as("the state the read it waited for brought").succeedsWithin(WAIT).isEqualTo(7.0);
    }

    @Test
    void aGaugeWaitsABoundedTimeOncePerRead() {
        UnansweredRead read = new UnansweredRead();
        long bound = TimeUnit.MILLISECONDS.toNanos(100);
        TopicState state = new TopicState(TOPIC, RedisAccess.of("redis://x"), (redis, topic) -> read,
                TimeUnit.SECONDS.toNanos(5), bound);
        assertThat(state.value(RmqMeter.PENDING)).as("a read that does not answer: no value").isNaN();
        assertThat(read.waits).singleElement().satisfies(w -> assertThat(w).isPositive().isLessThanOrEqualTo(bound));

        assertThat(state.value(RmqMeter.DEAD_QUEUE)).isNaN();
        assertThat(read.waits).as("the bound counts from the read's start: the second gauge does not wait again")
                .hasSize(1);
    }

    /** A read that answers only when the test completes it, and records each timed wait for it, in ns. */
    private static final class UnansweredRead extends CompletableFuture<TopicStats> {
        final List<Long> waits = new CopyOnWriteArrayList<>();

        @Override
        public TopicStats get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException,
                TimeoutException {
            waits.add(unit.toNanos(timeout));
            return super.get(timeout, unit);
        }
    }
}
