package io.rmq.engine.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link FlowUpdate}, {@link FlowField} and {@link TopicFlowSettings} without Redis. */
class FlowUpdateTest {

    @Test
    void writesNumbersAsPlainDecimals() {
        FlowUpdate update = FlowUpdate.builder().rate(2.5, 0).agingPace(1.0 / 10_000).weight("acme", 3)
                .keyRate(50, 0).build();

        assertThat(update.fields()).containsExactly(Map.entry("rate", "2.5"), Map.entry("burst", "0"),
                Map.entry("aging.pace", "0.0001"), Map.entry("w:acme", "3"), Map.entry("key.rate", "50"),
                Map.entry("key.burst", ""));
    }

    @ParameterizedTest
    @CsvSource({ "rate,-1", "rate,1e3", "burst,2.5", "key.conc,0", "fair,yes", "w:acme,0", "a.on,true",
            "a.threshold,1", "aging.epoch,x" })
    void refusesAValueNamingTheSetting(String field, String value) {
        assertThatThrownBy(() -> FlowField.check(field, value)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("RMQ-0675 Flow setting '" + field + "' cannot be '" + value + "'");
    }

    @Test
    void refusesNumbersThatAreNotAboveZero() {
        assertThatThrownBy(() -> FlowUpdate.builder().rate(Double.NaN, 0)).hasMessageStartingWith("RMQ-0675");
        assertThatThrownBy(() -> FlowUpdate.builder().weight("acme", Double.POSITIVE_INFINITY))
                .hasMessageContaining("'w:acme'");
    }

    @Test
    void refusesUnknownSettingsAndBadTenants() {
        assertThatThrownBy(() -> FlowField.check("tat", "5")).hasMessageStartingWith("RMQ-0676");
        assertThatThrownBy(() -> FlowField.weight("a\nb")).hasMessageStartingWith("RMQ-0677");
        assertThatThrownBy(() -> FlowField.weight("x".repeat(FlowField.MAX_TENANT_LENGTH + 1)))
                .hasMessageStartingWith("RMQ-0677");
    }

    @Test
    void readsTheHashLeniently() {
        TopicFlowSettings s = TopicFlowSettings.of(Map.of("gen", "4", "rate", "500", "burst", "oops", "w:a", "2",
                "cfg:rate", "100", "a.on", "1", "a.rate", "50", "a.reason", "failures", "tat", "123.5"));

        assertThat(s.gen()).isEqualTo(4);
        assertThat(s.burst()).isEmpty();
        assertThat(s.weights()).containsOnly(Map.entry("a", 2.0));
        assertThat(s.configured()).containsOnly(Map.entry("rate", "100"));
        assertThat(s.fields()).containsEntry("burst", "oops").doesNotContainKey("cfg:rate");
        assertThat(s.effectiveRate()).hasValue(50);
        assertThat(s.fair()).isEqualTo("off");
    }
}
