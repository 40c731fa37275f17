package io.rmq.engine.consume.flow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

class FlowSettingsTest {

    @Test
    void anAbsentHashHasNoLimit() {
        FlowSettings none = FlowSettings.of(Map.of());
        assertThat(none).isSameAs(FlowSettings.NONE);
        assertThat(none.gen()).isZero();
        assertThat(none.rate()).isEmpty();
        assertThat(none.limit()).isEmpty();
        assertThat(none.throttles()).isFalse();
    }

    @Test
    void readsTheLimitAndItsBurst() {
        FlowSettings s = FlowSettings.of(Map.of("gen", "3", "rate", "500", "burst", "50", "tat", "17.5"));
        assertThat(s.gen()).isEqualTo(3);
        assertThat(s.limit()).contains(new FlowLimit(500, 50));
        assertThat(s.effectiveRate()).contains(500.0);
        assertThat(s.throttles()).isTrue();
    }

    @Test
    void theAdaptiveRateIsEffectiveWhenLowerThanTheLimit() {
        FlowSettings s = FlowSettings.of(Map.of("gen", "1", "rate", "200", "a.on", "1", "a.rate", "25",
                "a.reason", "failures 100% > 50% in 1s"));
        assertThat(s.adaptive()).isTrue();
        assertThat(s.effectiveRate()).contains(25.0);
        assertThat(s.adaptiveReason()).contains("failures 100% > 50% in 1s");
        assertThat(FlowSettings.of(Map.of("a.on", "1")).throttles()).isTrue();
    }

    @Test
    void valuesWrittenByHandThatAreNoNumbersCountAsAbsent() {
        FlowSettings s = FlowSettings.of(Map.of("gen", "x", "rate", "fast", "burst", ""));
        assertThat(s.gen()).isZero();
        assertThat(s.rate()).isEmpty();
        assertThat(s.burst()).isZero();
    }

    @Test
    void theLimitersRunningStateIsNoChangeOfSettings() {
        FlowSettings a = FlowSettings.of(Map.of("gen", "2", "rate", "10", "tat", "1", "a.ok", "4"));
        FlowSettings b = FlowSettings.of(Map.of("gen", "2", "rate", "10", "tat", "2", "a.ok", "9"));
        FlowSettings c = FlowSettings.of(Map.of("gen", "3", "rate", "20", "tat", "2"));
        assertThat(a.sameSettings(b)).isTrue();
        assertThat(a.sameSettings(c)).isFalse();
    }
}
