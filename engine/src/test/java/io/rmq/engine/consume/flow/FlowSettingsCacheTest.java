package io.rmq.engine.consume.flow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FlowSettingsCacheTest {

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final AtomicReference<Map<String, String>> hash = new AtomicReference<>(Map.of());
    private final AtomicInteger reads = new AtomicInteger();
    private final FlowSettingsCache cache = new FlowSettingsCache(() -> {
        reads.incrementAndGet();
        return CompletableFuture.completedFuture(hash.get());
    }, scheduler);

    @AfterEach
    void tearDown() {
        scheduler.shutdownNow();
    }

    @Test
    void readsWhenTheFirstListenerJoinsAndTellsChangesOnly() {
        hash.set(Map.of("gen", "1", "rate", "10", "tat", "5"));
        List<FlowSettings> told = new CopyOnWriteArrayList<>();
        cache.join((before, now) -> told.add(now));
        await().atMost(Duration.ofSeconds(5)).until(() -> told.size() == 1);
        assertThat(told.get(0).rate()).contains(10.0);

        hash.set(Map.of("gen", "1", "rate", "10", "tat", "6")); // the limiter ran: no change of settings
        cache.refresh();
        hash.set(Map.of("gen", "2", "rate", "20", "tat", "6"));
        cache.genSeen(2);
        await().atMost(Duration.ofSeconds(5)).until(() -> told.size() == 2);
        assertThat(told.get(1).rate()).contains(20.0);
    }

    @Test
    void readsEverySecondWhileAConsumerPopsAndStopsWhenTheLastLeaves() {
        Runnable leave = cache.join((before, now) -> { });
        cache.active();
        await().atMost(Duration.ofSeconds(5)).until(() -> reads.get() >= 3);
        leave.run();
        int after = reads.get();
        await().pollDelay(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3)).until(() -> true);
        assertThat(reads.get()).isLessThanOrEqualTo(after + 1);
    }

    @Test
    void aListenerJoiningLaterIsToldTheSettingsKnown() {
        hash.set(Map.of("gen", "4", "rate", "7"));
        cache.join((before, now) -> { });
        await().atMost(Duration.ofSeconds(5)).until(() -> cache.current().gen() == 4);
        AtomicReference<FlowSettings> told = new AtomicReference<>();
        cache.join((before, now) -> told.set(now));
        assertThat(told.get().gen()).isEqualTo(4);
    }

    @Test
    void whileNoConsumerPopsItReadsOnlyWhenJoinedAndAtOnceWhenOnePopsAgain() {
        cache.join((before, now) -> { });
        await().atMost(Duration.ofSeconds(5)).until(() -> reads.get() == 1);
        await().pollDelay(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(4)).until(() -> true);
        assertThat(reads.get()).as("idle: no read every second").isEqualTo(1);

        hash.set(Map.of("gen", "5", "rate", "3"));
        cache.active();
        await().atMost(Duration.ofSeconds(5)).until(() -> cache.current().gen() == 5);
    }

    @Test
    void aGenerationSeenThatIsKnownReadsNothing() {
        cache.genSeen(0);
        assertThat(reads.get()).isZero();
    }
}
