package io.rmq.engine.schedule;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Objects;
import java.util.Optional;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;

import io.rmq.engine.i18n.EngineExceptions;

/**
 * When a schedule ticks: a cron expression in a time zone, or a fixed interval. Ticks are instants in ms since
 * the epoch; every instance computes the same ones. Immutable and thread-safe.
 *
 * <p><b>Cron</b>: the UNIX dialect of cron-utils, 5 fields (minute, hour, day of month, month, day of week), in
 * a time zone; across a daylight-saving change the ticks are those cron-utils defines for the zone.
 * <b>Interval</b>: the multiples of the interval since the Unix epoch ({@code PT1S}: every whole second,
 * {@code PT1H}: every whole hour UTC), so that every instance agrees on them without a stored anchor.
 */
public sealed interface ScheduleTiming {

    /** The first tick strictly after {@code millis}, or {@link Long#MAX_VALUE} when none follows. */
    long next(long millis);

    /** The last tick strictly before {@code millis}, or 0 when none precedes it. */
    long previous(long millis);

    /** The latest tick at or before {@code millis}, or 0 when none. */
    default long latest(long millis) {
        return previous(millis + 1);
    }

    /** A cron expression ({@code cron=...}) or an interval ({@code every=PT1S}), with the zone. */
    String describe();

    /**
     * The timing that settings give: exactly one of a cron expression (with an optional zone, UTC by default) and
     * an interval; each error names the schedule and the setting at fault.
     */
    static ScheduleTiming of(String schedule, String cron, String cronSetting, String zone, String zoneSetting,
            String every, String everySetting) {
        boolean hasCron = cron != null && !cron.isBlank();
        boolean hasEvery = every != null && !every.isBlank();
        if (hasCron == hasEvery) {
            throw EngineExceptions.ex.cronOrInterval(schedule, cronSetting, everySetting);
        }
        if (hasEvery) {
            if (zone != null && !zone.isBlank()) {
                throw EngineExceptions.ex.zoneWithoutCron(schedule, zoneSetting);
            }
            return every(schedule, every, everySetting);
        }
        return cron(schedule, cron, cronSetting, zone, zoneSetting);
    }

    /** The cron expression {@code expression} in {@code zone}; a bad expression or zone fails naming both settings. */
    static ScheduleTiming cron(String schedule, String expression, String cronSetting, String zone, String zoneSetting) {
        ZoneId zoneId;
        try {
            zoneId = zone == null || zone.isBlank() ? ZoneId.of("UTC") : ZoneId.of(zone.trim());
        } catch (RuntimeException e) {
            throw EngineExceptions.ex.badZone(schedule, zoneSetting, zone);
        }
        Cron cron;
        try {
            cron = CronTiming.PARSER.parse(expression.trim());
            cron.validate();
        } catch (RuntimeException e) {
            throw EngineExceptions.ex.badCron(schedule, cronSetting, expression, e.getMessage());
        }
        return new CronTiming(cron.asString(), zoneId, ExecutionTime.forCron(cron));
    }

    /** The fixed interval {@code every}, an ISO-8601 duration such as {@code PT1S}. */
    static ScheduleTiming every(String schedule, String every, String setting) {
        Duration interval;
        try {
            interval = Duration.parse(every.trim());
        } catch (RuntimeException e) {
            throw EngineExceptions.ex.badInterval(schedule, setting, every);
        }
        if (interval.isNegative() || interval.isZero() || interval.toNanos() % 1_000_000 != 0) {
            throw EngineExceptions.ex.badInterval(schedule, setting, every);
        }
        return new IntervalTiming(interval.toMillis());
    }

    /** A cron expression of the UNIX dialect in a zone. */
    record CronTiming(String expression, ZoneId zone, ExecutionTime execution) implements ScheduleTiming {

        static final CronParser PARSER = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

        public CronTiming {
            Objects.requireNonNull(expression, "expression");
            Objects.requireNonNull(zone, "zone");
        }

        @Override
        public long next(long millis) {
            return at(execution.nextExecution(time(millis))).orElse(Long.MAX_VALUE);
        }

        @Override
        public long previous(long millis) {
            return at(execution.lastExecution(time(millis))).orElse(0L);
        }

        @Override
        public String describe() {
            return "cron=" + expression + ", zone=" + zone.getId();
        }

        private ZonedDateTime time(long millis) {
            return Instant.ofEpochMilli(millis).atZone(zone);
        }

        private static Optional<Long> at(Optional<ZonedDateTime> time) {
            return time.map(t -> t.toInstant().toEpochMilli());
        }
    }

    /** Every {@code millis} ms, at the multiples of the interval since the epoch. */
    record IntervalTiming(long millis) implements ScheduleTiming {

        @Override
        public long next(long at) {
            return Math.floorDiv(at, millis) * millis + millis;
        }

        @Override
        public long previous(long at) {
            long before = Math.floorDiv(at - 1, millis) * millis;
            return Math.max(0, before);
        }

        @Override
        public String describe() {
            return "every=" + Duration.ofMillis(millis);
        }
    }
}
