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
    void readsAndWritesRatesAndPacesAsOperatorsDo() {
        assertThat(FlowRates.perSecond("rate", "500/s")).isEqualTo(500);
        assertThat(FlowRates.perSecond("rate", " 30 / M ")).isEqualTo(0.5);
        assertThat(FlowRates.perSecond("rate", "2.5/h")).isEqualTo(2.5 / 3600);
        assertThat(FlowRates.pointsPerMilli("aging", "1/10s")).isEqualTo(0.0001);
        assertThat(FlowRates.pointsPerMilli("aging", "2/ms")).isEqualTo(2);
        assertThat(FlowRates.pointsPerMilli("aging", "1/h")).isEqualTo(1.0 / 3_600_000);
        assertThat(FlowRates.rate(500)).isEqualTo("500/s");
        assertThat(FlowRates.rate(0.5)).isEqualTo("30/m");
        assertThat(FlowRates.rate(1.0 / 3600)).isEqualTo("1/h");
        assertThat(FlowRates.pace(0.0001)).isEqualTo("1/10s");
        assertThat(FlowRates.pace(0.002)).isEqualTo("2/s");
        for (String bad : new String[] { "", "0/s", "5", "5/d", "-1/s", "1e3/s", "x/s" }) {
            assertThatThrownBy(() -> FlowRates.perSecond("--rate", bad)).hasMessageStartingWith("RMQ-0675 Flow setting '--rate'");
        }
        for (String bad : new String[] { "1/0s", "0/10s", "1/10", "1/10d", "1/-1s" }) {
            assertThatThrownBy(() -> FlowRates.pointsPerMilli("aging", bad)).hasMessageStartingWith("RMQ-0675");
        }
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
