package io.rmq.engine.admin;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.rmq.engine.i18n.EngineArguments;
import io.rmq.engine.i18n.EngineExceptions;
import io.rmq.engine.schedule.ScheduleInfo;
import io.rmq.engine.schedule.Schedules;
import io.rmq.engine.redis.ConnectionFailure;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.redis.RedisTopology;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.support.ClientShutdown;
import io.rmq.engine.topic.SlotRouter;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;

/**
 * What an operator does with the topics of one Redis: list them, read each slot's state, page
 * through dead messages and requeue or purge them, remove a pending message or make it due now,
 * pause and resume consumption for the whole cluster.
 *
 * <p>Every operation on a slot is one Lua script call, atomic per message and safe while producers
 * and consumers run: nothing is lost and nothing is delivered twice by it. Pausing sets a flag in
 * each slot that the pop script honours at once; consumers notice a resume at once through a wake
 * notice, or within a second.
 *
 * <p>It has a Redis connection of its own, so it works against any Redis from anywhere (the
 * command line, a REST resource, a test): one server, a Sentinel-managed master, or a Redis Cluster named
 * by any of its nodes or a comma-separated list of seeds (each slot's script then runs on the node that
 * serves the slot). Calls block for at most {@link #DEFAULT_TIMEOUT} each.
 * Lifecycle: {@link #connect} opens, {@link #close()} closes. Thread-safe.
 */
public final class RmqAdmin implements AutoCloseable {

    /** How long one call waits for Redis. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    /** Where the counters start in a {@code stats.lua} reply. */
    private static final int STATS_COUNTERS = 9;

    private final AbstractRedisClient client;
    private final StatefulConnection<byte[], byte[]> connection;
    private final RedisClusterAsyncCommands<byte[], byte[]> commands;
    private final ScriptRunner scripts;
    private final String displayUri;
    private final AdminCalls calls;
    private final DeadActions deadActions;
    private final SharedOperations operations;
    private final Schedules schedules;

    private RmqAdmin(AbstractRedisClient client, StatefulConnection<byte[], byte[]> connection,
            RedisClusterAsyncCommands<byte[], byte[]> commands, ScriptRunner scripts, String displayUri) {
        this.client = client;
        this.connection = connection;
        this.commands = commands;
        this.scripts = scripts;
        this.displayUri = displayUri;
        this.calls = new AdminCalls(displayUri, DEFAULT_TIMEOUT);
        this.deadActions = new DeadActions(calls, scripts, commands);
        this.operations = new SharedOperations(calls, commands);
        this.schedules = new Schedules(() -> scripts);
    }

    /**
     * Connects to Redis.
     *
     * @param redisUri a Lettuce URI ({@code redis://}, {@code rediss://}, {@code redis-sentinel://})
     * @throws IllegalArgumentException when the URI is malformed
     * @throws IllegalStateException    when Redis cannot be reached (RMQ-0313), refuses the credentials (RMQ-0330) or
     *                                  the TLS handshake fails (RMQ-0331), naming the URI without credentials
     */
    public static RmqAdmin connect(String redisUri) {
        return connect(RedisAccess.of(Objects.requireNonNull(redisUri, "redisUri")));
    }

