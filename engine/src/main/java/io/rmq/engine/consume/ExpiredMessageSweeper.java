package io.rmq.engine.consume;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.redis.RmqClient;
import io.rmq.engine.scripts.TopicScripts;
import io.rmq.engine.settlement.EngineEvents;
import io.rmq.engine.topic.TopicDefinition;

/**
 * Rolls back, for every slot of a topic, the prepare-queue members whose deadline has passed:
 * those of a consumer that died, lost its connection, or never acknowledged; and removes the pending
 * messages whose own expiry has passed (sent with an expiry, see {@code docs/lifecycle.md}) that no pop
 * removed, as in slots nobody pops or {@code FIXED_TIME} messages due after their expiry. A topic-level job:
 * one per engine and topic, running while the engine has a consumer of the topic, whatever slots
 * those consumers pop (a crashed consumer's slots may belong to nobody here).
 *
 * <p>It sweeps every {@code prepare-timeout / 2} (at least 100 ms, at most 10 s) with the retry
 * settings of the consumer that started it. A sweep first asks whether any prepare queue of the topic
 * or expiry set holds members (one {@code EXISTS} over them all on one server; Lettuce splits it per hash slot on a
 * cluster), and only then calls the rollback script on each slot: an idle topic costs one command per
 * sweep, not a script per slot. Once a minute it also keeps every slot's dead queue within the
 * retention of that consumer ({@link ConsumerOptions#deadMaxCount()}, {@link ConsumerOptions#deadMaxAge()}),
 * logging and counting what it deletes, after the same check of the dead queues; and when its consumer does not limit
 * keys, it brings back members that limits per key parked (after one {@code EXISTS} over the parked keys), so they
 * are not left waiting for a consumer with limits (RMQ-0620). The first check covers the
 * expiry sets too (the same {@code EXISTS}, so an idle topic pays nothing more for expiry): when a prepare queue
 * or an expiry set holds members, each slot also gets one {@code expire.lua} call, which removes at most
 * {@value #EXPIRE_LIMIT} expired messages, dropped or, when that consumer's {@link ConsumerOptions#expiredToDead()},
 * kept in the dead queue. Should a check fail,
 * the slots are swept as if it had found members.
 *
 * <p>Threading: sweeps run on the engine's housekeeping thread; {@link Sweepers} is thread-safe.
 */
public final class ExpiredMessageSweeper implements Runnable {

