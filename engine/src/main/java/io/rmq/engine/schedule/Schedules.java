package io.rmq.engine.schedule;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import io.rmq.engine.i18n.EngineExceptions;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.scripts.TopicScripts;
import io.rmq.engine.topic.TopicKeys;

/**
 * The recurring schedules recorded in Redis: each in the registry hash {@code <prefix>rmq:schedules} (name to
 * {@link ScheduleDefinition#encode()}), and its state ({@code schedule_state.lua}: last tick, paused) under the
 * hash tag of the slot its payload routes to. What is recorded survives the restarts of every application, and
 * of Redis when it persists (AOF). Used by the engine (declaration, {@link ScheduleRunner}) and by the admin API.
 *
 * <p>Every method fails its stage (it never throws) when Redis cannot be reached. Stateless; thread-safe.
 */
public final class Schedules {

    private static final EngineLogging LOG = EngineLogging.log;

    private final Supplier<ScriptRunner> scripts;

    public Schedules(Supplier<ScriptRunner> scripts) {
        this.scripts = scripts;
    }

    /**
     * Records {@code schedule}: its state first (created when absent, with the Redis time as its last tick, so
     * that no tick before the definition is sent; kept when present, paused or not), then its definition,
     * replacing an earlier one of the same name. A redefinition whose payload routes to another slot, or to
     * another topic, deletes the state of the earlier one.
     */
    public CompletionStage<ScheduleDefinition> define(ScheduleDefinition schedule) {
        String prefix = schedule.topic().keyPrefix();
        return stage(() -> read(prefix, schedule.name())).thenCompose(earlier -> {
            CompletionStage<?> cleared = earlier.isPresent() && !sameState(earlier.get(), schedule)
                    ? state(earlier.get(), "remove") : CompletableFuture.completedFuture(null);
            return cleared.thenCompose(ignored -> state(schedule, "define"))
                    .thenCompose(ignored -> stage(() -> scripts.get().commands().hset(bytes(registryKey(prefix)),
                            bytes(schedule.name()), bytes(schedule.encode()))))
                    .thenApply(ignored -> schedule);
        });
    }

    /** The definitions recorded under {@code keyPrefix}, by name; an unreadable record is logged (RMQ-0554) and left out. */
    public CompletionStage<List<ScheduleDefinition>> definitions(String keyPrefix) {
        return stage(() -> scripts.get().commands().hgetall(bytes(registryKey(keyPrefix)))).thenApply(all -> {
            Map<String, String> byName = new TreeMap<>();
            all.forEach((k, v) -> byName.put(text(k), text(v)));
            List<ScheduleDefinition> definitions = new ArrayList<>();
            byName.forEach((name, encoded) -> decode(name, encoded, keyPrefix).ifPresent(definitions::add));
            return definitions;
        });
    }

    /** Every schedule recorded under {@code keyPrefix} with its state, and its next tick after {@code now}. */
    public CompletionStage<List<ScheduleInfo>> list(String keyPrefix, Instant now) {
        return definitions(keyPrefix).thenCompose(definitions -> {
            List<CompletableFuture<ScheduleInfo>> infos = new ArrayList<>();
            for (ScheduleDefinition d : definitions) {
                infos.add(state(d, "read").thenApply(s -> info(d, s, now)).toCompletableFuture());
            }
            return CompletableFuture.allOf(infos.toArray(CompletableFuture[]::new))
                    .thenApply(v -> infos.stream().map(CompletableFuture::join).toList());
        });
    }

    /** Pauses the schedule {@code name}: no instance records or sends its ticks until it is resumed. */
    public CompletionStage<ScheduleInfo> pause(String keyPrefix, String name, Instant now) {
        return act(keyPrefix, name, "pause", now);
    }

    /**
     * Resumes the schedule {@code name}: its ticks that fell during the pause are not sent (the last tick moves
     * up to the Redis time), the next one is.
     */
    public CompletionStage<ScheduleInfo> resume(String keyPrefix, String name, Instant now) {
        return act(keyPrefix, name, "resume", now);
    }

    /** Removes the schedule {@code name}: its definition, then its state; running instances stop at their next tick. */
    public CompletionStage<ScheduleInfo> remove(String keyPrefix, String name, Instant now) {
        return known(keyPrefix, name).thenCompose(d -> stage(() -> scripts.get().commands()
                .hdel(bytes(registryKey(keyPrefix)), bytes(name)))
                .thenCompose(ignored -> state(d, "remove"))
                .thenApply(s -> info(d, s, now)));
    }

    /** {@code tick.lua} for the schedule's slot: see {@link ScheduleRunner}. */
    CompletionStage<TopicScripts.TickReply> tick(ScheduleDefinition d, long tick, long previous, TopicScripts.TickMode mode) {
        return topicScripts(d).tick(d.slot(), d.name(), tick, previous, mode, d.missed().name(),
                d.value() == null ? "0" : d.value(), d.payload());
    }

    /** The registry hash of the schedules under {@code keyPrefix}. */
    public static String registryKey(String keyPrefix) {
        return TopicKeys.scheduleRegistryKey(keyPrefix);
    }

    private CompletionStage<ScheduleInfo> act(String keyPrefix, String name, String action, Instant now) {
        return known(keyPrefix, name).thenCompose(d -> state(d, action).thenCompose(s -> s.exists()
                ? CompletableFuture.completedFuture(info(d, s, now))
                : CompletableFuture.failedFuture(EngineExceptions.ex.unknownSchedule(name, registryKey(keyPrefix)))));
    }

    private CompletionStage<ScheduleDefinition> known(String keyPrefix, String name) {
        return read(keyPrefix, name).thenCompose(d -> d.<CompletionStage<ScheduleDefinition>>map(CompletableFuture::completedFuture)
                .orElseGet(() -> CompletableFuture.failedFuture(EngineExceptions.ex.unknownSchedule(name, registryKey(keyPrefix)))));
    }

    private CompletionStage<Optional<ScheduleDefinition>> read(String keyPrefix, String name) {
        return stage(() -> scripts.get().commands().hget(bytes(registryKey(keyPrefix)), bytes(name)))
                .thenApply(v -> v == null ? Optional.empty() : decode(name, text(v), keyPrefix));
    }

    private CompletionStage<TopicScripts.ScheduleState> state(ScheduleDefinition d, String action) {
        return topicScripts(d).scheduleState(d.slot(), d.name(), action);
    }

    private static ScheduleInfo info(ScheduleDefinition d, TopicScripts.ScheduleState s, Instant now) {
        long next = d.timing().next(now.toEpochMilli());
        return new ScheduleInfo(d, s.exists() && s.lastTick() > 0 ? Optional.of(Instant.ofEpochMilli(s.lastTick()))
                : Optional.empty(), s.paused(), next == Long.MAX_VALUE ? Optional.empty() : Optional.of(Instant.ofEpochMilli(next)));
    }

    private static boolean sameState(ScheduleDefinition a, ScheduleDefinition b) {
        return a.topic().name().equals(b.topic().name()) && a.slot() == b.slot();
    }

    private TopicScripts topicScripts(ScheduleDefinition d) {
        return new TopicScripts(scripts, new TopicKeys(d.topic()));
    }

    private static Optional<ScheduleDefinition> decode(String name, String encoded, String keyPrefix) {
        try {
            return Optional.of(ScheduleDefinition.decode(name, encoded, keyPrefix));
        } catch (RuntimeException e) {
            LOG.scheduleUnreadable(name, registryKey(keyPrefix), e.getMessage());
            return Optional.empty();
        }
    }

    private static <T> CompletionStage<T> stage(Supplier<? extends CompletionStage<T>> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