    /**
     * Connects to Redis with credentials and TLS trust given apart from the URI.
     *
     * @throws IllegalStateException when Redis cannot be reached (RMQ-0313), refuses the credentials (RMQ-0330) or
     *                               the TLS handshake fails (RMQ-0331), naming the URI without credentials
     */
    public static RmqAdmin connect(RedisAccess access) {
        List<RedisURI> uris = access.redisUris();
        uris.forEach(uri -> uri.setTimeout(DEFAULT_TIMEOUT));
        String display = access.displayUri();
        RedisClient client = RedisClient.create();
        access.sslOptions().ifPresent(ssl -> client.setOptions(ClientOptions.builder().sslOptions(ssl).build()));
        try {
            RedisTopology topology = RedisTopology.detect(client, uris);
            if (!topology.cluster()) {
                StatefulRedisConnection<byte[], byte[]> c = client.connect(ByteArrayCodec.INSTANCE, uris.get(0));
                return new RmqAdmin(client, c, c.async(), new ScriptRunner(c.async()), display);
            }
            ClientShutdown.shutdown(client, display);
            RedisClusterClient cluster = RedisTopology.clusterClient(uris, access.sslOptions(), DEFAULT_TIMEOUT);
            try {
                StatefulRedisClusterConnection<byte[], byte[]> c = cluster.connect(ByteArrayCodec.INSTANCE);
                return new RmqAdmin(cluster, c, c.async(),
                        new ScriptRunner(c.async(), topology.shardedPubSub(), topology.shebangScripts()), display);
            } catch (RuntimeException e) {
                ClientShutdown.shutdown(cluster, display);
                throw e;
            }
        } catch (RuntimeException e) {
            ClientShutdown.shutdown(client, display);
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            throw ConnectionFailure.of(e).exception(display, String.valueOf(root.getMessage()));
        }
    }

    /** Every topic recorded under {@code keyPrefix} (empty for none), by name. */
    public List<TopicDefinition> topics(String keyPrefix) {
        Map<byte[], byte[]> recorded = await("Listing the topics",
                commands.hgetall(bytes(TopicKeys.registryKey(keyPrefix))));
        Map<String, TopicDefinition> byName = new TreeMap<>();
        recorded.forEach((name, value) -> {
            TopicDefinition.fromRegistry(text(name), text(value), keyPrefix).ifPresent(t -> byName.put(t.name(), t));
        });
        return List.copyOf(byName.values());
    }

    /**
     * The recorded definition of a topic.
     *
     * @throws IllegalArgumentException when the topic is not recorded (RMQ-0312), listing those that are
     */
    public TopicDefinition topic(String name, String keyPrefix) {
        byte[] value = await("Reading topic '" + name + "'",
                commands.hget(bytes(TopicKeys.registryKey(keyPrefix)), bytes(name)));
        Optional<TopicDefinition> topic = TopicDefinition.fromRegistry(name, text(value), keyPrefix);
        if (topic.isEmpty()) {
            String known = String.join(", ", topics(keyPrefix).stream().map(TopicDefinition::name).toList());
            throw EngineExceptions.ex.unknownTopic(name, TopicKeys.registryKey(keyPrefix), known);
        }
        return topic.get();
    }

    /**
     * Each slot's pending, due, oldest due age, in-flight and dead counts, pause flag, owner and counters. A topic
     * that has grown beyond {@code topic}'s amount, or is growing, is read with all its slots (the new slots of a
     * growth under way show as paused until they are released): {@link TopicStats#topic()} says how many.
     */
    public TopicStats stats(TopicDefinition topic) {
        AdminScripts admin = scripts(topic);
        List<Object> growth = await("Reading topic '" + topic.name() + "'", admin.growTopic("read", 0));
        int amount = Math.max(topic.slotAmount(), TopicDefinition.fromRegistry(topic.name(), text((byte[]) growth.get(0)),
                topic.keyPrefix()).map(TopicDefinition::slotAmount).orElse(0));
        if (growth.get(1) != null) {
            amount = Math.max(amount, Integer.parseInt(text((byte[]) growth.get(1))));
        }
        TopicDefinition read = new TopicDefinition(topic.name(), amount, topic.type(), topic.keyPrefix());
        List<CompletionStage<List<Object>>> replies = new ArrayList<>();
        for (int slot = 0; slot < amount; slot++) {
            replies.add(admin.stats(slot));
        }
        List<SlotStats> slots = new ArrayList<>(amount);
        for (int slot = 0; slot < amount; slot++) {
            List<Object> r = await("Reading the state of topic '" + topic.name() + "'", replies.get(slot));
            String worker = text((byte[]) r.get(6));
            Optional<SlotOwner> owner = worker.isEmpty() ? Optional.empty()
                    : Optional.of(new SlotOwner(worker, (Long) r.get(7), Instant.ofEpochMilli((Long) r.get(8))));
            List<Long> counted = new ArrayList<>(SlotCounters.NAMES.size());
            for (int i = STATS_COUNTERS; i < STATS_COUNTERS + SlotCounters.NAMES.size(); i++) {
                counted.add(i < r.size() ? (Long) r.get(i) : 0L);
            }
            slots.add(new SlotStats(slot, (Long) r.get(0), (Long) r.get(1), (Long) r.get(2), (Long) r.get(3),
                    (Long) r.get(4), (Long) r.get(5) == 1L, owner, SlotCounters.of(counted)));
        }
        return new TopicStats(read, slots);
    }

