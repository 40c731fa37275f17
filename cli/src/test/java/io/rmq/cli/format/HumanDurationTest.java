package io.rmq.cli.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HumanDurationTest {

    @Test
    void showsTheTwoLargestUnits() {
        assertThat(HumanDuration.format(0)).isEqualTo("0ms");
        assertThat(HumanDuration.format(850)).isEqualTo("850ms");
        assertThat(HumanDuration.format(12_345)).isEqualTo("12.3s");
        assertThat(HumanDuration.format(59_999)).isEqualTo("59.9s");
        assertThat(HumanDuration.format(245_000)).isEqualTo("4m 05s");
        assertThat(HumanDuration.format(2 * 3_600_000L + 10 * 60_000)).isEqualTo("2h 10m");
        assertThat(HumanDuration.format(3 * 86_400_000L + 4 * 3_600_000L + 1)).isEqualTo("3d 04h");
        assertThatThrownBy(() -> HumanDuration.format(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
