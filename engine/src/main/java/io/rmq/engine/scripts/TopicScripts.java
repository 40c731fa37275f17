package io.rmq.engine.scripts;

import static io.rmq.engine.scripts.SlotKeyBytes.ATTEMPTS;
import static io.rmq.engine.scripts.SlotKeyBytes.COUNTERS;
import static io.rmq.engine.scripts.SlotKeyBytes.DEAD;
import static io.rmq.engine.scripts.SlotKeyBytes.EXPIRY;
import static io.rmq.engine.scripts.SlotKeyBytes.FAILURES;
import static io.rmq.engine.scripts.SlotKeyBytes.FAIR;
import static io.rmq.engine.scripts.SlotKeyBytes.FLOW_KEYS;
import static io.rmq.engine.scripts.SlotKeyBytes.HELD_EXPIRY;
import static io.rmq.engine.scripts.SlotKeyBytes.IN_FLIGHT_TENANTS;
import static io.rmq.engine.scripts.SlotKeyBytes.KEY_COUNTS;
import static io.rmq.engine.scripts.SlotKeyBytes.ORIGIN;
import static io.rmq.engine.scripts.SlotKeyBytes.OWNER;
import static io.rmq.engine.scripts.SlotKeyBytes.PARKED_KEYS;
import static io.rmq.engine.scripts.SlotKeyBytes.PAUSED;
import static io.rmq.engine.scripts.SlotKeyBytes.PREPARE;
import static io.rmq.engine.scripts.SlotKeyBytes.SINCE;
import static io.rmq.engine.scripts.SlotKeyBytes.SLOT;
import static io.rmq.engine.scripts.SlotKeyBytes.STORE;
import static io.rmq.engine.scripts.SlotKeyBytes.TENANTS;
import static io.rmq.engine.scripts.SlotKeyBytes.TRACE;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.lettuce.core.KeyValue;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.redis.KeyTypes;
import io.rmq.engine.redis.RedisScript;
import io.rmq.engine.redis.RmqClient;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.topic.FairShare;
import io.rmq.engine.topic.KeyLimits;
import io.rmq.engine.topic.PriorityAging;
import io.rmq.engine.topic.TenantName;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicGrowthState;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;

/**
 * The typed gateway to the scripts of one topic: one method per {@code .lua} file, each building
 * the script's KEYS and ARGV as its header documents them and returning a record that mirrors the
 * script's reply. No other class builds script arguments. Also the few plain reads the engine makes
 * of a topic's keys ({@link #highestEpoch()}, and the {@code EXISTS} checks that spare idle slots a script call).
 *
 * <p>Every method fails its stage (it never throws) when Redis was never reached or the call fails; a
 * call that fails because a key holds the wrong kind of value fails with RMQ-0340 naming the key
 * ({@link KeyTypes}).
 * Stateless apart from the key and argument bytes of its slots ({@link SlotKeyBytes}) and the slot amount it
 * consumes, which only grows ({@link #grow}, when the topic grew: see {@code docs/topic-growth.md}); thread-safe.
 */
public final class TopicScripts {

    private static final byte[] MEMBERS = RmqClient.bytes("members");
    private static final byte[] EXPIRED = RmqClient.bytes("expired");
    private static final byte[] EPOCH_FIELD = RmqClient.bytes("epoch");
    private static final byte[] EXPIRES = RmqClient.bytes("EXPIRES");
    private static final byte[] TRACE_SECTION = RmqClient.bytes("TRACE");
    private static final byte[] AGING_SECTION = RmqClient.bytes("AGING");
    private static final byte[] FAIR_SECTION = RmqClient.bytes("FAIR");
    private static final byte[] TRACED = RmqClient.bytes("traced");
    private static final byte[] FLOWKEY_SECTION = RmqClient.bytes("FLOWKEY");
    private static final byte[] NONE = new byte[0];
    /** {@code send.lua}'s status when every message of the call was stored as new: its reply is then {@code {2, now}}. */
    private static final long ALL_STORED = 2;
    private static final byte[] ONE = RmqClient.bytes("1");
    private static final byte[] ZERO = RmqClient.bytes("0");
    /** Elements of a pop reply before the popped members: status, now, next, detail, expired, held, attempts. */
    private static final int POP_HEADER = 7;

    private final Supplier<ScriptRunner> scripts;
    private final TopicKeys keys;
    private final byte[] type;
    private final SlotKeyBytes slots;
    /** Priority aging: sends age their scores and settlements forget send times ({@code PRIORITY} topics only). */
    private volatile PriorityAging aging = PriorityAging.OFF;
    /** The settings with the topic's epoch, once read ({@link #applyPriorityAging}). */
    private volatile CompletionStage<PriorityAging> agingReady = CompletableFuture.completedFuture(PriorityAging.OFF);
    private volatile boolean settleByTenant;
    /** The consumer's limits per key: with a limit, pops park and settlements free places ({@link #keyLimits}). */
    private volatile KeyLimits keyLimits = KeyLimits.NONE;
    /**
     * Per slot: how many more commits of the slot go through {@code commit.lua} before it is committed the plain way
     * ({@link #commit(int, List, boolean, boolean, boolean)}); absent: one.
     */
    private final Map<Integer, AtomicInteger> checkedCommits = new ConcurrentHashMap<>();

    /** How a rolled-back member is retried: {@code rollback.lua}'s ARGV[2..4]. */
    public record RetryRule(int maxRetries, long backoffMillis, long backoffMaxMillis) {
    }

    /**
     * One member moved to the prepare queue: its content, its store score as Redis wrote it, its delivery number,
     * whether the pop that moved it held an expiry for some member (its commit or release then clears it), and the
     * Redis clock when it was popped (ms since the epoch), and its trace entry when the pop was asked for it and the
     * member had one ({@link TraceEntry#wire()}; {@code null} otherwise); with priority aging on, its priority
     * {@code score + k * (since - E0)} ({@code null} otherwise: the score is the priority); and its key when the pop
     * limited keys ({@code pop_flow.lua}: {@code ~slot} for a member without one recorded; {@code null} otherwise or
     * for a message without a key).
     */
    public record PoppedMember(byte[] content, byte[] rawScore, int attempt, boolean heldExpiry, long poppedAtMillis,
            String trace, Double priority, String flowKey) {

        /** A member popped without priority aging or limits per key. */
        public PoppedMember(byte[] content, byte[] rawScore, int attempt, boolean heldExpiry, long poppedAtMillis,
                String trace) {
            this(content, rawScore, attempt, heldExpiry, poppedAtMillis, trace, null, null);
        }

        /** This member with its priority under priority aging. */
        PoppedMember withPriority(double priority) {
            return new PoppedMember(content, rawScore, attempt, heldExpiry, poppedAtMillis, trace, priority, flowKey);
        }

        /** A member popped without a trace entry. */
        public PoppedMember(byte[] content, byte[] rawScore, int attempt, boolean heldExpiry, long poppedAtMillis) {
            this(content, rawScore, attempt, heldExpiry, poppedAtMillis, null);
        }

        /** A member popped without an expiry held, at an unknown time (0). */
        public PoppedMember(byte[] content, byte[] rawScore, int attempt) {
            this(content, rawScore, attempt, false, 0);
        }
    }

    /**
     * What {@code pop.lua} returned.
     *
     * @param redisNow        the Redis clock in ms
     * @param nextDelayMillis 0: more may be due; > 0: ms until the next member is due; -1: nothing waits
     * @param detail          POPPED: the epoch checked (0 without coordination); HANDOVER: members of
     *                        earlier owners still in the prepare queue; FENCED: the epoch the slot is owned under
     * @param expired         members the pop found expired and removed (kept in the dead queue if it was asked to)
     */
    public record PopReply(PopStatus status, long redisNow, long nextDelayMillis, long detail, long expired,
            List<PoppedMember> members) {

        /** A reply that expired nothing. */
        public PopReply(PopStatus status, long redisNow, long nextDelayMillis, long detail, List<PoppedMember> members) {
            this(status, redisNow, nextDelayMillis, detail, 0, members);
        }
    }

    /** What {@code expire.lua} did: members expired, and whether more may have expired (its limit was reached). */
    public record ExpireReply(long expired, boolean more) {
    }

    /** What {@code rollback.lua} did. */
    public record RollbackReply(long requeued, long merged, long dead) {
        public long total() {
            return requeued + merged + dead;
        }
    }

    public TopicScripts(Supplier<ScriptRunner> scripts, TopicKeys keys) {
        this.scripts = scripts;
        this.keys = keys;
        this.type = RmqClient.bytes(keys.topic().type().name());
        this.slots = new SlotKeyBytes(keys);
    }

    /** Whether the topic's scripts run on a Redis Cluster; {@code false} while Redis was not reached. */
    public boolean onCluster() {
        try {
            return scripts.get().onCluster();
        } catch (RuntimeException notReached) {
            return false;
        }
    }

