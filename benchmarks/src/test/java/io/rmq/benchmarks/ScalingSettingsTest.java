package io.rmq.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The scaling benchmark's settings: defaults, program arguments, and refusals that name the setting. */
class ScalingSettingsTest {

    @Test
    void defaultsAreTheDocumentedOnes() {
        ScalingSettings s = ScalingSettings.from(new String[0]);
        assertThat(s.mode()).isEqualTo("throughput");
        assertThat(s.messages()).isEqualTo(100_000);
        assertThat(s.warmup()).isEqualTo(100_000);
        assertThat(s.rounds()).isEqualTo(2);
        assertThat(s.replicas()).isZero();
        assertThat(s.backlogs()).containsExactly(10_000, 10_000_000);
        assertThat(s.measure()).isEqualTo(100_000);
        assertThat(s.payloadBytes()).isEqualTo(100);
        assertThat(s.slots()).isEqualTo(16);
        assertThat(s.consumers()).isEqualTo(4);
        assertThat(s.batchSize()).isEqualTo(32);
        assertThat(s.window()).isEqualTo(1024);
    }

    @Test
    void argumentsSetEachValueWithOrWithoutThePrefix() {
        ScalingSettings s = ScalingSettings.from(new String[] {"mode=Backlog", "scaling.backlogs=1_000, 5000",
                "replicas=1", "slots=256", "window=4096"});
        assertThat(s.mode()).isEqualTo("backlog");
        assertThat(s.backlogs()).containsExactly(1_000, 5_000);
        assertThat(s.replicas()).isEqualTo(1);
        assertThat(s.slots()).isEqualTo(256);
        assertThat(s.window()).isEqualTo(4096);
    }

    @Test
    void anUnknownSettingIsRefusedWithTheKnownOnes() {
        assertThatThrownBy(() -> ScalingSettings.from(new String[] {"masters=6"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[masters]").hasMessageContaining("backlogs");
    }

    @Test
    void badValuesAreRefusedNamingTheSetting() {
        assertThatThrownBy(() -> ScalingSettings.from(new String[] {"mode=fast"}))
                .hasMessageContaining("scaling.mode").hasMessageContaining("spread");
        assertThatThrownBy(() -> ScalingSettings.from(new String[] {"backlogs=10000,0"}))
                .hasMessageContaining("scaling.backlogs must be >= 1, was 0");
        assertThatThrownBy(() -> ScalingSettings.from(new String[] {"messages=many"}))
                .hasMessageContaining("scaling.messages must be an integer, was 'many'");
        assertThatThrownBy(() -> ScalingSettings.from(new String[] {"replicas"}))
                .hasMessageContaining("name=value");
    }
}
