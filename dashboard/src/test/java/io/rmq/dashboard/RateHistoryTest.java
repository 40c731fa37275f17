package io.rmq.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.rmq.engine.admin.SlotCounters;

class RateHistoryTest {

    private static SlotCounters sent(long sent, long acked) {
        return new SlotCounters(sent, 0, 0, acked, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    @Test
    void ratesArePerSecondBetweenTwoReadings() {
        RateHistory history = new RateHistory(60_000);
        history.record("orders", 10_000, sent(100, 0));
        history.record("orders", 15_000, sent(600, 250));

        List<RateHistory.RatePoint> points = history.rates().get("orders");

        assertThat(points).singleElement().satisfies(p -> {
            assertThat(p.atMillis()).isEqualTo(15_000);
            assertThat(p.perSecond()[SlotCounters.NAMES.indexOf("sent")]).isEqualTo(100.0);
            assertThat(p.perSecond()[SlotCounters.NAMES.indexOf("acked")]).isEqualTo(50.0);
        });
    }

    @Test
    void aCounterThatWentDownShowsNoNegativeRate() {
        RateHistory history = new RateHistory(60_000);
        history.record("orders", 0, sent(500, 0));
        history.record("orders", 1_000, sent(10, 0)); // the keys were deleted meanwhile
        history.record("orders", 2_000, sent(30, 0));

        assertThat(history.rates().get("orders")).extracting(p -> p.perSecond()[0]).containsExactly(0.0, 20.0);
    }

    @Test
    void keepsOnlyTheHistoryAndTheTopicsStillRecorded() {
        RateHistory history = new RateHistory(10_000);
        for (long t = 0; t <= 30_000; t += 5_000) {
            history.record("orders", t, sent(t, 0));
            history.record("gone", t, sent(t, 0));
        }
        history.retain(Set.of("orders"));

        assertThat(history.rates()).containsOnlyKeys("orders");
        assertThat(history.rates().get("orders")).extracting(RateHistory.RatePoint::atMillis)
                .containsExactly(25_000L, 30_000L);
        assertThat(history.latest().get("orders").counters().sent()).isEqualTo(30_000);
    }
}