    /** {@link ScriptRunner#warmUp}; nothing while Redis was not reached. */
    public void warmUp(long quietNanos) {
        ScriptRunner runner;
        try {
            runner = scripts.get();
        } catch (RuntimeException notReached) {
            return;
        }
        runner.warmUp(quietNanos);
    }

    public TopicKeys keys() {
        return keys;
    }

    /**
     * The limits per key the calls that follow apply: with a limit, {@link #pop} calls {@code pop_flow.lua} and the
     * settlements ({@link #commit}, {@link #rollback}, {@link #release}) free the members' places; {@link KeyLimits#NONE}
     * pops as {@code pop.lua} does. Set by the consumer owning these scripts; takes effect on the next call.
     */
    public void keyLimits(KeyLimits limits) {
        this.keyLimits = limits == null ? KeyLimits.NONE : limits;
    }

    /** The limits per key applied, {@link KeyLimits#NONE} without any. */
    public KeyLimits keyLimits() {
        return keyLimits;
    }

    /** The slots consumed: the topic definition's amount, or the amount it grew to since ({@link #grow}). */
    public int slotAmount() {
        return slots.slotAmount();
    }

    /** The topic has {@code amount} slots now (a growth began or ended); a smaller amount changes nothing. */
    public void grow(int amount) {
        slots.grow(amount);
    }

    /**
     * The priority aging the next script calls follow (a {@code PRIORITY} topic; otherwise off): {@code send.lua} and
     * {@code reschedule.lua} age the scores they write and pops read the members' priorities once the settings have
     * the topic's epoch; {@code commit.lua}, {@code rollback.lua}, {@code expire.lua} and {@code cancel.lua} forget
     * the send times of the members that leave the slot as soon as the pace is on.
     */
    public void updatePriorityAging(PriorityAging aging) {
        this.aging = aging;
        this.agingReady = CompletableFuture.completedFuture(aging);
    }

    /**
     * {@link #updatePriorityAging}, and for settings without the topic's epoch ({@code 0}) the epoch that
     * {@link #agingEpoch()} fixes or reads: until it is read, sends are not aged and pops wait for it to report
     * priorities. The stage completes with the settings in force.
     */
    public CompletionStage<PriorityAging> applyPriorityAging(PriorityAging aging) {
        return applyPriorityAging(aging, CompletableFuture.completedFuture(null));
    }

    /**
     * {@link #applyPriorityAging(PriorityAging)}, reading the epoch once {@code reachable} completes (Redis was
     * reached: a consumer or producer may be made before the engine connects). The pace is followed at once.
     */
    public CompletionStage<PriorityAging> applyPriorityAging(PriorityAging aging, CompletionStage<Void> reachable) {
        if (!aging.on() || aging.epochMillis() > 0) {
            updatePriorityAging(aging);
            return agingReady;
        }
        this.aging = aging;
        CompletionStage<PriorityAging> ready = reachable.thenCompose(v -> agingEpoch()).thenApply(epoch -> {
            PriorityAging fixed = aging.withEpoch(epoch);
            if (this.aging == aging) { // not changed since
                this.aging = fixed;
            }
            return fixed;
        });
        this.agingReady = ready;
        return ready;
    }

    /** The priority aging the script calls follow ({@link PriorityAging#OFF} when off). */
    public PriorityAging priorityAging() {
        return aging;
    }

    /** The aging that scores follow, or {@code null}: off, its epoch not read yet, or not a {@code PRIORITY} topic. */
    private PriorityAging scoringAging() {
        PriorityAging a = aging;
        return a.on() && a.epochMillis() > 0 && keys.topic().type() == TopicType.PRIORITY ? a : null;
    }

    /** Whether the members that leave a slot take their send times along (aging on, a {@code PRIORITY} topic). */
    private boolean forgetsSendTimes() {
        return aging.on() && keys.topic().type() == TopicType.PRIORITY;
    }

    /**
     * {@code aging_epoch.lua}: the topic's aging epoch, fixed by the first call ever made for the topic (the Redis
     * clock then) and returned as it stands by every later one.
     */
    public CompletionStage<Long> agingEpoch() {
        return run(RedisScript.AGING_EPOCH, new byte[][] { bytes(keys.flow()) });
    }

    /** {@code register_topic.lua}: the definition recorded for the topic (its own when new or agreeing). */
    public CompletionStage<String> registerTopic() {
        TopicDefinition topic = keys.topic();
        return this.<byte[]>run(RedisScript.REGISTER_TOPIC, new byte[][] { bytes(TopicKeys.registryKey(topic.keyPrefix())) },
                bytes(topic.name()), bytes(topic.registryValue()))
                .thenApply(recorded -> new String(recorded, StandardCharsets.UTF_8));
    }

    /**
     * One message to send: the type's value (a time range in ms, a priority, or a delivery time in ms), the member,
     * and when it expires as {@code send.lua} takes it ({@code Expiry.wireValue()}: ms since the epoch on the Redis
     * clock, or {@code +<ms>} after the send), {@code null} for never; and the W3C traceparent of its send span
     * ({@code null}: none), recorded in the slot's trace hash with at most {@code traceLinks} contexts per member; its
     * tenant (fair share, {@code null}: none, the store queue as without fair share; {@code ""}: the default tenant),
     * written to the tenant's queue, which then takes part in the slot's fair share; and its key for limits per key
     * ({@code null}: none recorded; {@code ""}: a message without a key, not limited).
     */
    public record Send(String value, byte[] member, String expiry, String trace, int traceLinks, String tenant,
            String flowKey) {

        /** A message without a tenant or a key recorded. */
        public Send(String value, byte[] member, String expiry, String trace, int traceLinks) {
            this(value, member, expiry, trace, traceLinks, null, null);
        }

        /** A message without a trace context. */
        public Send(String value, byte[] member, String expiry) {
            this(value, member, expiry, null, 0);
        }

        /** A message that does not expire. */
        public Send(String value, byte[] member) {
            this(value, member, null);
        }
    }

    /**
     * {@code send.lua}: stores each message in {@code slot}, or merges it into a pending duplicate,
     * in the order given; one result per message.
     */
    public CompletionStage<List<SendResult>> send(int slot, List<Send> sends) {
        return send(slot, keys.topic().slotAmount(), sends);
    }

    /**
     * {@code send.lua}, routed by {@code routedBy} slots: refused with {@link ScriptError#SPLIT} (see {@link #refusedAsSplit})
     * once the slot was split by a growth to {@code 2 * routedBy}.
     */
    public CompletionStage<List<SendResult>> send(int slot, int routedBy, List<Send> sends) {
        boolean tenants = false;
        for (Send send : sends) {
            if (send.tenant() != null) {
                tenants = true;
                break;
            }
        }
        if (!tenants) {
            return sendTo(slot, routedBy, sends, null);
        }
        // one call per tenant, each on its tenant's queue; the results in the order of the sends
        Map<String, List<Integer>> byTenant = new LinkedHashMap<>();
        for (int i = 0; i < sends.size(); i++) {
            String tenant = sends.get(i).tenant();
            byTenant.computeIfAbsent(tenant == null ? null : TenantName.encode(tenant), t -> new ArrayList<>()).add(i);
        }
        SendResult[] results = new SendResult[sends.size()];
        CompletableFuture<?>[] calls = new CompletableFuture<?>[byTenant.size()];
        int c = 0;
        for (Map.Entry<String, List<Integer>> group : byTenant.entrySet()) {
            List<Send> part = new ArrayList<>(group.getValue().size());
            group.getValue().forEach(i -> part.add(sends.get(i)));
            calls[c++] = sendTo(slot, routedBy, part, group.getKey()).thenAccept(partResults -> {
                for (int j = 0; j < partResults.size(); j++) {
                    results[group.getValue().get(j)] = partResults.get(j);
                }
            }).toCompletableFuture();
        }
        return CompletableFuture.allOf(calls).thenApply(done -> List.of(results));
    }

