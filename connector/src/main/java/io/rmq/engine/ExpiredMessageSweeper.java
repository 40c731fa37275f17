package io.rmq.engine;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.rmq.engine.i18n.EngineLogging;

/**
 * Rolls back, for every slot of a topic, the prepare-queue members whose deadline has passed:
 * those of a consumer that died, lost its connection, or never acknowledged. A topic-level job:
 * one per engine and topic, running while the engine has a consumer of the topic, whatever slots
 * those consumers pop (a crashed consumer's slots may belong to nobody here).
 *
 * <p>It sweeps every {@code prepare-timeout / 2} (at least 100 ms, at most 10 s) with the retry
 * settings of the consumer that started it; a sweep costs one script call per slot.
 *
 * <p>Threading: sweeps run on the engine's housekeeping thread; {@link Sweepers} is thread-safe.
 */
final class ExpiredMessageSweeper implements Runnable {

    /** Most members one sweep call rolls back; a larger backlog is swept over the next calls. */
    private static final int SWEEP_LIMIT = 256;

    private final TopicScripts scripts;
    private final TopicScripts.RetryRule rule;
    private final BooleanSupplier connected;

    private ExpiredMessageSweeper(TopicScripts scripts, TopicScripts.RetryRule rule, BooleanSupplier connected) {
        this.scripts = scripts;
        this.rule = rule;
        this.connected = connected;
    }

    /** Sweeps every slot once. */
    @Override
    public void run() {
        if (!connected.getAsBoolean()) {
            return;
        }
        String topic = scripts.keys().topic().name();
        for (int slot = 0; slot < scripts.keys().topic().slotAmount(); slot++) {
            int s = slot;
            scripts.rollbackExpired(slot, rule, SWEEP_LIMIT).whenComplete((r, f) -> {
                if (f != null) {
                    EngineLogging.log.sweepFailed(s, topic, RmqClient.rootMessage(f));
                } else if (r.total() > 0) {
                    EngineLogging.log.sweptExpired(r.total(), s, topic, r.requeued(), r.merged(), r.dead());
                }
            });
        }
    }

    /** The sweepers of one engine: one per topic while it has consumers. Thread-safe. */
    static final class Sweepers {

        private final ScheduledExecutorService housekeeping;
        private final BooleanSupplier connected;
        private final Map<String, Running> running = new HashMap<>();

        private record Running(ScheduledFuture<?> task, int[] users) {
        }

        Sweepers(ScheduledExecutorService housekeeping, BooleanSupplier connected) {
            this.housekeeping = housekeeping;
            this.connected = connected;
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
                ExpiredMessageSweeper sweeper = new ExpiredMessageSweeper(scripts, TopicScripts.RetryRule.of(options), connected);
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
