package io.rmq.engine.schedule;

import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.redis.RmqClient;
import io.rmq.engine.scripts.TopicScripts.TickMode;
import io.rmq.engine.scripts.TopicScripts.TickReply;

/**
 * Runs, in this application instance, the schedules recorded under a key prefix for a set of topics. Every
 * instance that runs a schedule computes its next tick from the injected {@link Clock} (cron-utils for cron,
 * arithmetic for intervals) and, at that time, calls {@code tick.lua}: the first call for a tick records and
 * sends it, the others find it recorded. The script decides with the Redis clock (a tick still in its future is
 * asked again when due), so instances whose clocks differ still send each tick once.
 *
 * <p>When it starts, when a tick call failed (Redis or this instance was unreachable) and when it wakes a whole
 * period late, it asks for the latest past tick in mode {@code START}: if ticks were missed since the last one
 * recorded, the schedule's {@link MissedPolicy} applies, once cluster-wide.
 *
 * <p>The registry is read again every {@link #REFRESH_MILLIS} ms: new schedules start, changed ones restart,
 * removed ones stop (a removed schedule's next tick also finds its state gone and stops). Runs on the engine's
 * housekeeping thread; script replies on Lettuce's. Thread-safe.
 */
public final class ScheduleRunner implements AutoCloseable {

    /** How often the registry is read for new, changed and removed schedules. */
    public static final long REFRESH_MILLIS = 10_000;
    /** How long a failed tick call waits before the schedule starts again. */
    static final long RETRY_MILLIS = 1_000;

    private static final EngineLogging LOG = EngineLogging.log;

    private final Schedules schedules;
    private final String keyPrefix;
    private final Set<String> topics;
    private final ScheduledExecutorService timer;
    private final Clock clock;
    /** Guarded by this. */
    private final Map<String, Running> running = new HashMap<>();
    /** Guarded by this. */
    private boolean closed;
    private volatile ScheduledFuture<?> refresh;

    /**
     * @param topics the topics whose schedules this instance runs (e.g. those of its outgoing channels)
     * @param clock  the clock the ticks are computed with (the system's; a controlled one in tests)
     */
    public ScheduleRunner(Schedules schedules, String keyPrefix, Set<String> topics, ScheduledExecutorService timer,
            Clock clock) {
        this.schedules = schedules;
        this.keyPrefix = keyPrefix;
        this.topics = Set.copyOf(topics);
        this.timer = timer;
        this.clock = clock;
    }

    /** Reads the registry now and every {@link #REFRESH_MILLIS} ms, and runs what it finds. */
    public ScheduleRunner start() {
        refresh = timer.scheduleWithFixedDelay(this::refresh, 0, REFRESH_MILLIS, TimeUnit.MILLISECONDS);
        return this;
    }

    /** The names of the schedules running here now. */
    public synchronized Set<String> running() {
        return Set.copyOf(running.keySet());
    }

    /** Reads the registry once and starts, restarts or stops schedules to match it. */
    public void refresh() {
        schedules.definitions(keyPrefix).whenComplete((definitions, failure) -> {
            if (failure != null) {
                LOG.schedulesNotRead(Schedules.registryKey(keyPrefix), RmqClient.rootMessage(failure), REFRESH_MILLIS);
                return;
            }
            apply(definitions.stream().filter(d -> topics.contains(d.topic().name())).toList());
        });
    }

    private synchronized void apply(List<ScheduleDefinition> definitions) {
        if (closed) {
            return;
        }
        Map<String, ScheduleDefinition> wanted = new HashMap<>();
        definitions.forEach(d -> wanted.put(d.name(), d));
        running.entrySet().removeIf(e -> {
            ScheduleDefinition d = wanted.get(e.getKey());
            if (d != null && d.equals(e.getValue().definition)) {
                return false;
            }
            e.getValue().stop(d == null ? "it was removed" : "it was redefined");
            return true;
        });
        wanted.forEach((name, d) -> running.computeIfAbsent(name, n -> {
            Running r = new Running(d);
            LOG.scheduleRunning(name, d.topic().name(), d.timing().describe());
            r.startTicking();
            return r;
        }));
    }

    private synchronized void forget(Running r) {
        running.remove(r.definition.name(), r);
    }

    /** Stops every schedule here; the schedules stay recorded and run on in the other instances. */
    @Override
    public synchronized void close() {
        closed = true;
        ScheduledFuture<?> r = refresh;
        if (r != null) {
            r.cancel(false);
        }
        running.values().forEach(s -> s.stop(null));
        running.clear();
    }

    /** One schedule running here: its next tick's timer. */
    private final class Running {

        private final ScheduleDefinition definition;
        /** Guarded by this. */
        private ScheduledFuture<?> next;
        /** Guarded by this. */
        private boolean stopped;
        /** Failed calls in a row; one call of a schedule is under way at a time. */
        private volatile int failures;

        Running(ScheduleDefinition definition) {
            this.definition = definition;
        }

        /** Asks for the latest past tick in mode START: the missed-tick policy applies if ticks were missed. */
        void startTicking() {
            long latest = definition.timing().latest(clock.millis());
            if (latest <= 0) {
                plan(clock.millis());
                return;
            }
            call(latest, TickMode.START);
        }

        /** The timer fired for {@code tick}: on time, or a whole period late (then as a start). */
        private void fire(long tick) {
            long now = clock.millis();
            if (definition.timing().next(tick) <= now) {
                startTicking();
            } else {
                call(tick, TickMode.DUE);
            }
        }

        private void call(long tick, TickMode mode) {
            schedules.tick(definition, tick, definition.timing().previous(tick), mode).whenComplete((reply, failure) -> {
                if (failure != null) {
                    failures++;
                    LOG.scheduleTickFailed(failures, definition.name(), RmqClient.rootMessage(failure), RETRY_MILLIS);
                    later(this::startTicking, RETRY_MILLIS);
                    return;
                }
                failures = 0;
                handle(tick, mode, reply);
            });
        }

        private void handle(long tick, TickMode mode, TickReply reply) {
            switch (reply.status()) {
                case REMOVED -> {
                    stop("it was removed");
                    forget(this);
                }
                case EARLY -> later(() -> call(tick, mode), reply.detail());
                case SKIPPED -> {
                    LOG.scheduleMissedTicks(definition.name(), MissedPolicy.SKIP.name(), Instant.ofEpochMilli(tick).toString());
                    plan(tick);
                }
                case CAUGHT_UP -> {
                    LOG.scheduleMissedTicks(definition.name(), MissedPolicy.CATCH_UP.name(), Instant.ofEpochMilli(tick).toString());
                    plan(tick);
                }
                default -> plan(tick);
            }
        }

        /** Sets the timer for the first tick after {@code after}. */
        private void plan(long after) {
            long tick = definition.timing().next(after);
            if (tick == Long.MAX_VALUE) {
                return;
            }
            later(() -> fire(tick), tick - clock.millis());
        }

        private synchronized void later(Runnable work, long delayMillis) {
            if (stopped) {
                return;
            }
            try {
                next = timer.schedule(work, Math.max(0, delayMillis), TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException closedTimer) {
                stopped = true;
            }
        }

        synchronized void stop(String why) {
            stopped = true;
            if (next != null) {
                next.cancel(false);
            }
            if (why != null) {
                LOG.scheduleStopped(definition.name(), why);
            }
        }
    }
}