    /** {@code send.lua} on the queue of the tenant encoded as {@code tenant}; {@code null}: the store queue, no tenant. */
    private CompletionStage<List<SendResult>> sendTo(int slot, int routedBy, List<Send> sends, String tenant) {
        byte[][] k = slots.of(slot);
        // the optional sections the batch needs, in one pass over it
        boolean keyed = false;
        boolean expiring = false;
        boolean traced = false;
        for (Send send : sends) {
            keyed |= send.flowKey() != null;
            expiring |= send.expiry() != null;
            traced |= send.trace() != null;
        }
        byte[][] args = messageArgs(slot, k, sends, expiring, traced, keyed);
        byte[] marker = bytes(keys.splitMarker(slot, 2 * routedBy));
        PriorityAging aged = scoringAging();
        byte[][] sendKeys = tenant == null
                ? new byte[][] { k[STORE], k[PREPARE], k[COUNTERS], marker, k[EXPIRY], k[TRACE] }
                : new byte[][] { bytes(keys.slot(slot).tenantQueue(tenant)), k[PREPARE], k[COUNTERS], marker, k[EXPIRY],
                        k[TRACE], k[TENANTS], k[FAIR] };
        if (keyed) {
            sendKeys = withKeys(sendKeys, k[FLOW_KEYS]); // limits per key: each message's key is recorded
        }
        if (aged != null) {
            sendKeys = withKeys(sendKeys, k[SINCE]);
            args = withAging(args, aged, expiring, traced);
        }
        return this.<List<Object>>run(RedisScript.SEND, sendKeys, args)
                .thenApply(reply -> {
                    List<SendResult> results = new ArrayList<>(sends.size());
                    if (reply.size() == 2 && Long.valueOf(ALL_STORED).equals(reply.get(0))) {
                        // every message stored as new: its score is its value (RANGE_MERGE: Redis's now + its range)
                        boolean ranged = keys.topic().type() == TopicType.RANGE_MERGE;
                        long now = (Long) reply.get(1);
                        for (Send send : sends) {
                            double value = Double.parseDouble(send.value());
                            results.add(new SendResult(true, slot, ranged ? now + value : value));
                        }
                        return results;
                    }
                    for (int i = 0; i + 1 < reply.size(); i += 2) {
                        results.add(new SendResult((Long) reply.get(i) == 1L, slot,
                                Double.parseDouble(new String((byte[]) reply.get(i + 1), StandardCharsets.US_ASCII))));
                    }
                    return results;
                });
    }

    /**
     * What {@code merge_pending.lua} returned: whether the old slot still holds pre-split members, and per
     * message its result in the old slot, or {@code null} when it merged into nothing there.
     */
    public record MergeReply(boolean held, List<SendResult> results) {
    }

    /**
     * {@code merge_pending.lua} on old slot {@code slot} of a growth to {@code targetAmount}: merges each message
     * into its pending pre-split copy there, if it has one: in the queue of the first send's tenant (the producer
     * merges one send per call).
     */
    public CompletionStage<MergeReply> mergePending(int slot, int targetAmount, List<Send> sends) {
        byte[][] k = slots.of(slot);
        byte[] presplit = bytes(keys.presplit(slot, targetAmount));
        byte[] queue = sends.isEmpty() ? k[STORE] : queueOf(slot, sends.get(0).tenant());
        return this.<List<Object>>run(RedisScript.MERGE_PENDING, new byte[][] { queue, presplit, k[COUNTERS] },
                messageArgs(slot, k, sends, false, false, false))
                .thenApply(reply -> {
                    List<SendResult> results = new ArrayList<>(sends.size());
                    for (int i = 1; i + 1 < reply.size(); i += 2) {
                        results.add((Long) reply.get(i) == 1L ? new SendResult(false, slot,
                                Double.parseDouble(new String((byte[]) reply.get(i + 1), StandardCharsets.US_ASCII)))
                                : null);
                    }
                    return new MergeReply((Long) reply.get(0) == 1L, results);
                });
    }

    /**
     * The ARGV of {@code send.lua} and {@code merge_pending.lua}: type, wake channel, slot, then value and member per
     * message; with expiries ({@code send.lua} only) {@code EXPIRES} and value, member and expiry per message; with
     * trace contexts ({@code send.lua} only) {@code TRACE}, the bound, and one more element per message, its context;
     * with keys ({@code send.lua} only) {@code FLOWKEY} and one more element per message, its key.
     */
    private byte[][] messageArgs(int slot, byte[][] k, List<Send> sends, boolean withExpiries, boolean withTraces,
            boolean withKeys) {
        int per = 2 + (withExpiries ? 1 : 0) + (withTraces ? 1 : 0) + (withKeys ? 1 : 0);
        int first = 3 + (withExpiries ? 1 : 0) + (withTraces ? 2 : 0) + (withKeys ? 1 : 0);
        byte[][] args = new byte[first + per * sends.size()][];
        args[0] = type;
        args[1] = wakeChannel(slot);
        args[2] = k[SLOT];
        if (withExpiries) {
            args[3] = EXPIRES;
        }
        if (withTraces) {
            args[3 + (withExpiries ? 1 : 0)] = TRACE_SECTION;
            args[4 + (withExpiries ? 1 : 0)] = number(sends.stream().mapToInt(Send::traceLinks).max().orElse(0));
        }
        if (withKeys) {
            args[first - 1] = FLOWKEY_SECTION;
        }
        int traceAt = 2 + (withExpiries ? 1 : 0);
        for (int i = 0; i < sends.size(); i++) {
            Send send = sends.get(i);
            args[first + per * i] = bytes(send.value());
            args[first + 1 + per * i] = send.member();
            if (withExpiries) {
                args[first + 2 + per * i] = send.expiry() == null ? ZERO : bytes(send.expiry());
            }
            if (withTraces) {
                args[first + traceAt + per * i] = send.trace() == null ? NONE : bytes(send.trace());
            }
            if (withKeys) {
                args[first + per * i + per - 1] = send.flowKey() == null ? NONE : bytes(send.flowKey());
            }
        }
        return args;
    }

    /**
     * {@code args} of {@code send.lua} with its AGING section (pace, epoch) inserted after the optional sections
     * before it.
     */
    private static byte[][] withAging(byte[][] args, PriorityAging aging, boolean withExpiries, boolean withTraces) {
        int at = 3 + (withExpiries ? 1 : 0) + (withTraces ? 2 : 0);
        byte[][] aged = new byte[args.length + 3][];
        System.arraycopy(args, 0, aged, 0, at);
        aged[at] = AGING_SECTION;
        aged[at + 1] = bytes(aging.paceText());
        aged[at + 2] = number(aging.epochMillis());
        System.arraycopy(args, at, aged, at + 3, args.length - at);
        return aged;
    }

    /** {@code keys} and one more key after them. */
    private static byte[][] withKeys(byte[][] keys, byte[]... added) {
        byte[][] more = Arrays.copyOf(keys, keys.length + added.length);
        System.arraycopy(added, 0, more, keys.length, added.length);
        return more;
    }

    /**
     * Whether a send was refused because its slot was split by a growth ({@link ScriptError#SPLIT}, see
     * {@link #send(int, int, List)}): nothing was stored, and the messages are to be routed by twice the amount.
     */
    public static boolean refusedAsSplit(Throwable failure) {
        return ScriptError.SPLIT.reportedIn(failure);
    }

    /**
     * What {@code cancel.lua} did in one slot.
     *
     * @param splits how many of the split markers given exist, one after the other
     */
    public record CancelReply(boolean cancelled, boolean inFlight, int splits) {
    }

    /**
     * {@code cancel.lua}: removes the pending copy of {@code member} from {@code slot}; {@code markers} are the split
     * markers to look for (see {@code lib/split_depth.lua}), none to look for none.
     */
    public CompletionStage<CancelReply> cancel(int slot, byte[] member, List<String> markers) {
        return cancel(slot, member, markers, null);
    }

    /** {@link #cancel(int, byte[], List)} in the queue of {@code tenant} (fair share; {@code null}: the store queue). */
    public CompletionStage<CancelReply> cancel(int slot, byte[] member, List<String> markers, String tenant) {
        byte[][] k = slots.of(slot);
        boolean aged = forgetsSendTimes(); // priority aging: the cancelled message's send time goes too
        byte[] queue = queueOf(slot, tenant);
        byte[][] cancelKeys = aged
                ? withMarkers(markers, queue, k[PREPARE], k[DEAD], k[ATTEMPTS], k[FAILURES], k[EXPIRY], k[COUNTERS],
                        k[TRACE], k[FLOW_KEYS], k[PARKED_KEYS], k[SINCE])
                : withMarkers(markers, queue, k[PREPARE], k[DEAD], k[ATTEMPTS], k[FAILURES], k[EXPIRY], k[COUNTERS],
                        k[TRACE], k[FLOW_KEYS], k[PARKED_KEYS]);
        return this.<List<Object>>run(RedisScript.CANCEL, cancelKeys, aged ? new byte[][] { member, AGING_SECTION }
                : new byte[][] { member })
                .thenApply(r -> new CancelReply(flag(r, 0), flag(r, 1), ((Long) r.get(2)).intValue()));
    }

