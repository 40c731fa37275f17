package io.rmq.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;

import org.junit.jupiter.api.Test;

class TimeBoundTest {

    private static final Instant NOW = Instant.parse("2025-06-01T12:00:00.123456Z");

    @Test
    void anAgeCountsBackFromNowInWholeMilliseconds() {
        assertThat(TimeBound.parse("500ms").before(NOW)).isEqualTo("2025-06-01T11:59:59.623Z");
        assertThat(TimeBound.parse("90s").before(NOW)).isEqualTo("2025-06-01T11:58:30.123Z");
        assertThat(TimeBound.parse("15m").before(NOW)).isEqualTo("2025-06-01T11:45:00.123Z");
        assertThat(TimeBound.parse("2H").before(NOW)).isEqualTo("2025-06-01T10:00:00.123Z");
        assertThat(TimeBound.parse("7d").before(NOW)).isEqualTo("2025-05-25T12:00:00.123Z");
        assertThat(TimeBound.parse("PT1H30M").before(NOW)).isEqualTo("2025-06-01T10:30:00.123Z");
        assertThat(TimeBound.parse("P1D").before(NOW)).isEqualTo("2025-05-31T12:00:00.123Z");
    }

    @Test
    void aTimeIsTakenAsItIs() {
        assertThat(TimeBound.parse("2025-01-31T12:00:00Z").before(NOW)).isEqualTo("2025-01-31T12:00:00Z");
        assertThat(TimeBound.parse("2025-01-31T13:00:00.5+01:00").before(NOW)).isEqualTo("2025-01-31T12:00:00.500Z");
    }

    @Test
    void anythingElseIsRejectedWithTheFormsThatWork() {
        for (String bad : new String[] {"yesterday", "-5m", "PT-1H", "5 m", "2025-01-31", "2025-01-31T12:00:00", ""}) {
            assertThatThrownBy(() -> TimeBound.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("RMQ-0802 '" + bad + "' is neither a duration");
        }
    }
}
