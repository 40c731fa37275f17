package io.rmq.engine.topic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link PriorityAging}: the pace's notation, the flow hash's fields and the aged score formula. */
class PriorityAgingTest {

    @ParameterizedTest
    @CsvSource({ "1/10s, 0.0001", "5/m, 0.00008333333333333333", "1/s, 0.001", "2.5/ms, 2.5", "1/2h, 0.000000138888888888889",
            "' 3 / 30 s ', 0.0001" })
    void parsesPointsPerTime(String pace, double perMilli) {
        assertThat(PriorityAging.parse(pace).pacePerMilli()).isCloseTo(perMilli, within(1e-15));
        assertThat(PriorityAging.parse(pace).epochMillis()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "1", "0/s", "1/0s", "-1/s", "1/d", "fast" })
    void refusesAPaceItCannotRead(String pace) {
        assertThatThrownBy(() -> PriorityAging.parse(pace)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("priority aging pace '" + pace + "'").hasMessageContaining("1/10s");
    }

    @Test
    void readsTheFlowHashFields() {
        assertThat(PriorityAging.fromFlowFields(Map.of("aging.pace", "0.0001", "aging.epoch", "1700000000000")))
                .isEqualTo(new PriorityAging(0.0001, 1_700_000_000_000L));
        assertThat(PriorityAging.fromFlowFields(Map.of("rate", "5"))).isEqualTo(PriorityAging.OFF);
        assertThat(PriorityAging.fromFlowFields(Map.of("aging.pace", "0", "aging.epoch", "5"))).isEqualTo(PriorityAging.OFF);
        assertThat(PriorityAging.fromFlowFields(Map.of("aging.pace", "0.1"))).isEqualTo(new PriorityAging(0.1, 0));
        assertThatThrownBy(() -> PriorityAging.fromFlowFields(Map.of("aging.pace", "fast")))
                .hasMessageContaining("priority aging pace 'fast'");
        assertThatThrownBy(() -> PriorityAging.fromFlowFields(Map.of("aging.pace", "0.1", "aging.epoch", "soon")))
                .hasMessageContaining("priority aging epoch 'soon'");
    }

    @Test
    void thePriorityIsTheScorePlusThePaceTimesTheTimeFromTheEpochToTheFirstSend() {
        PriorityAging aging = new PriorityAging(0.001, 10_000);

        double score = aging.score(7, 25_000);

        assertThat(score).isEqualTo(7 - 15.0);
        assertThat(aging.priority(score, 25_000L)).isEqualTo(7.0);
        assertThat(aging.priority(3, null)).isEqualTo(3.0);
        assertThat(PriorityAging.OFF.on()).isFalse();
    }
}
