package io.rmq.reliability;

import java.time.Instant;

/** The clock of the history: wall-clock microseconds, the same in every process of one machine. */
public final class Clocks {

    private Clocks() {
    }

    /** Microseconds since the epoch. */
    public static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
