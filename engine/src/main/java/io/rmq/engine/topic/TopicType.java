package io.rmq.engine.topic;

/**
 * How a topic scores its messages and merges duplicates (a duplicate is the same content in the
 * same slot while the first copy is still pending).
 */
public enum TopicType {
    /** Score = now + a time range; a pending duplicate keeps the first due time. Due members pop oldest first. */
    RANGE_MERGE(true),
    /** Score = the priority; a pending duplicate takes the last priority. Highest score pops first. */
    PRIORITY(false),
    /** Score = a delivery time; a pending duplicate takes the last time. Due members pop oldest first. */
    FIXED_TIME(true);

    private final boolean timed;

    TopicType(boolean timed) {
        this.timed = timed;
    }

    /** Whether the score is a due time (RANGE_MERGE, FIXED_TIME) rather than a priority. */
    public boolean isTimed() {
        return timed;
    }
}
