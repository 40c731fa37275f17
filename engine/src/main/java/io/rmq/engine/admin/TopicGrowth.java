package io.rmq.engine.admin;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.rmq.engine.i18n.EngineExceptions;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;

/**
 * Grows a topic's slot amount while producers and consumers run (see {@code docs/topic-growth.md}), one
 * doubling at a time, each from {@code m} to {@code 2m} slots:
 * <ol>
 * <li>the registry records the growth ({@code grow_topic.lua} begin) and consumers are told
 * ({@code grow:<2m>} on the topic's wake channel): they start claiming the new slots;</li>
 * <li>each new slot {@code s + m} is held (its pause flag, {@code growth_hold.lua}), then its old slot
 * {@code s} is split ({@code split_slot.lua}): a send routed by {@code m} is refused from then on and
 * producers route by {@code 2m}; {@code s} keeps what it holds (the pre-split set);</li>
 * <li>once {@code s} has let go of every pre-split member ({@code split_progress.lua}), {@code s + m} is
 * released;</li>
 * <li>once every new slot is released, the registry records {@code 2m} ({@code grow_topic.lua} finish).</li>
 * </ol>
 * Every step is idempotent, so a growth that was interrupted (this process died, Redis failed over) is
 * resumed by growing the topic to the same amount again. Not thread-safe: one growth per instance.
 */
final class TopicGrowth {

    /** How often the old slots are checked for pre-split members that have left. */
    static final Duration DRAIN_CHECK_INTERVAL = Duration.ofMillis(100);
    /** The most pre-split members one {@code split_progress.lua} call looks at. */
    static final int PROGRESS_LIMIT = 1000;

    private static final EngineLogging LOG = EngineLogging.log;

    private final AdminCalls calls;
    private final ScriptRunner scripts;
    private final RedisClusterAsyncCommands<byte[], byte[]> commands;

    /** @param calls how the admin waits for Redis, which the growth's calls follow */
    TopicGrowth(AdminCalls calls, ScriptRunner scripts, RedisClusterAsyncCommands<byte[], byte[]> commands) {
        this.calls = calls;
        this.scripts = scripts;
        this.commands = commands;
    }

    /**
     * Grows {@code topic} (its recorded definition) to {@code amount} slots and returns once the registry
     * records it. A growth under way (to at most {@code amount}) is completed first.
     */
    TopicDefinition grow(TopicDefinition topic, int amount) {
        AdminScripts admin = new AdminScripts(scripts, new TopicKeys(topic));
        List<Object> state = await("Reading the growth state of topic '" + topic.name() + "'", admin.growTopic("read", 0));
        int current = TopicDefinition.fromRegistry(topic.name(), text(state.get(0)), topic.keyPrefix())
                .map(TopicDefinition::slotAmount).orElse(topic.slotAmount());
        int target = state.get(1) == null ? 0 : Integer.parseInt(text(state.get(1)));
        if (target > amount) {
            throw EngineExceptions.ex.otherGrowthUnderWay(topic.name(), target, amount);
        }
        if (!TopicDefinition.isValidSlotAmount(amount) || amount <= current) {
            throw EngineExceptions.ex.badGrowthAmount(topic.name(), current, amount, TopicDefinition.MAX_SLOT_AMOUNT);
        }
        TopicDefinition grown = topic;
        for (int m = current; m < amount; m *= 2) {
            grown = new TopicDefinition(topic.name(), m, topic.type(), topic.keyPrefix());
            doubleOnce(grown);
        }
        return new TopicDefinition(topic.name(), amount, topic.type(), topic.keyPrefix());
    }

    /** One doubling from {@code topic.slotAmount()} slots. */
    private void doubleOnce(TopicDefinition topic) {
        long started = System.nanoTime();
        int m = topic.slotAmount();
        int target = 2 * m;
        TopicKeys keys = new TopicKeys(topic);
        AdminScripts admin = new AdminScripts(scripts, keys);
        String what = "Growing topic '" + topic.name() + "' to " + target + " slots";
        List<Object> began = await(what, admin.growTopic("begin", m));
        if (began.get(1) == null || Integer.parseInt(text(began.get(1))) != target) {
            throw EngineExceptions.ex.otherGrowthUnderWay(topic.name(),
                    began.get(1) == null ? 0 : Integer.parseInt(text(began.get(1))), target);
        }
        LOG.growthBegan(topic.name(), m, target);
        await(what, announce(admin, target));

        List<Integer> splitting = new ArrayList<>();
        for (int s = 0; s < m; s++) {
            Long done = await(what, exists(keys.splitMarker(s, target)));
            Long held = await(what, exists(keys.presplit(s, target)));
            if (done == 1 && held == 0) {
                // split and drained by an earlier run, which may have stopped before the release
                await(what, admin.growthHold(s + m, target, false));
                continue;
            }
            // hold the new slot before its old one is split: from the split on, producers send to it
            await(what, admin.growthHold(s + m, target, true));
            List<Object> split = await(what, admin.splitSlot(s, target));
            LOG.slotSplit(topic.name(), s, s + m, (Long) split.get(1));
            splitting.add(s);
        }

        Map<Integer, Long> offsets = new HashMap<>();
        while (!splitting.isEmpty()) {
            List<CompletableFuture<List<Object>>> calls = new ArrayList<>();
            for (int s : splitting) {
                calls.add(admin.splitProgress(s, target, offsets.getOrDefault(s, 0L), PROGRESS_LIMIT).toCompletableFuture());
            }
            List<Integer> still = new ArrayList<>();
            for (int i = 0; i < calls.size(); i++) {
                int s = splitting.get(i);
                List<Object> progress = await(what, calls.get(i));
                if ((Long) progress.get(0) < 0) {
                    // the split was lost in a failover before it was replicated: the new slot is still held
                    List<Object> split = await(what, admin.splitSlot(s, target));
                    LOG.slotSplit(topic.name(), s, s + m, (Long) split.get(1));
                    offsets.remove(s);
                    still.add(s);
                } else if ((Long) progress.get(0) == 0) {
                    await(what, admin.growthHold(s + m, target, false));
                    LOG.newSlotReleased(topic.name(), s + m);
                } else {
                    offsets.put(s, (Long) progress.get(1));
                    still.add(s);
                }
            }
            splitting = still;
            if (!splitting.isEmpty()) {
                sleep(DRAIN_CHECK_INTERVAL);
            }
        }

        await(what, admin.growTopic("finish", m));
        await(what, announce(admin, target));
        LOG.growthFinished(topic.name(), target, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }

    private CompletionStage<Long> exists(String key) {
        return commands.exists(key.getBytes(StandardCharsets.UTF_8));
    }

    /** The growth notice {@code grow:<amount>}, on slot 0's wake channel: every consumer of the topic hears it. */
    private CompletionStage<Long> announce(AdminScripts admin, int amount) {
        byte[] notice = ("grow:" + amount).getBytes(StandardCharsets.UTF_8);
        return scripts.shardedWakeChannels() ? commands.spublish(admin.wakeChannel(0), notice)
                : commands.publish(admin.wakeChannel(0), notice);
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("the growth was interrupted; grow the topic again to resume it", e);
        }
    }

    private <T> T await(String operation, CompletionStage<T> stage) {
        return calls.await(operation, stage);
    }

    private static String text(Object bytes) {
        return bytes == null ? null : new String((byte[]) bytes, StandardCharsets.UTF_8);
    }
}