    /**
     * A page of the topic's dead messages, starting at {@code cursor} ({@link DeadCursor#START} for
     * the first), at most {@code limit} messages.
     */
    public DeadPage dead(TopicDefinition topic, DeadCursor cursor, int limit) {
        if (limit < 1) {
            throw EngineArguments.arg.pageLimitBelowOne(limit);
        }
        AdminScripts admin = scripts(topic);
        List<DeadMessage> page = new ArrayList<>();
        int slot = cursor.slot();
        long offset = cursor.offset();
        while (slot < topic.slotAmount() && page.size() < limit) {
            List<Object> r = await("Reading the dead queue of topic '" + topic.name() + "'",
                    admin.deadPage(slot, offset, limit - page.size()));
            long total = (Long) r.get(0);
            for (int i = 1; i + 2 < r.size(); i += 3) {
                page.add(DeadMessage.fromScript(slot, (byte[]) r.get(i), (byte[]) r.get(i + 1), (byte[]) r.get(i + 2)));
            }
            int got = (r.size() - 1) / 3;
            offset += got;
            if (got == 0 || offset >= total) {
                slot++;
                offset = 0;
            }
        }
        Optional<DeadCursor> next = slot < topic.slotAmount() ? Optional.of(new DeadCursor(slot, offset)) : Optional.empty();
        return new DeadPage(page, next);
    }

    /** How many dead messages the selection holds (the dry run of a requeue or purge). */
    public long countDead(TopicDefinition topic, DeadSelection selection) {
        return deadActions.count(topic, selection);
    }

    /**
     * Requeues the selected dead messages into their own slot, at most {@code perSecond} messages per
     * second (a redrive velocity; the requeues under way on one topic through this instance share it): due now (timed types) or with their priority (PRIORITY), with a
     * fresh attempt count; one that has a pending copy merges into it. Blocks until done.
     *
     * @return how many left the dead queue
     */
    public long requeueDead(TopicDefinition topic, DeadSelection selection, int perSecond) {
        return requeueDead(topic, selection, perSecond, new AdminProgress());
    }

    /**
     * {@link #requeueDead(TopicDefinition, DeadSelection, int)}, counting in {@code progress} as it goes and
     * stopping early when it is {@linkplain AdminProgress#stop() stopped}.
     */
    public long requeueDead(TopicDefinition topic, DeadSelection selection, int perSecond, AdminProgress progress) {
        if (perSecond < 1) {
            throw EngineExceptions.ex.badRequeueRate(perSecond);
        }
        return deadActions.act(topic, selection, AdminScripts.DeadAction.REQUEUE, perSecond, progress);
    }

    /** Deletes the selected dead messages and what is recorded about them; how many. */
    public long purgeDead(TopicDefinition topic, DeadSelection selection) {
        return purgeDead(topic, selection, new AdminProgress());
    }

    /** {@link #purgeDead(TopicDefinition, DeadSelection)}, counting in {@code progress}, stopping when it is stopped. */
    public long purgeDead(TopicDefinition topic, DeadSelection selection, AdminProgress progress) {
        return deadActions.act(topic, selection, AdminScripts.DeadAction.PURGE, Integer.MAX_VALUE, progress);
    }