    /** Most members one sweep call rolls back; a larger backlog is swept over the next calls. */
    private static final int SWEEP_LIMIT = 256;
    /** Most dead members one retention call deletes. */
    private static final int TRIM_LIMIT = 1_000;
    /** Keys brought back per {@code unpark.lua} call. */
    private static final int UNPARK_LIMIT = 64;
    /** Most expired messages one cleanup call removes from a slot. */
    static final int EXPIRE_LIMIT = 1_000;
    private static final long TRIM_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);
    /** The failure recorded with a message rolled back at its deadline. */
    static final String EXPIRED_FAILURE = "prepare deadline passed: the consumer stopped, lost Redis or did not settle it in time";

    private final TopicScripts scripts;
    private final ConsumerOptions options;
    private final TopicScripts.RetryRule rule;
    private final BooleanSupplier connected;
    private final EngineEvents events;
    private long lastTrim = System.nanoTime() - TRIM_EVERY_NANOS;

    private ExpiredMessageSweeper(TopicScripts scripts, ConsumerOptions options, BooleanSupplier connected,
            EngineEvents events) {
        this.scripts = scripts;
        this.options = options;
        this.rule = options.settlementPolicy().retryRule();
        this.connected = connected;
        this.events = events;
    }

    /**
     * Sweeps every slot once, if any prepare queue holds members; trims the dead queues once a minute, and then brings
     * back parked members when keys are not limited.
     */
    @Override
    public void run() {
        if (!connected.getAsBoolean()) {
            return;
        }
        ifAnyExists(scripts.countPreparedOrExpiring(), () -> {
            rollBackExpired();
            removeExpired();
        });
        if (System.nanoTime() - lastTrim >= TRIM_EVERY_NANOS) {
            lastTrim = System.nanoTime();
            ifAnyExists(scripts.countDead(), this::trimDead);
            if (!scripts.keyLimits().on()) {
                ifAnyExists(scripts.countParked(), this::unparkAll);
            }
        }
    }

    /** Runs {@code sweep} unless the count of existing keys is 0 (a failed count sweeps). */
    private static void ifAnyExists(CompletionStage<Long> count, Runnable sweep) {
        count.whenComplete((n, f) -> {
            if (f != null || n > 0) {
                sweep.run();
            }
        });
    }

    private void rollBackExpired() {
        TopicDefinition topic = scripts.keys().topic();
        for (int slot = 0; slot < scripts.slotAmount(); slot++) {
            int s = slot;
            scripts.rollbackExpired(slot, rule, EXPIRED_FAILURE, SWEEP_LIMIT).whenComplete((r, f) -> {
                if (f != null) {
                    EngineLogging.log.sweepFailed(s, topic.name(), RmqClient.rootMessage(f));
                } else if (r.total() > 0) {
                    EngineLogging.log.sweptExpired(r.total(), s, topic.name(), r.requeued(), r.merged(), r.dead());
                    events.redelivered(topic, r.requeued() + r.merged());
                    if (r.dead() > 0) {
                        events.deadLettered(topic, r.dead());
                    }
                }
            });
        }
    }

    private void removeExpired() {
        TopicDefinition topic = scripts.keys().topic();
        boolean toDead = options.expiredToDead();
        for (int slot = 0; slot < scripts.slotAmount(); slot++) {
            int s = slot;
            scripts.expire(slot, EXPIRE_LIMIT, toDead).whenComplete((r, f) -> {
                if (f != null) {
                    EngineLogging.log.sweepFailed(s, topic.name(), RmqClient.rootMessage(f));
                } else if (r.expired() > 0) {
                    EngineLogging.log.expiredRemoved(r.expired(), s, topic.name(), toDead);
                    events.expired(topic, r.expired());
                    if (toDead) {
                        events.deadLettered(topic, r.expired());
                    }
                }
            });
        }
    }

    /** Brings back what limits per key parked, slot by slot, until no parked key is left (see {@code unpark.lua}). */
    private void unparkAll() {
        for (int slot = 0; slot < scripts.slotAmount(); slot++) {
            unpark(slot);
        }
    }

    private void unpark(int slot) {
        TopicDefinition topic = scripts.keys().topic();
        scripts.unpark(slot, UNPARK_LIMIT).whenComplete((r, f) -> {
            if (f != null) {
                EngineLogging.log.sweepFailed(slot, topic.name(), RmqClient.rootMessage(f));
                return;
            }
            if (r.unparked() > 0) {
                EngineLogging.log.unparked(r.unparked(), slot, topic.name());
            }
            if (r.more()) {
                unpark(slot);
            }
        });
    }

    private void trimDead() {
        TopicDefinition topic = scripts.keys().topic();
        for (int slot = 0; slot < scripts.slotAmount(); slot++) {
            int s = slot;
            scripts.trimDead(slot, options.deadMaxCount(), options.deadMaxAge().toMillis(), TRIM_LIMIT)
                    .whenComplete((n, f) -> {
                        if (f != null) {
                            EngineLogging.log.sweepFailed(s, topic.name(), RmqClient.rootMessage(f));
                        } else if (n > 0) {
                            EngineLogging.log.deadTrimmed(n, s, topic.name(), options.deadMaxCount(),
                                    options.deadMaxAge().toMillis());
                            events.deadTrimmed(topic, n);
                        }
                    });
        }
    }

    /** The sweepers of one engine: one per topic while it has consumers. Thread-safe. */
    public static final class Sweepers {

        private final ScheduledExecutorService housekeeping;
        private final BooleanSupplier connected;
        private final EngineEvents events;
        private final Map<String, Running> running = new HashMap<>();

        private record Running(ScheduledFuture<?> task, int[] users) {
        }

        public Sweepers(ScheduledExecutorService housekeeping, BooleanSupplier connected, EngineEvents events) {
            this.housekeeping = housekeeping;
            this.connected = connected;
            this.events = events;
        }

        /**
         * A consumer of the topic starts: the topic's sweeper starts with it unless it runs already.
         *
         * @return to call when the consumer stops; the last one stops the sweeper
         */
        synchronized Runnable join(TopicScripts scripts, ConsumerOptions options) {
            TopicDefinition topic = scripts.keys().topic();
            String key = topic.keyPrefix() + "\u0000" + topic.name();
            Running r = running.computeIfAbsent(key, k -> {
                long every = Math.max(100, Math.min(options.prepareTimeout().toMillis() / 2, 10_000));
                ExpiredMessageSweeper sweeper = new ExpiredMessageSweeper(scripts, options, connected, events);
                return new Running(housekeeping.scheduleWithFixedDelay(sweeper, every / 2, every, TimeUnit.MILLISECONDS),
                        new int[1]);
            });
            r.users()[0]++;
            return () -> leave(key, r);
        }

        private synchronized void leave(String key, Running r) {
            if (--r.users()[0] == 0 && running.remove(key, r)) {
                r.task().cancel(false);
            }
        }
    }
}