    /**
     * What {@code find.lua} read in one slot; {@code null} for what the slot does not hold.
     *
     * @param pendingScore     the pending copy's score (due time in ms, or priority)
     * @param inFlightDeadline the prepare deadline (ms) of a copy being consumed
     * @param attempts         failed deliveries so far
     * @param deadAt           when it moved to the dead queue (ms)
     * @param expiresAt        its recorded expiry (ms)
     * @param splits           how many of the split markers given exist, one after the other
     * @param sentAt           with priority aging on: the pending copy's first send time (ms), {@code null} when none
     *                         is recorded (it counts as sent at the epoch) or aging is off
     */
    public record FindReply(Double pendingScore, Long inFlightDeadline, int attempts, Long deadAt, Long expiresAt,
            int splits, Long sentAt) {

        /** A reply without a send time. */
        public FindReply(Double pendingScore, Long inFlightDeadline, int attempts, Long deadAt, Long expiresAt,
                int splits) {
            this(pendingScore, inFlightDeadline, attempts, deadAt, expiresAt, splits, null);
        }
    }

    /** {@code find.lua}: what {@code slot} holds about {@code member}. */
    public CompletionStage<FindReply> find(int slot, byte[] member, List<String> markers) {
        return find(slot, member, markers, null);
    }

    /** {@link #find(int, byte[], List)} in the queue of {@code tenant} (fair share; {@code null}: the store queue). */
    public CompletionStage<FindReply> find(int slot, byte[] member, List<String> markers, String tenant) {
        byte[][] k = slots.of(slot);
        boolean aged = scoringAging() != null; // priority aging: the pending copy's send time comes along
        byte[] queue = queueOf(slot, tenant);
        byte[][] findKeys = aged
                ? withMarkers(markers, queue, k[PREPARE], k[DEAD], k[ATTEMPTS], k[EXPIRY], k[HELD_EXPIRY], k[FLOW_KEYS],
                        k[PARKED_KEYS], k[SINCE])
                : withMarkers(markers, queue, k[PREPARE], k[DEAD], k[ATTEMPTS], k[EXPIRY], k[HELD_EXPIRY], k[FLOW_KEYS],
                        k[PARKED_KEYS]);
        return this.<List<Object>>run(RedisScript.FIND, findKeys, aged ? new byte[][] { member, AGING_SECTION }
                : new byte[][] { member })
                .thenApply(r -> {
                    Double pending = decimal(r.get(0));
                    Double deadline = decimal(r.get(1));
                    Double deadAt = decimal(r.get(3));
                    Double expiresAt = decimal(r.get(4));
                    Double sentAt = r.size() > 6 ? decimal(r.get(6)) : null;
                    return new FindReply(pending, deadline == null ? null : deadline.longValue(),
                            ((Long) r.get(2)).intValue(), deadAt == null ? null : deadAt.longValue(),
                            expiresAt == null ? null : expiresAt.longValue(), ((Long) r.get(5)).intValue(),
                            sentAt == null ? null : sentAt.longValue());
                });
    }

    /**
     * What {@code reschedule.lua} did in one slot.
     *
     * @param splits how many of the split markers given exist, one after the other
     */
    public record RescheduleReply(boolean rescheduled, boolean inFlight, int splits) {
    }

    /**
     * {@code reschedule.lua}: gives the pending copy of {@code member} in {@code slot} the score {@code score} (a due
     * time in ms, or a priority: with priority aging on, aged from the copy's first send), publishing a wake notice
     * when that may end a consumer's sleep.
     */
    public CompletionStage<RescheduleReply> reschedule(int slot, byte[] member, String score, List<String> markers) {
        return reschedule(slot, member, score, markers, null);
    }

    /**
     * {@link #reschedule(int, byte[], String, List)} in the queue of {@code tenant} (fair share; {@code null}: the
     * store queue).
     */
    public CompletionStage<RescheduleReply> reschedule(int slot, byte[] member, String score, List<String> markers,
            String tenant) {
        byte[][] k = slots.of(slot);
        byte[] queue = queueOf(slot, tenant);
        PriorityAging aged = scoringAging(); // priority aging: the new priority is aged from the first send
        if (aged != null) {
            return this.<List<Object>>run(RedisScript.RESCHEDULE,
                    withMarkers(markers, queue, k[PREPARE], k[COUNTERS], k[FLOW_KEYS], k[PARKED_KEYS], k[SINCE]), type, bytes(score), member,
                    wakeChannel(slot), k[SLOT], AGING_SECTION, bytes(aged.paceText()), number(aged.epochMillis()))
                    .thenApply(r -> new RescheduleReply(flag(r, 0), flag(r, 1), ((Long) r.get(2)).intValue()));
        }
        return this.<List<Object>>run(RedisScript.RESCHEDULE, withMarkers(markers, queue, k[PREPARE], k[COUNTERS], k[FLOW_KEYS],
                k[PARKED_KEYS]),
                type, bytes(score), member, wakeChannel(slot), k[SLOT])
                .thenApply(r -> new RescheduleReply(flag(r, 0), flag(r, 1), ((Long) r.get(2)).intValue()));
    }

    /** The queue of {@code tenant} in {@code slot}: the store queue for {@code null} or the default tenant. */
    private byte[] queueOf(int slot, String tenant) {
        String encoded = TenantName.encode(tenant);
        return encoded.isEmpty() ? slots.of(slot)[STORE] : bytes(keys.slot(slot).tenantQueue(encoded));
    }

    private static byte[][] withMarkers(List<String> markers, byte[]... slotKeys) {
        byte[][] all = new byte[slotKeys.length + markers.size()][];
        System.arraycopy(slotKeys, 0, all, 0, slotKeys.length);
        for (int i = 0; i < markers.size(); i++) {
            all[slotKeys.length + i] = bytes(markers.get(i));
        }
        return all;
    }

    private static boolean flag(List<Object> reply, int index) {
        return (Long) reply.get(index) == 1L;
    }

    private static Double decimal(Object value) {
        return value instanceof byte[] b ? Double.parseDouble(new String(b, StandardCharsets.US_ASCII)) : null;
    }

    /**
     * {@code grow_topic.lua} read: the topic's recorded definition ({@code <TYPE>:<amount>}, {@code null} when
     * none) and the amount it is growing to (0 when no growth is under way).
     */
    public CompletionStage<TopicGrowthState> growthState() {
        return this.<List<Object>>run(RedisScript.GROW_TOPIC, growthKeys(), bytes(keys.topic().name()), bytes("read"))
                .thenApply(TopicGrowthState::of);
    }

    /** The keys of {@code grow_topic.lua}: the registry and the growth hash. */
    byte[][] growthKeys() {
        String prefix = keys.topic().keyPrefix();
        return new byte[][] { bytes(TopicKeys.registryKey(prefix)), bytes(TopicKeys.growthKey(prefix)) };
    }

    /**
     * {@code pop.lua}: moves up to {@code count} due members to the prepare queue (0: only the
     * ownership step, a claim).
     *
     * @param epoch  the caller's ownership epoch of the slot, 0 without coordination
     * @param worker the caller's worker id, recorded with a new epoch; ignored when epoch is 0
     */
    public CompletionStage<PopReply> pop(int slot, int count, long prepareTimeoutMillis, long epoch, String worker) {
        return pop(slot, count, prepareTimeoutMillis, epoch, worker, false);
    }

    /**
     * {@code pop.lua}, removing expired members first (at most {@code 2 * count}).
     *
     * @param expiredToDead keep the expired members in the dead queue (failure {@code expired}) instead of dropping them
     */
    public CompletionStage<PopReply> pop(int slot, int count, long prepareTimeoutMillis, long epoch, String worker,
            boolean expiredToDead) {
        return pop(slot, count, prepareTimeoutMillis, epoch, worker, expiredToDead, false);
    }

    /**
     * {@code pop.lua}; with {@code traced} each popped member's trace entry is taken out of the slot's trace hash and
     * returned ({@link PoppedMember#trace()}), to be given back by {@link #rollbackTraced} or {@link #release}.
     */
    public CompletionStage<PopReply> pop(int slot, int count, long prepareTimeoutMillis, long epoch, String worker,
            boolean expiredToDead, boolean traced) {
        return pop(slot, count, prepareTimeoutMillis, epoch, worker, expiredToDead, traced, FairShare.OFF);
    }

    /**
     * {@code pop.lua}; with {@code fair} on, the slot's tenants are served by their weights (each from its own queue)
     * and the popped members' tenants are recorded, for their settlement (see {@link #settleByTenant}).
     */
    public CompletionStage<PopReply> pop(int slot, int count, long prepareTimeoutMillis, long epoch, String worker,
            boolean expiredToDead, boolean traced, FairShare fair) {
        CompletionStage<PopReply> popped = popOnly(slot, count, prepareTimeoutMillis, epoch, worker, expiredToDead, traced, fair);
        if (!forgetsSendTimes()) {
            return popped;
        }
        CompletionStage<PriorityAging> ready = agingReady; // the epoch, read once when aging was switched on
        return popped.thenCompose(reply -> ready.handle((aged, failure) -> failure == null ? aged : null)
                .thenCompose(aged -> aged == null || !aged.on() ? CompletableFuture.completedFuture(reply)
                        : withPriorities(slot, reply, aged)));
    }

