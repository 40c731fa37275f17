package io.rmq.engine.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The ticks of cron and interval schedules, and across daylight-saving changes: the ticks a runner plans one after
 * the other ({@code next} of the previous tick), with a controlled clock, are those cron-utils defines, none twice
 * and none lost; the latest past tick and the tick before it (what a start asks about) agree with them.
 */
class ScheduleTimingTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    @Test
    void anIntervalTicksAtItsMultiplesSinceTheEpoch() {
        ScheduleTiming every = ScheduleTiming.every("s", "PT1S", "every");
        assertThat(every.next(12_345)).isEqualTo(13_000);
        assertThat(every.next(13_000)).isEqualTo(14_000);
        assertThat(every.latest(13_000)).isEqualTo(13_000);
        assertThat(every.latest(13_999)).isEqualTo(13_000);
        assertThat(every.previous(13_000)).isEqualTo(12_000);
        assertThat(every.describe()).isEqualTo("every=PT1S");
    }

    @Test
    void hourlyInBerlinAcrossTheSpringChangeGivesEveryRealHourOnce() {
        // 2026-03-29: 02:00 CET jumps to 03:00 CEST; the local hour 02:00 does not exist that day
        List<Instant> ticks = planned(ScheduleTiming.cron("h", "0 * * * *", "cron", "Europe/Berlin", "zone"),
                ZonedDateTime.of(2026, 3, 28, 23, 30, 0, 0, BERLIN), 6);
        assertThat(ticks).extracting(Instant::toString).containsExactly("2026-03-28T23:00:00Z", "2026-03-29T00:00:00Z",
                "2026-03-29T01:00:00Z", "2026-03-29T02:00:00Z", "2026-03-29T03:00:00Z", "2026-03-29T04:00:00Z");
    }

    @Test
    void hourlyInBerlinAcrossTheAutumnChangeGivesNoTickTwice() {
        // 2026-10-25: 03:00 CEST goes back to 02:00 CET; the local hour 02:00 happens twice
        List<Instant> ticks = planned(ScheduleTiming.cron("h", "0 * * * *", "cron", "Europe/Berlin", "zone"),
                ZonedDateTime.of(2026, 10, 25, 0, 30, 0, 0, BERLIN), 5);
        assertThat(ticks).doesNotHaveDuplicates().isSorted();
        assertThat(ticks.get(0)).hasToString("2026-10-24T23:00:00Z");
        // what cron-utils defines for the repeated local hour, and the hours around it
        assertThat(ticks).extracting(t -> t.atZone(BERLIN).toLocalTime().toString())
                .startsWith("01:00", "02:00").contains("03:00");
    }

    @Test
    void dailyAtHalfPastTwoInBerlinSkipsTheSpringChangeDayAsCronUtilsDefines() {
        ScheduleTiming daily = ScheduleTiming.cron("d", "30 2 * * *", "cron", "Europe/Berlin", "zone");
        List<Instant> ticks = planned(daily, ZonedDateTime.of(2026, 3, 27, 12, 0, 0, 0, BERLIN), 4);
        assertThat(ticks).doesNotHaveDuplicates().isSorted();
        // cron-utils gives no tick on 2026-03-29, which has no 02:30 in Berlin
        assertThat(ticks).extracting(Instant::toString).containsExactly("2026-03-28T01:30:00Z",
                "2026-03-30T00:30:00Z", "2026-03-31T00:30:00Z", "2026-04-01T00:30:00Z");
        // a start finds the same latest tick and the tick before it as the plan
        for (int i = 1; i < ticks.size(); i++) {
            long tick = ticks.get(i).toEpochMilli();
            assertThat(daily.latest(tick + 60_000)).isEqualTo(tick);
            assertThat(daily.previous(tick)).isEqualTo(ticks.get(i - 1).toEpochMilli());
        }
    }

    @Test
    void aBadExpressionOrZoneNamesTheScheduleAndTheSetting() {
        assertThatThrownBy(() -> ScheduleTiming.cron("daily-report", "0 6 * *", "schedules.daily-report.cron", null, "z"))
                .hasMessageStartingWith("RMQ-0540 Schedule 'daily-report': schedules.daily-report.cron '0 6 * *'");
        assertThatThrownBy(() -> ScheduleTiming.cron("r", "0 6 * * *", "c", "Europe/Nowhere", "schedules.r.zone"))
                .hasMessageStartingWith("RMQ-0541 Schedule 'r': schedules.r.zone 'Europe/Nowhere'");
        assertThatThrownBy(() -> ScheduleTiming.every("r", "1s", "schedules.r.every"))
                .hasMessageStartingWith("RMQ-0543 Schedule 'r': schedules.r.every '1s'");
        assertThatThrownBy(() -> ScheduleTiming.every("r", "PT0S", "e")).hasMessageStartingWith("RMQ-0543");
        assertThatThrownBy(() -> ScheduleTiming.of("r", "0 6 * * *", "c", null, "z", "PT1S", "e"))
                .hasMessageStartingWith("RMQ-0542 Schedule 'r': give exactly one of c (a cron expression) and e");
        assertThatThrownBy(() -> ScheduleTiming.of("r", null, "c", null, "z", null, "e")).hasMessageStartingWith("RMQ-0542");
        assertThatThrownBy(() -> ScheduleTiming.of("r", null, "c", "UTC", "z", "PT1S", "e"))
                .hasMessageStartingWith("RMQ-0546 Schedule 'r': z applies to a cron expression only");
        assertThat(ScheduleTiming.of("r", "0 6 * * *", "c", "Europe/Paris", "z", null, "e").describe())
                .isEqualTo("cron=0 6 * * *, zone=Europe/Paris");
    }

    /** The ticks a runner plans from {@code start}: each the first after the one before, the clock moved to it. */
    private static List<Instant> planned(ScheduleTiming timing, ZonedDateTime start, int count) {
        List<Instant> ticks = new ArrayList<>();
        long clock = start.toInstant().toEpochMilli();
        long tick = timing.next(clock);
        while (ticks.size() < count) {
            clock = tick; // the timer fires at the tick
            ticks.add(Instant.ofEpochMilli(tick));
            assertThat(timing.latest(clock)).isEqualTo(tick);
            tick = timing.next(clock);
            assertThat(tick).isGreaterThan(clock);
        }
        return ticks;
    }
}
