package io.rmq.cli;

import io.rmq.engine.schedule.ScheduleInfo;

/**
 * A recorded schedule as the schedule commands report it: {@code name}, {@code topic}, {@code timing}
 * ({@code cron=..., zone=...} or {@code every=PT...}), {@code missed} ({@code skip} or {@code catch-up}), {@code paused},
 * {@code lastTick} and {@code nextTick} (ISO-8601 UTC, or {@code null}).
 */
public record Schedule(String name, String topic, String timing, String missed, boolean paused, String lastTick,
        String nextTick) {

    static Schedule of(ScheduleInfo info) {
        return new Schedule(info.definition().name(), info.definition().topic().name(),
                info.definition().timing().describe(), info.definition().missed().configName(), info.paused(),
                info.lastTick().map(Object::toString).orElse(null), info.nextTick().map(Object::toString).orElse(null));
    }
}
