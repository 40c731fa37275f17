package io.rmq.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/** The benchmark's settings: defaults, the new choices, and refusals that name the setting. */
class BenchSettingsTest {

    @Test
    void defaultsWarmUpAsLongAsTheyMeasureAndWriteUnderExamplesTarget() {
        BenchSettings s = BenchSettings.from(new String[0]);
        assertThat(s.messages()).isEqualTo(300_000);
        assertThat(s.warmup()).isEqualTo(300_000);
        assertThat(s.consumers()).isEqualTo(2);
        assertThat(s.batchSize()).isEqualTo(128);
        assertThat(s.extraBare()).isFalse();
        assertThat(s.bestBare()).isTrue();
        assertThat(s.bestBareMessages()).isEqualTo(50_000);
        assertThat(s.bestBareConsumers()).containsExactly(1, 2, 4);
        assertThat(s.bestBareBatchSizes()).containsExactly(32, 128, 256);
        assertThat(s.redis()).isEqualTo("auto");
        assertThat(s.sweep()).isFalse();
        assertThat(s.sweepMessages()).isEqualTo(100_000);
        assertThat(s.sweepBatchSizes()).containsExactly(1, 4, 16, 32, 64, 128);
        assertThat(s.sweepConsumers()).containsExactly(1, 2, 4, 8);
        assertThat(s.out()).isEqualTo(Path.of("examples/target/bench"));
    }

    @Test
    void argumentsSetTheSweepTheRedisServersAndTheOutput() {
        BenchSettings s = BenchSettings.from(new String[] {"redis=Both", "bench.sweep=true", "sweep-messages=2_000",
                "sweep-batch-sizes=8, 64", "sweep-consumers=3", "out=/tmp/bench-out"});
        assertThat(s.redis()).isEqualTo("both");
        assertThat(s.sweep()).isTrue();
        assertThat(s.sweepMessages()).isEqualTo(2_000);
        assertThat(s.sweepBatchSizes()).containsExactly(8, 64);
        assertThat(s.sweepConsumers()).containsExactly(3);
        assertThat(s.out()).isEqualTo(Path.of("/tmp/bench-out"));
    }

    @Test
    void theBareClientsSearchAndExtraRowAreSetByName() {
        BenchSettings small = BenchSettings.from(new String[] {"messages=20000"});
        assertThat(small.bestBareMessages()).as("at most the messages of a row").isEqualTo(20_000);
        BenchSettings s = BenchSettings.from(new String[] {"best-bare=FALSE", "best-bare-messages=5_000",
                "best-bare-consumers=2,8", "best-bare-batch-sizes=64", "extra-bare-consumers=4",
                "extra-bare-batch-size=32"});
        assertThat(s.bestBare()).isFalse();
        assertThat(s.bestBareMessages()).isEqualTo(5_000);
        assertThat(s.bestBareConsumers()).containsExactly(2, 8);
        assertThat(s.bestBareBatchSizes()).containsExactly(64);
        assertThat(s.extraBare()).isTrue();
        assertThat(s.extraBareConsumers()).isEqualTo(4);
        assertThat(s.extraBareBatchSize()).isEqualTo(32);
    }

    @Test
    void theOldBaselineSettingsAreRefusedWithWhatReplacedThem() {
        assertThatThrownBy(() -> BenchSettings.from(new String[] {"baseline-consumers=4"}))
                .hasMessageContaining("bench.baseline-consumers is gone")
                .hasMessageContaining("bench.extra-bare-consumers and bench.extra-bare-batch-size");
        assertThatThrownBy(() -> BenchSettings.from(new String[] {"extra-bare-consumers=4"}))
                .hasMessageContaining("go together");
        assertThatThrownBy(() -> BenchSettings.from(new String[] {"best-bare=yes"}))
                .hasMessageContaining("bench.best-bare must be true or false, was 'yes'");
        assertThatThrownBy(() -> BenchSettings.from(new String[] {"best-bare-consumers=0"}))
                .hasMessageContaining("bench.best-bare-consumers must be >= 1, was 0");
    }

    @Test
    void badValuesAreRefusedByName() {
        assertThatThrownBy(() -> BenchSettings.from(new String[] {"redis=cluster"}))
                .hasMessageContaining("bench.redis must be one of [auto, system, embedded, both], was 'cluster'");
        assertThatThrownBy(() -> BenchSettings.from(new String[] {"sweep=yes"}))
                .hasMessageContaining("bench.sweep must be true or false, was 'yes'");
        assertThatThrownBy(() -> BenchSettings.from(new String[] {"sweep-batch-sizes=4,0"}))
                .hasMessageContaining("bench.sweep-batch-sizes must be >= 1, was 0");
        assertThatThrownBy(() -> BenchSettings.from(new String[] {"sweeps=true"}))
                .hasMessageContaining("unknown benchmark settings [sweeps]");
    }

    @Test
    void aRedisGivenByUriExcludesStartingOne() {
        assertThatThrownBy(() -> BenchSettings.from(new String[] {"redis=both", "redis-uri=redis://127.0.0.1:6391"}))
                .hasMessageContaining("bench.redis=both starts its own Redis")
                .hasMessageContaining("bench.redis-uri");
        assertThat(BenchSettings.from(new String[] {"redis-uri=redis://127.0.0.1:6391"}).redisUri())
                .contains("redis://127.0.0.1:6391");
    }
}