    /**
     * Priority aging: the popped members' priorities, {@code score + k * (since - E0)}, read with one {@code HMGET} of
     * the slot's since hash after the pop (pop.lua is unchanged). Should the read fail, the members go on without
     * them (their metadata then shows the score): they are in the prepare queue already.
     */
    private CompletionStage<PopReply> withPriorities(int slot, PopReply reply, PriorityAging aging) {
        if (reply.members().isEmpty()) {
            return CompletableFuture.completedFuture(reply);
        }
        byte[][] members = reply.members().stream().map(PoppedMember::content).toArray(byte[][]::new);
        CompletionStage<List<KeyValue<byte[], byte[]>>> read;
        try {
            read = scripts.get().commands().hmget(slots.of(slot)[SINCE], members);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(reply);
        }
        return read.handle((sentAt, failure) -> {
            if (failure != null) {
                return reply;
            }
            List<PoppedMember> aged = new ArrayList<>(members.length);
            for (int i = 0; i < members.length; i++) {
                PoppedMember m = reply.members().get(i);
                Long since = sentAt.get(i).hasValue() ? parseLong(sentAt.get(i).getValue()) : null;
                double score = Double.parseDouble(new String(m.rawScore(), StandardCharsets.US_ASCII));
                aged.add(m.withPriority(aging.priority(score, since)));
            }
            return new PopReply(reply.status(), reply.redisNow(), reply.nextDelayMillis(), reply.detail(),
                    reply.expired(), aged);
        });
    }

