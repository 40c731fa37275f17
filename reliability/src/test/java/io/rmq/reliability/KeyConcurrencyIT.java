package io.rmq.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rmq.engine.topic.KeyLimits;
import io.rmq.testing.redis.RedisProcess;

/**
 * Limits per key across processes: two application JVMs (SmallRye Reactive Messaging on Weld, two consumers each,
 * {@code key-concurrency=N}) consume 10,000 messages over 100 keys, each processed for a random 0-5 ms. With N = 1
 * no two messages of a key are ever processed at once ({@link HistoryChecker} finds no overlap); with N = 3 never
 * more than 3 ({@link HistoryChecker#maxConcurrentPerKey}). Nothing is lost.
 */
class KeyConcurrencyIT {

    private static final int MESSAGES = 10_000;
    private static final int KEYS = 100;

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void twoJvmsKeepTheLimitPerKeyAndDeliverEverything(int concurrency, @TempDir Path dir) throws Exception {
        try (RedisProcess redis = RedisProcess.start(dir, List.of(), false);
                Scenario scenario = new Scenario("key concurrency " + concurrency, redis.uri())) {
            scenario.recordKeys(new KeyLimits(concurrency, 0, 0));
            ConsumerJvm.Spec spec = new ConsumerJvm.Spec(redis.uri(), scenario.topic.name(), Scenario.SLOTS, dir, null,
                    30_000, 5_000, concurrency, KeyedConsumerMain.class);
            long start = System.nanoTime();
            try (ConsumerFleet fleet = new ConsumerFleet(spec, 2)) {
                scenario.send(MESSAGES, KEYS, 20_000).await(5);
                scenario.awaitDrained();
                fleet.stopAll();
                long millis = (System.nanoTime() - start) / 1_000_000;
                Verdict verdict = scenario.verdict(true, fleet.historyFiles());
                int most = HistoryChecker.maxConcurrentPerKey(scenario.history);
                System.out.println("KEY CONCURRENCY " + concurrency + ": " + verdict.summary() + "; most of one key at once: "
                        + most + "; " + MESSAGES + " messages over " + KEYS + " keys in " + Scenario.seconds(millis));
                assertThat(verdict.lost()).as("lost").isEmpty();
                assertThat(verdict.deliveredMessages()).isEqualTo(MESSAGES);
                if (concurrency == 1) {
                    assertThat(verdict.overlaps()).as("two messages of one key processed at once").isEmpty();
                }
                assertThat(most).as("most messages of one key processed at once").isLessThanOrEqualTo(concurrency);
            }
        }
    }
}