    /**
     * Records a requeue or purge about to run in Redis, under the key prefix of its topic, so that every admin of
     * this Redis lists it ({@link #operations}) and can cancel it ({@link #cancelOperation}) while it runs: its
     * {@code progress} then refreshes the record about once a second between script calls, and stops the operation
     * once it is cancelled. Close the result when the operation ends; a record whose process died is dropped about
     * 30 seconds after its last refresh.
     *
     * @param operation what runs; its {@code acted} and {@code stopping} are taken from {@code progress}
     */
    public RecordedOperation recordOperation(String keyPrefix, AdminOperation operation, AdminProgress progress) {
        return operations.record(keyPrefix, operation, progress);
    }

    /** The requeues and purges under way on the topics of {@code keyPrefix}, by any process, oldest first. */
    public List<AdminOperation> operations(String keyPrefix) {
        return operations.list(keyPrefix);
    }

    /**
     * Asks the operation {@code id} under way on the topics of {@code keyPrefix} to stop, whichever process runs it:
     * it stops within about a second, after its current script call, and what it moved stays moved.
     *
     * @return the operation, {@code stopping}; empty when none is under way with that id
     */
    public Optional<AdminOperation> cancelOperation(String keyPrefix, String id) {
        return operations.cancel(keyPrefix, id);
    }

    /**
     * Deletes one pending message (not a copy being consumed).
     *
     * @param slotBasis the slot basis it was sent with, or {@code null} when it was routed by its content
     * @return whether it was pending
     */
    public boolean removePending(TopicDefinition topic, byte[] content, String slotBasis) {
        return removePending(topic, content, slotBasis, null);
    }

    /**
     * Deletes one pending message sent with {@code tenant} (fair share: it waits in its tenant's queue; {@code null}:
     * sent without one).
     *
     * @param slotBasis the slot basis it was sent with, or {@code null} when it was routed by its content
     * @return whether it was pending
     */
    public boolean removePending(TopicDefinition topic, byte[] content, String slotBasis, String tenant) {
        int slot = SlotRouter.slotOf(slotBasis, content, topic.slotAmount());
        return await("Removing a pending message of topic '" + topic.name() + "'",
                scripts(topic).removePending(slot, content, tenant)) == 1L;
    }

    /**
     * Makes one pending message due at once (PRIORITY: first in its slot).
     *
     * @param slotBasis the slot basis it was sent with, or {@code null} when it was routed by its content
     * @return whether it was pending
     */
    public boolean makeDueNow(TopicDefinition topic, byte[] content, String slotBasis) {
        int slot = SlotRouter.slotOf(slotBasis, content, topic.slotAmount());
        return await("Making a message of topic '" + topic.name() + "' due", scripts(topic).dueNow(slot, content)) == 1L;
    }

    /**
     * Sets the topic's rate limit live, cluster-wide: at most {@code perSecond} messages delivered per second
     * across every consumer of the topic, {@code burst} at once after a quiet time (0: a tenth of a second's worth).
     * It stands until changed again, also across restarts of applications whose configured {@code rate-limit}
     * stays the same. Consumers started with a rate limit follow it from their next reservation of permits.
     *
     * @return the configuration generation of the limit
     * @throws IllegalArgumentException when {@code perSecond} is not above 0 or {@code burst} is below 0
     */
    public long setRateLimit(TopicDefinition topic, double perSecond, int burst) {
        if (!(perSecond > 0) || Double.isInfinite(perSecond)) {
            throw EngineArguments.arg.badRateLimit(Double.toString(perSecond));
        }
        if (burst < 0) {
            throw EngineArguments.arg.badRateLimitBurst(burst);
        }
        return flow(topic).setRate(perSecond, burst);
    }

    /** Removes the topic's rate limit live: its consumers pop unthrottled from their next reservation on. */
    public long removeRateLimit(TopicDefinition topic) {
        return flow(topic).removeRate();
    }

    /**
     * The flow settings of {@code topic} (limits, per-key limits, fair share and weights, priority aging, adaptive
     * slow-down), to read and to change live; see {@code docs/flow-control.md}.
     */
    public TopicFlow flow(TopicDefinition topic) {
        return new TopicFlow(topic, calls, scripts(topic), commands);
    }

