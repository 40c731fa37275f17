package io.rmq.connector.streams;

import org.reactivestreams.tck.TestEnvironment;

/**
 * Timeouts of the Reactive Streams TCK runs. The channels talk to a real Redis, so a signal may take
 * a round trip or a pop: the TCK's defaults (100 ms) are too short for a loaded CI machine.
 */
final class TckSettings {

    /** How long the TCK waits for an expected signal. */
    static final long TIMEOUT_MS = 5_000;
    /** How long the TCK waits to be sure that no signal comes. */
    static final long NO_SIGNALS_TIMEOUT_MS = 300;
    /**
     * After a cancel, how long the publisher may keep its reference to the subscriber (rule 3.13): the TCK
     * waits this long, then runs one garbage collection. The cancel's last task runs on the channel's
     * delivery thread, which a machine loaded by parallel builds was once seen to reach after more than 1 s.
     */
    static final long PUBLISHER_REFERENCE_GC_TIMEOUT_MS = 3_000;

    private TckSettings() {
    }

    static TestEnvironment environment() {
        return new TestEnvironment(TIMEOUT_MS, NO_SIGNALS_TIMEOUT_MS);
    }
}
