package io.rmq.engine.schedule;

import java.time.Instant;
import java.util.Optional;

/**
 * A recorded schedule as operators see it: its definition, the last tick recorded in Redis (sent, merged or
 * skipped; at first the time of its definition), whether it is paused, and its next tick after now.
 */
public record ScheduleInfo(ScheduleDefinition definition, Optional<Instant> lastTick, boolean paused,
        Optional<Instant> nextTick) {
}