    /** Pauses consumption of the topic on every consumer of the cluster; producers go on storing. */
    public void pause(TopicDefinition topic) {
        setPaused(topic, true);
    }

    /** Resumes consumption of a paused topic. */
    public void resume(TopicDefinition topic) {
        setPaused(topic, false);
    }

    private void setPaused(TopicDefinition topic, boolean paused) {
        AdminScripts admin = scripts(topic);
        List<CompletionStage<Long>> calls = new ArrayList<>();
        for (int slot = 0; slot < topic.slotAmount(); slot++) {
            calls.add(admin.pause(slot, paused));
        }
        calls.forEach(c -> await((paused ? "Pausing" : "Resuming") + " topic '" + topic.name() + "'", c));
    }

    /**
     * The recurring schedules recorded under {@code keyPrefix}, by name, with their last tick, whether paused, and
     * their next tick (see {@code docs/schedules.md}).
     */
    public List<ScheduleInfo> schedules(String keyPrefix) {
        return await("Listing the schedules", schedules.list(keyPrefix, Instant.now()));
    }

    /**
     * Pauses the schedule {@code name}: no instance sends its ticks until it is resumed.
     *
     * @throws IllegalArgumentException when no such schedule is recorded (RMQ-0548)
     */
    public ScheduleInfo pauseSchedule(String keyPrefix, String name) {
        return await("Pausing schedule '" + name + "'", schedules.pause(keyPrefix, name, Instant.now()));
    }

    /**
     * Resumes the paused schedule {@code name}: the ticks that fell during the pause are not sent, the next one is.
     *
     * @throws IllegalArgumentException when no such schedule is recorded (RMQ-0548)
     */
    public ScheduleInfo resumeSchedule(String keyPrefix, String name) {
        return await("Resuming schedule '" + name + "'", schedules.resume(keyPrefix, name, Instant.now()));
    }

    /**
     * Removes the schedule {@code name}, its definition and state; the instances running it stop. A schedule
     * declared in an application's configuration is recorded again when that application starts.
     *
     * @throws IllegalArgumentException when no such schedule is recorded (RMQ-0548)
     */
    public ScheduleInfo removeSchedule(String keyPrefix, String name) {
        return await("Removing schedule '" + name + "'", schedules.remove(keyPrefix, name, Instant.now()));
    }

    /** The URI this admin talks to, without credentials. */
    public String displayUri() {
        return displayUri;
    }

    /**
     * Grows a topic to {@code newAmount} slots while its producers and consumers run, one doubling at a time,
     * and returns once Redis records the new amount (see {@code docs/topic-growth.md} for the procedure and
     * what it guarantees). Each doubling lasts until every old slot has let go of the messages it held when
     * it was split (consumed, or dead); meanwhile the new slots are held. Calling it again resumes a growth
     * that was interrupted.
     *
     * @param topic     the topic, as {@link #topic} reads it
     * @param newAmount a power of two above the topic's amount, at most {@value TopicDefinition#MAX_SLOT_AMOUNT}
     * @return the topic's definition with its new amount
     * @throws IllegalArgumentException when {@code newAmount} is not a larger power of two (RMQ-0411)
     * @throws IllegalStateException    when a growth to another amount is under way (RMQ-0412), or Redis fails
     */
    public TopicDefinition growTopic(TopicDefinition topic, int newAmount) {
        return new TopicGrowth(calls, scripts, commands).grow(topic, newAmount);
    }

    @Override
    public void close() {
        connection.close();
        ClientShutdown.shutdown(client, displayUri);
    }

    AdminScripts scripts(TopicDefinition topic) {
        return new AdminScripts(scripts, new TopicKeys(topic));
    }

    private <T> T await(String operation, CompletionStage<T> stage) {
        return calls.await(operation, stage);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] b) {
        return b == null ? "" : new String(b, StandardCharsets.UTF_8);
    }
}
