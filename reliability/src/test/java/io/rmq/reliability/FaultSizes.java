package io.rmq.reliability;

/**
 * The sizes of a run: the short run of the normal build, or the full run with
 * {@code -Drmq.faults.full=true} (1,000,000 messages and 20 or more kills of consumer JVMs).
 */
final class FaultSizes {

    static final boolean FULL = Boolean.getBoolean("rmq.faults.full");

    private FaultSizes() {
    }

    /** Which run, for the printed figures. */
    static String run() {
        return FULL ? "full" : "short";
    }

    static int of(int shortRun, int fullRun) {
        return FULL ? fullRun : shortRun;
    }
}