    private static Long parseLong(byte[] text) {
        try {
            return Long.parseLong(new String(text, StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            return null; // not written by send.lua: counts as sent at the epoch
        }
    }

    private CompletionStage<PopReply> popOnly(int slot, int count, long prepareTimeoutMillis, long epoch, String worker,
            boolean expiredToDead, boolean traced, FairShare fair) {
        byte[][] k = slots.of(slot);
        KeyLimits limits = keyLimits;
        if (limits.on()) {
            return this.<List<Object>>runPop(RedisScript.POP_FLOW, slot, new byte[][] { k[STORE], k[PREPARE], k[ATTEMPTS], k[ORIGIN],
                    k[OWNER], k[PAUSED], k[COUNTERS], k[EXPIRY], k[HELD_EXPIRY], k[DEAD], k[FAILURES], k[TRACE],
                    k[FLOW_KEYS], k[KEY_COUNTS], k[PARKED_KEYS] },
                    type, number(count), number(prepareTimeoutMillis), number(epoch), bytes(worker == null ? "" : worker),
                    expiredToDead ? ONE : ZERO, traced ? ONE : ZERO, number(limits.concurrency()),
                    bytes(Double.toString(limits.permitMillis())), number(limits.effectiveBurst()))
                    .thenApply(reply -> popReply(reply, traced, true));
        }
        byte[][] args = { type, number(count), number(prepareTimeoutMillis), number(epoch),
                bytes(worker == null ? "" : worker), expiredToDead ? ONE : ZERO, traced ? ONE : ZERO };
        byte[][] popKeys = { k[STORE], k[PREPARE], k[ATTEMPTS], k[ORIGIN], k[OWNER], k[PAUSED], k[COUNTERS], k[EXPIRY],
                k[HELD_EXPIRY], k[DEAD], k[FAILURES], k[TRACE] };
        if (fair.on()) {
            int first = popKeys.length + 1;
            popKeys = Arrays.copyOf(popKeys, popKeys.length + 3);
            popKeys[first - 1] = k[TENANTS];
            popKeys[first] = k[FAIR];
            popKeys[first + 1] = k[IN_FLIGHT_TENANTS];
            int base = args.length;
            args = Arrays.copyOf(args, base + 4 + 2 * fair.weights().size());
            args[base] = FAIR_SECTION;
            args[base + 1] = number(first);
            args[base + 2] = bytes(Double.toString(fair.defaultWeight()));
            args[base + 3] = number(fair.weights().size());
            int i = base + 4;
            for (Map.Entry<String, Double> w : fair.weights().entrySet()) {
                args[i++] = bytes(TenantName.encode(w.getKey()));
                args[i++] = bytes(Double.toString(w.getValue()));
            }
        }
        return this.<List<Object>>runPop(RedisScript.POP, slot, popKeys, args)
                .thenApply(reply -> popReply(reply, traced, false));
    }

    /**
     * Whether settlement (commit, rollback, release, the sweeper's rollback) puts members popped from a tenant's
     * queue back into it: on for a consumer with fair share. Off, such members return to the store queue (the default
     * tenant), and their in-flight tenant entries stay.
     */
    public void settleByTenant(boolean on) {
        this.settleByTenant = on;
    }

    /** Reads a pop reply made without trace entries; public for its benchmark. */
    public static PopReply popReply(List<Object> reply) {
        return popReply(reply, false, false);
    }

    @SuppressWarnings("unchecked")
    private static PopReply popReply(List<Object> reply, boolean traced, boolean keyed) {
        // after the header, when members were popped: the members, their scores in runs (score, count, ...), their
        // failures so far (with the attempts flag), trace entries (traced) and keys (keyed); see pop.lua
        List<PoppedMember> members;
        if (reply.size() <= POP_HEADER) {
            members = List.of();
        } else {
            List<Object> contents = (List<Object>) reply.get(POP_HEADER);
            List<Object> runs = (List<Object>) reply.get(POP_HEADER + 1);
            List<Object> failures = (Long) reply.get(6) == 1L ? (List<Object>) reply.get(POP_HEADER + 2) : List.of();
            List<Object> traces = traced ? (List<Object>) reply.get(POP_HEADER + 3) : List.of();
            List<Object> keys = keyed ? (List<Object>) reply.get(POP_HEADER + 4) : List.of();
            boolean held = (Long) reply.get(5) == 1L;
            long now = (Long) reply.get(1);
            int n = contents.size();
            members = new ArrayList<>(n);
            int i = 0;
            for (int r = 0; r + 1 < runs.size(); r += 2) {
                byte[] score = (byte[]) runs.get(r);
                long count = (Long) runs.get(r + 1);
                for (long c = 0; c < count && i < n; c++, i++) {
                    String trace = i < traces.size() && traces.get(i) instanceof byte[] entry && entry.length > 0
                            ? new String(entry, StandardCharsets.US_ASCII) : null;
                    String key = i < keys.size() && keys.get(i) instanceof byte[] k && k.length > 0
                            ? new String(k, StandardCharsets.UTF_8) : null;
                    members.add(new PoppedMember((byte[]) contents.get(i), score,
                            i < failures.size() ? attemptAfter(failures.get(i)) : 1, held, now, trace, null, key));
                }
            }
            if (i != n) {
                throw new IllegalStateException("pop reply: " + n + " members but scores for " + i);
            }
        }
        return new PopReply(PopStatus.of((Long) reply.get(0)), (Long) reply.get(1), (Long) reply.get(2),
                (Long) reply.get(3), (Long) reply.get(4), members);
    }

    /**
     * The delivery number of a member whose attempts hash holds {@code failures} (its failed deliveries so far): 1 with
     * none, or with a count that is not a number (written by hand; rollback.lua replaces it).
     */
    private static int attemptAfter(Object failures) {
        if (failures instanceof byte[] count && count.length > 0) {
            try {
                return Math.addExact(Integer.parseInt(new String(count, StandardCharsets.US_ASCII)), 1);
            } catch (NumberFormatException | ArithmeticException e) {
                return 1;
            }
        }
        return 1;
    }

    /** {@code commit.lua}: removes these members from the prepare queue; the number removed. */
    public CompletionStage<Long> commit(int slot, List<byte[]> members) {
        return commit(slot, members, false);
    }

    /**
     * {@code commit.lua}, also removing the members' held expiries when {@code heldExpiry} (some member was popped by
     * a pop that held an expiry, {@link PoppedMember#heldExpiry()}).
     */
    public CompletionStage<Long> commit(int slot, List<byte[]> members, boolean heldExpiry) {
        byte[][] k = slots.of(slot);
        byte[][] args = new byte[2 + members.size()][];
        args[0] = wakeChannel(slot);
        args[1] = k[SLOT];
        for (int i = 0; i < members.size(); i++) {
            args[2 + i] = members.get(i);
        }
        // the optional keys after KEYS[8] are recognised by their names (lib/optional_keys.lua)
        byte[][] commitKeys = heldExpiry
                ? new byte[][] { k[STORE], k[PREPARE], k[ATTEMPTS], k[ORIGIN], k[OWNER], k[FAILURES], k[COUNTERS], k[TRACE],
                        k[HELD_EXPIRY] }
                : new byte[][] { k[STORE], k[PREPARE], k[ATTEMPTS], k[ORIGIN], k[OWNER], k[FAILURES], k[COUNTERS], k[TRACE] };
        if (settleByTenant) {
            commitKeys = withKeys(commitKeys, k[IN_FLIGHT_TENANTS]); // fair share: members go back by their tenant
        }
        if (keyLimits.on()) {
            commitKeys = withKeys(commitKeys, k[FLOW_KEYS], k[KEY_COUNTS], k[PARKED_KEYS]); // limits per key
        }
        if (forgetsSendTimes()) {
            commitKeys = withKeys(commitKeys, k[SINCE]); // priority aging: the committed members' send times go
        }
        return run(RedisScript.COMMIT, commitKeys, args);
    }

    /** Commits through {@code commit.lua} after a plain commit's rest asked for its members, or failed. */
    static final int CHECKED_COMMITS = 64;
    private static final String PLAIN_COMMIT = "the commit's ZREM of the prepare queue";

    /**
     * A consumer's commit of these members: the plain way when it may, else {@code commit.lua}; the number removed.
     *
     * <p>The plain way is the bare client's ack: one {@code ZREM} of the members from the prepare queue, whose count is
     * the number committed, then {@code committed.lua}, given no member, for what {@code commit.lua} does beside the
     * removal (the {@code acked} count, the wake notices of blocked copies and of a handover). It is taken for first
     * deliveries ({@code firstDeliveries}) of a {@code RANGE_MERGE} or {@code FIXED_TIME} topic with no held expiry,
     * limits per key or fair share, once a commit of the slot through {@code commit.lua} has succeeded (that script
     * checks the types of the slot's keys before it removes anything: a slot whose keys were written by another client
     * fails its commits without removing the members, RMQ-0101). When {@code committed.lua} finds what needs the
     * members (a blocked hash of more than 128 entries, failures in the slot, trace entries a consumer that
     * {@code tracesTaken} not left behind), {@code commit_forget.lua} is given them, and the slot's next
     * {@value #CHECKED_COMMITS} commits go through {@code commit.lua}; so also after {@code committed.lua} failed
     * (logged as RMQ-0102: the members were committed).
     */
    public CompletionStage<Long> commit(int slot, List<byte[]> members, boolean heldExpiry, boolean firstDeliveries,
            boolean tracesTaken) {
        if (heldExpiry || !firstDeliveries || members.isEmpty() || !plainCommits()) {
            return commit(slot, members, heldExpiry);
        }
        AtomicInteger checked = checkedCommits.computeIfAbsent(slot, s -> new AtomicInteger(1));
        if (checked.get() > 0) {
            return commit(slot, members, false).thenApply(n -> {
                checked.decrementAndGet();
                return n;
            });
        }
        return commitPlain(slot, members, tracesTaken, checked);
    }

    /** Whether the topic's commits may go the plain way: what commit.lua does beside the removal needs no member. */
    private boolean plainCommits() {
        return keys.topic().type() != TopicType.PRIORITY && !settleByTenant && !keyLimits.on();
    }

    private CompletionStage<Long> commitPlain(int slot, List<byte[]> members, boolean tracesTaken, AtomicInteger checked) {
        byte[][] k = slots.of(slot);
        ScriptRunner runner;
        try {
            runner = scripts.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletionStage<Long> removed = KeyTypes.nameWrongKeys(runner.zrem(k[PREPARE], members.toArray(byte[][]::new)),
                runner.commands(), PLAIN_COMMIT, new byte[][] { k[PREPARE] });
        return removed.thenCompose(n -> {
            byte[][] restKeys = tracesTaken
                    ? new byte[][] { k[STORE], k[PREPARE], k[ATTEMPTS], k[OWNER], k[COUNTERS] }
                    : new byte[][] { k[STORE], k[PREPARE], k[ATTEMPTS], k[OWNER], k[COUNTERS], k[TRACE] };
            byte[] channel = wakeChannel(slot);
            return this.<Long>run(RedisScript.COMMITTED, restKeys, channel, k[SLOT], number(n))
                    .thenCompose(ask -> {
                        if (ask == 0) {
                            return CompletableFuture.completedFuture(n);
                        }
                        checked.set(CHECKED_COMMITS);
                        byte[][] args = new byte[3 + members.size()][];
                        args[0] = channel;
                        args[1] = k[SLOT];
                        args[2] = number(ask);
                        for (int i = 0; i < members.size(); i++) {
                            args[3 + i] = members.get(i);
                        }
                        return this.<Long>run(RedisScript.COMMIT_FORGET,
                                new byte[][] { k[STORE], k[PREPARE], k[ATTEMPTS], k[FAILURES], k[TRACE] }, args)
                                .thenApply(forgotten -> n);
                    })
                    .exceptionally(failure -> {
                        checked.set(CHECKED_COMMITS);
                        EngineLogging.log.committedUncounted(n, slot, keys.topic().name(), RmqClient.rootMessage(failure));
                        return n;
                    });
        });
    }

    /**
     * {@code rollback.lua} on these members: retried by {@code rule}, or moved to the dead queue.
     *
     * @param failure why they failed, recorded as their last failure (see {@code Delivery.failureText})
     */
    public CompletionStage<RollbackReply> rollback(int slot, RetryRule rule, String failure, List<byte[]> members) {
        byte[][] args = rollbackArgs(slot, rule, MEMBERS, 0, failure, members.size());
        for (int i = 0; i < members.size(); i++) {
            args[9 + i] = members.get(i);
        }
        return runRollback(slot, args);
    }

    /**
     * {@code rollback.lua} on these members, giving back their trace entries ({@link TraceEntry#wire()}, {@code null}
     * for none; each with the failed delivery's context as its attempt), kept with at most {@code traceLinks} contexts.
     */
    public CompletionStage<RollbackReply> rollbackTraced(int slot, RetryRule rule, String failure, List<byte[]> members,
            List<String> traces, int traceLinks) {
        byte[][] args = rollbackArgs(slot, rule, TRACED, 0, failure, 1 + 2 * members.size());
        args[9] = number(traceLinks);
        for (int i = 0; i < members.size(); i++) {
            args[10 + 2 * i] = members.get(i);
            args[11 + 2 * i] = traces.get(i) == null ? NONE : bytes(traces.get(i));
        }
        return runRollback(slot, args);
    }

    /** {@code rollback.lua} on up to {@code limit} members whose prepare deadline has passed. */
    public CompletionStage<RollbackReply> rollbackExpired(int slot, RetryRule rule, String failure, int limit) {
        return runRollback(slot, rollbackArgs(slot, rule, EXPIRED, limit, failure, 0));
    }

    private byte[][] rollbackArgs(int slot, RetryRule rule, byte[] selection, int limit, String failure, int members) {
        byte[][] args = new byte[9 + members][];
        args[0] = type;
        args[1] = number(rule.maxRetries());
        args[2] = number(rule.backoffMillis());
        args[3] = number(rule.backoffMaxMillis());
        args[4] = wakeChannel(slot);
        args[5] = slots.of(slot)[SLOT];
        args[6] = selection;
        args[7] = number(limit);
        args[8] = bytes(failure);
        return args;
    }

    private CompletionStage<RollbackReply> runRollback(int slot, byte[][] args) {
        byte[][] k = slots.of(slot);
        // the optional keys after KEYS[11] are recognised by their names (lib/optional_keys.lua)
        byte[][] rollbackKeys = new byte[][] { k[STORE], k[PREPARE], k[ATTEMPTS], k[ORIGIN], k[DEAD], k[OWNER],
                k[FAILURES], k[COUNTERS], k[EXPIRY], k[HELD_EXPIRY], k[TRACE] };
        if (settleByTenant) {
            // fair share: members go back to their tenant's queue
            rollbackKeys = withKeys(rollbackKeys, k[IN_FLIGHT_TENANTS], k[TENANTS], k[FAIR]);
        }
        if (keyLimits.on()) {
            rollbackKeys = withKeys(rollbackKeys, k[FLOW_KEYS], k[KEY_COUNTS], k[PARKED_KEYS]); // limits per key
        }
        if (forgetsSendTimes()) {
            rollbackKeys = withKeys(rollbackKeys, k[SINCE]); // priority aging: the dead members' send times go
        }
        return this.<List<Object>>run(RedisScript.ROLLBACK, rollbackKeys, args)
                .thenApply(r -> new RollbackReply((Long) r.get(0), (Long) r.get(1), (Long) r.get(2)));
    }

    /**
     * {@code release.lua}: returns never-delivered members to the store queue with the score they
     * were popped with, no attempt counted, and with the trace entries they were popped with; the number returned
     * or merged.
     */
    public CompletionStage<Long> release(int slot, List<PoppedMember> members) {
        return release(slot, members, 0);
    }

    /** {@link #release(int, List)}, trace entries kept with at most {@code traceLinks} contexts. */
    public CompletionStage<Long> release(int slot, List<PoppedMember> members, int traceLinks) {
        byte[][] k = slots.of(slot);
        boolean traced = members.stream().anyMatch(m -> m.trace() != null);
        int per = traced ? 3 : 2;
        int first = traced ? 4 : 2;
        byte[][] args = new byte[first + per * members.size()][];
        args[0] = wakeChannel(slot);
        args[1] = k[SLOT];
        if (traced) {
            args[2] = TRACE_SECTION;
            args[3] = number(traceLinks);
        }
        for (int i = 0; i < members.size(); i++) {
            PoppedMember m = members.get(i);
            args[first + per * i] = m.content();
            args[first + 1 + per * i] = m.rawScore();
            if (traced) {
                args[first + 2 + per * i] = m.trace() == null ? NONE : bytes(m.trace());
            }
        }
        // the optional keys after KEYS[7] are recognised by their names (lib/optional_keys.lua)
        boolean limits = keyLimits.on();
        byte[][] releaseKeys = traced || settleByTenant || limits
                ? new byte[][] { k[STORE], k[PREPARE], k[ORIGIN], k[COUNTERS], k[EXPIRY], k[HELD_EXPIRY], k[TRACE] }
                : members.stream().anyMatch(PoppedMember::heldExpiry)
                ? new byte[][] { k[STORE], k[PREPARE], k[ORIGIN], k[COUNTERS], k[EXPIRY], k[HELD_EXPIRY] }
                : new byte[][] { k[STORE], k[PREPARE], k[ORIGIN], k[COUNTERS] };
        if (settleByTenant) {
            releaseKeys = withKeys(releaseKeys, k[IN_FLIGHT_TENANTS], k[TENANTS], k[FAIR]); // fair share
        }
        if (limits) {
            releaseKeys = withKeys(releaseKeys, k[FLOW_KEYS], k[KEY_COUNTS], k[PARKED_KEYS]); // limits per key
        }
        return run(RedisScript.RELEASE, releaseKeys, args);
    }

    /**
     * {@code expire.lua}: removes up to {@code limit} members of the slot's store queue whose expiry has passed.
     *
     * @param expiredToDead keep them in the dead queue (failure {@code expired}) instead of dropping them
     */
    public CompletionStage<ExpireReply> expire(int slot, int limit, boolean expiredToDead) {
        byte[][] k = slots.of(slot);
        byte[][] expireKeys = new byte[][] { k[STORE], k[PREPARE], k[ATTEMPTS], k[FAILURES], k[DEAD], k[EXPIRY],
                k[COUNTERS], k[TRACE] };
        if (keyLimits.on()) {
            expireKeys = withKeys(expireKeys, k[FLOW_KEYS], k[PARKED_KEYS]); // limits per key: parked members expire
        }
        if (forgetsSendTimes()) {
            expireKeys = withKeys(expireKeys, k[SINCE]); // priority aging: the expired members' send times go
        }
        return this.<List<Object>>run(RedisScript.EXPIRE, expireKeys, type, number(limit), expiredToDead ? ONE : ZERO)
                .thenApply(r -> new ExpireReply((Long) r.get(0), (Long) r.get(1) == 1L));
    }

    /** {@code extend.lua}: deadline = now + prepare timeout for these members; the number extended. */
    public CompletionStage<Long> extend(int slot, long prepareTimeoutMillis, List<byte[]> members) {
        byte[][] args = new byte[1 + members.size()][];
        args[0] = number(prepareTimeoutMillis);
        for (int i = 0; i < members.size(); i++) {
            args[1 + i] = members.get(i);
        }
        return run(RedisScript.EXTEND, new byte[][] { slots.of(slot)[PREPARE] }, args);
    }

    /**
     * {@code trim_dead.lua}: deletes dead members older than {@code maxAgeMillis}, then the oldest
     * beyond {@code maxCount}, at most {@code limit}; how many were deleted.
     */
    public CompletionStage<Long> trimDead(int slot, long maxCount, long maxAgeMillis, int limit) {
        byte[][] k = slots.of(slot);
        return this.<List<Object>>run(RedisScript.TRIM_DEAD, new byte[][] { k[DEAD], k[ATTEMPTS], k[FAILURES], k[COUNTERS] },
                number(maxCount), number(maxAgeMillis), number(limit))
                .thenApply(r -> (Long) r.get(0) + (Long) r.get(1));
    }

    /**
     * The highest ownership epoch recorded in the owner hashes of the topic's slots (0 when none),
     * so that epochs handed out by a fresh assignment keep growing.
     */
    public CompletionStage<Long> highestEpoch() {
        byte[][] owners = slots.everySlot(OWNER);
        List<CompletableFuture<byte[]>> reads = new ArrayList<>(owners.length);
        try {
            ScriptRunner runner = scripts.get();
            for (byte[] owner : owners) {
                reads.add(runner.commands().hget(owner, EPOCH_FIELD).toCompletableFuture());
            }
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenApply(v -> {
            long highest = 0;
            for (CompletableFuture<byte[]> read : reads) {
                byte[] value = read.join();
                if (value != null) {
                    // a value that is not a number (written by hand) counts as no epoch: the next claim replaces it
                    try {
                        highest = Math.max(highest, Long.parseLong(new String(value, StandardCharsets.US_ASCII)));
                    } catch (NumberFormatException e) {
                        // counts as 0
                    }
                }
            }
            return highest;
        });
    }

    /**
     * How many of these slots' store queues hold members (a sorted set that empties is deleted): one
     * {@code EXISTS} on one server. The safety poll of slots that had nothing waiting.
     */
    public CompletionStage<Long> countPending(int[] parked) {
        return countPending(parked, false);
    }

    /**
     * {@link #countPending(int[])}, with {@code withTenants} also the slots' fair-share tenants sets (which exist while
     * a tenant has pending members): a consumer with fair share finds messages waiting only in tenant queues.
     */
    public CompletionStage<Long> countPending(int[] parked, boolean withTenants) {
        return countPending(parked, withTenants, false);
    }

    /**
     * {@link #countPending(int[], boolean)}, with {@code withParkedKeys} also the slots' parked keys sets (limits per
     * key): members parked behind a key at its limit wait there, not in the store queue, and a consumer whose wake
     * notice for a freed place was lost finds them by this check.
     */
    public CompletionStage<Long> countPending(int[] parked, boolean withTenants, boolean withParkedKeys) {
        int per = 1 + (withTenants ? 1 : 0) + (withParkedKeys ? 1 : 0);
        byte[][] k = new byte[per * parked.length][];
        for (int i = 0; i < parked.length; i++) {
            byte[][] slot = slots.of(parked[i]);
            int at = per * i;
            k[at++] = slot[STORE];
            if (withTenants) {
                k[at++] = slot[TENANTS];
            }
            if (withParkedKeys) {
                k[at] = slot[PARKED_KEYS];
            }
        }
        return countExisting(k);
    }

    /**
     * How many of the topic's prepare queues and expiry sets hold members: whether the sweeper has anything to look
     * at. One {@code EXISTS} (on a cluster, one per hash slot: a slot's two keys share its hash tag).
     */
    public CompletionStage<Long> countPreparedOrExpiring() {
        byte[][] prepared = slots.everySlot(PREPARE);
        byte[][] expiring = slots.everySlot(EXPIRY);
        byte[][] k = new byte[prepared.length + expiring.length][];
        for (int slot = 0; slot < prepared.length; slot++) {
            k[2 * slot] = prepared[slot];
            k[2 * slot + 1] = expiring[slot];
        }
        return countExisting(k);
    }

    /**
     * How many of the topic's slots hold members parked by limits per key ({@code parkedkeys} exists): whether
     * {@link #unpark} has anything to bring back.
     */
    public CompletionStage<Long> countParked() {
        return countExisting(slots.everySlot(PARKED_KEYS));
    }

    /** What {@code unpark.lua} did: members brought back, and whether parked keys remain (call again). */
    public record UnparkReply(long unparked, boolean more) {
    }

    /** {@code unpark.lua}: brings the members of up to {@code limit} parked keys back into the slot's store queue. */
    public CompletionStage<UnparkReply> unpark(int slot, int limit) {
        byte[][] k = slots.of(slot);
        return this.<List<Object>>run(RedisScript.UNPARK, new byte[][] { k[STORE], k[PARKED_KEYS], k[COUNTERS] },
                type, wakeChannel(slot), k[SLOT], number(limit))
                .thenApply(r -> new UnparkReply((Long) r.get(0), (Long) r.get(1) == 1L));
    }

    /** How many of the topic's dead queues hold members: whether the retention has anything to trim. */
    public CompletionStage<Long> countDead() {
        return countExisting(slots.everySlot(DEAD));
    }

    private CompletionStage<Long> countExisting(byte[][] k) {
        try {
            return scripts.get().countExisting(k);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** How {@code tick.lua} is asked to treat a tick: on time, or as the latest tick since the caller (re)started. */
    public enum TickMode {
        DUE, START
    }

    /** What {@code tick.lua} did with a tick, and its detail (see the script's header). */
    public record TickReply(TickStatus status, long detail) {
    }

    /**
     * {@code tick.lua}: sends the message of one tick of the schedule {@code name} to {@code slot} (where its
     * payload routes by the topic's amount), once cluster-wide, or records it as missed; {@code value} is the
     * topic type's value (ignored for {@code FIXED_TIME}, whose score is the tick).
     */
    public CompletionStage<TickReply> tick(int slot, String name, long tick, long previous, TickMode mode,
            String missedPolicy, String value, byte[] member) {
        byte[][] k = slots.of(slot);
        byte[] marker = bytes(keys.splitMarker(slot, keys.topic().slotAmount() * 2));
        return this.<List<Object>>run(RedisScript.TICK,
                new byte[][] { bytes(keys.scheduleState(slot, name)), k[STORE], k[COUNTERS], marker },
                type, wakeChannel(slot), k[SLOT], number(tick), number(previous),
                bytes(mode.name().toLowerCase(java.util.Locale.ROOT)), bytes(missedPolicy), bytes(value), member)
                .thenApply(r -> new TickReply(TickStatus.of((Long) r.get(0)), Long.parseLong(text(r.get(1)))));
    }

    /** What {@code schedule_state.lua} found (after its change): whether the state exists, its last tick, paused. */
    public record ScheduleState(boolean exists, long lastTick, boolean paused, boolean changed) {
    }

    /** {@code schedule_state.lua}: {@code action} (define, read, pause, resume or remove) on the state of schedule {@code name}. */
    public CompletionStage<ScheduleState> scheduleState(int slot, String name, String action) {
        return this.<List<Object>>run(RedisScript.SCHEDULE_STATE, new byte[][] { bytes(keys.scheduleState(slot, name)) },
                bytes(action))
                .thenApply(r -> new ScheduleState((Long) r.get(0) == 1, Long.parseLong(text(r.get(1))),
                        (Long) r.get(2) == 1, (Long) r.get(3) == 1));
    }

    /**
     * What {@code flow_acquire.lua} reserved: permits of configuration generation {@code gen}, usable
     * {@code waitMillis} from now; {@code rate} is the limit in permits per second, negative without one.
     */
    public record FlowGrant(long gen, int granted, long waitMillis, double rate) {

        /** Whether the topic has a rate limit. */
        public boolean limited() {
            return rate > 0;
        }
    }

    /**
     * {@code flow_acquire.lua}: reserves up to {@code permits} of the topic's rate limit, giving back {@code refund}
     * unused permits of a previous reservation taken under generation {@code refundGen}.
     */
    public CompletionStage<FlowGrant> flowAcquire(int permits, int refund, long refundGen) {
        return flowAcquire(permits, refund, refundGen, 0, 0, -1, 0);
    }

    /**
     * {@code flow_acquire.lua} with the adaptive slow-down's inputs: {@code acked} and {@code failed} deliveries the
     * caller settled since its previous call, and its own settings (a failure {@code threshold} in (0, 1) and a
     * {@code floor} in permits per second, {@code 0}: the default), or {@code threshold < 0} when it runs none of its
     * own (the flow hash's {@code a.on} decides).
     */
    public CompletionStage<FlowGrant> flowAcquire(int permits, int refund, long refundGen, long acked, long failed,
            double threshold, double floor) {
        boolean adaptive = threshold > 0;
        return this.<List<Object>>run(RedisScript.FLOW_ACQUIRE, new byte[][] { bytes(keys.flow()) },
                number(permits), number(refund), number(refundGen), number(acked), number(failed),
                bytes(adaptive ? "1" : ""), bytes(adaptive ? decimal(threshold) : ""),
                bytes(adaptive && floor > 0 ? decimal(floor) : ""))
                .thenApply(r -> new FlowGrant((Long) r.get(0), ((Long) r.get(1)).intValue(), (Long) r.get(2),
                        Double.parseDouble(text(r.get(3)))));
    }

    /** The fields of the topic's flow hash ({@code HGETALL}), an empty map when it does not exist. */
    public CompletionStage<Map<String, String>> flowSettings() {
        return scripts.get().commands().hgetall(bytes(keys.flow())).thenApply(all -> {
            Map<String, String> fields = new HashMap<>();
            all.forEach((k, v) -> fields.put(new String(k, StandardCharsets.UTF_8), new String(v, StandardCharsets.UTF_8)));
            return fields;
        });
    }

    /**
     * What {@code flow_set.lua} did: whether a field changed, the generation after the call, and the rate and
     * burst that configuration last wrote (config mode) or the hash held (live mode), {@code ""} when absent.
     */
    public record FlowSetReply(boolean changed, long gen, String previousRate, String previousBurst) {
    }

    /**
     * What {@code flow_set.lua} did with several fields: whether one changed, the generation after the call, and
     * for each field given the value configuration last wrote (config mode) or the hash held (live mode),
     * {@code ""} when absent, in the order given.
     */
    public record FlowFieldsReply(boolean changed, long gen, Map<String, String> previous) {
    }

    /**
     * {@code flow_set.lua}: sets the topic's rate limit to {@code perSecond} permits per second ({@code <= 0}: no
     * limit) with a bucket of {@code burst} ({@code 0}: the limiter's default); {@code live} writes it as an
     * operator's change, otherwise as configuration's starting value.
     */
    public CompletionStage<FlowSetReply> flowSet(boolean live, double perSecond, int burst) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("rate", perSecond > 0 ? BigDecimal.valueOf(perSecond).stripTrailingZeros().toPlainString() : "");
        fields.put("burst", Integer.toString(burst));
        return flowSet(live, fields).thenApply(r -> new FlowSetReply(r.changed(), r.gen(), r.previous().get("rate"),
                r.previous().get("burst")));
    }

    /**
     * {@code flow_set.lua}: sets each of {@code fields} of the topic's flow hash to its value ({@code ""}: removes
     * it), as an operator's change ({@code live}) or as configuration's starting value. The script checks every
     * value before writing any, and fails the stage naming the field and value it refuses.
     */
    public CompletionStage<FlowFieldsReply> flowSet(boolean live, Map<String, String> fields) {
        List<byte[]> args = new ArrayList<>(1 + 2 * fields.size());
        args.add(bytes(live ? "live" : "config"));
        fields.forEach((field, value) -> {
            args.add(bytes(field));
            args.add(bytes(value));
        });
        List<String> names = List.copyOf(fields.keySet());
        return this.<List<Object>>run(RedisScript.FLOW_SET, new byte[][] { bytes(keys.flow()) },
                args.toArray(byte[][]::new))
                .thenApply(r -> {
                    Map<String, String> previous = new LinkedHashMap<>();
                    for (int i = 0; i < names.size(); i++) {
                        previous.put(names.get(i), text(r.get(i + 2)));
                    }
                    return new FlowFieldsReply((Long) r.get(0) == 1, (Long) r.get(1), previous);
                });
    }

    private static String decimal(double value) {
        return java.math.BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    private static String text(Object reply) {
        return reply instanceof byte[] b ? new String(b, StandardCharsets.US_ASCII) : String.valueOf(reply);
    }

    /** The channel the slot's scripts publish wake notices on: sharded per slot on a Redis Cluster. */
    private byte[] wakeChannel(int slot) {
        try {
            return scripts.get().shardedWakeChannels() ? slots.shardedWakeChannel(slot) : slots.wakeChannel();
        } catch (RuntimeException notConnected) {
            return slots.wakeChannel(); // the call fails anyway, in run()
        }
    }

    /**
     * A pop script: as {@link #run}, and a {@code WRONGTYPE} failure names the slot's blocked hash too (the script
     * builds its name and checks its type before anything moves).
     */
    private <T> CompletionStage<T> runPop(RedisScript script, int slot, byte[][] scriptKeys, byte[]... args) {
        try {
            ScriptRunner runner = scripts.get();
            return runner.<T>run(script, scriptKeys, args).exceptionallyCompose(failure -> KeyTypes.nameWrongKeys(
                    CompletableFuture.<T>failedFuture(failure), runner.commands(), script,
                    withKeys(scriptKeys, bytes(keys.slot(slot).blocked()))));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private <T> CompletionStage<T> run(RedisScript script, byte[][] scriptKeys, byte[]... args) {
        try {
            ScriptRunner runner = scripts.get();
            return KeyTypes.nameWrongKeys(runner.run(script, scriptKeys, args), runner.commands(), script, scriptKeys);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] number(long n) {
        return Long.toString(n).getBytes(StandardCharsets.US_ASCII);
    }
}
