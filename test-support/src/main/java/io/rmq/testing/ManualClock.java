package io.rmq.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that stands still until a test moves it with {@link #advance}. Thread-safe. */
public final class ManualClock extends Clock {

    private volatile Instant now = Instant.parse("2026-01-01T00:00:00Z");

    /** Moves the clock forward. */
    public void advance(Duration duration) {
        synchronized (this) {
            now = now.plus(duration);
        }
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a ManualClock is in UTC");
    }
}
