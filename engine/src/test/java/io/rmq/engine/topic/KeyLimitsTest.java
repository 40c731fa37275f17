package io.rmq.engine.topic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;

class KeyLimitsTest {

    @Test
    void absentFieldsSetNoLimit() {
        KeyLimits limits = KeyLimits.fromFlowFields(Map.of("gen", "3", "rate", "500"));

        assertThat(limits).isEqualTo(KeyLimits.NONE);
        assertThat(limits.on()).isFalse();
    }

    @Test
    void readsTheKeyFieldsOfTheFlowHash() {
        KeyLimits limits = KeyLimits.fromFlowFields(Map.of("key.conc", "3", "key.rate", "50", "key.burst", "5"));

        assertThat(limits).isEqualTo(new KeyLimits(3, 50, 5));
        assertThat(limits.on()).isTrue();
        assertThat(limits.permitMillis()).isEqualTo(20);
        assertThat(limits.effectiveBurst()).isEqualTo(5);
    }

    @Test
    void aRateAloneTakesOnePermitAtATime() {
        KeyLimits limits = KeyLimits.fromFlowFields(Map.of("key.rate", "0.5"));

        assertThat(limits.permitMillis()).isEqualTo(2000);
        assertThat(limits.effectiveBurst()).isEqualTo(1);
    }

    @Test
    void refusesValuesThatAreNotAllowed() {
        assertThatThrownBy(() -> KeyLimits.fromFlowFields(Map.of("key.conc", "two")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("concurrency per key 'two'");
        assertThatThrownBy(() -> KeyLimits.fromFlowFields(Map.of("key.conc", "-1")))
                .hasMessageContaining("concurrency per key '-1'");
        assertThatThrownBy(() -> KeyLimits.fromFlowFields(Map.of("key.rate", "fast")))
                .hasMessageContaining("rate per key 'fast'");
        assertThatThrownBy(() -> KeyLimits.fromFlowFields(Map.of("key.burst", "-2")))
                .hasMessageContaining("burst per key '-2'");
    }
}
