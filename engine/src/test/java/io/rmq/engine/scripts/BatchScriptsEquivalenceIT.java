package io.rmq.engine.scripts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.engine.redis.RedisScript;
import io.rmq.engine.topic.SlotKeys;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;

/**
 * The batch-wide scripts behave exactly as the per-member scripts they replaced (kept as test resources
 * under {@code io/rmq/engine/reference/}): random sequences of sends (with duplicates in a call and copies in
 * flight), pops, commits, rollbacks, releases, extensions, handovers and clock steps run against two slots,
 * one with each set of scripts, and after every step their replies, wake notices and the slots' whole state
 * (every key, every score and field) must be equal.
 *
 * <p>So that both see the same clock, each script's {@code TIME} is replaced by a read of the test's clock
 * (a hash), and so that the notices can be compared, its publish by an {@code RPUSH} to a list of the slot.
 *
 * <p>One rule changed on purpose: the reference's commit woke the consumers for any copy of a committed member
 * pending in the store queue; {@code commit.lua} wakes them for the copies a pop left behind (recorded in the
 * blocked hash, {@code lib/blocked.lua}), since only those can leave a consumer waiting. The commits' notices are
 * therefore left out of the comparison here; {@code CommitScriptIT} and {@code BlockedCopyIT} check them.
 */
@RedisTest
class BatchScriptsEquivalenceIT {

    /** Longer runs: {@code -Drmq.equivalence.seeds=60 -Drmq.equivalence.send-rounds=40000}. */
    private static final int SEEDS = Integer.getInteger("rmq.equivalence.seeds", 6);
    private static final int STEPS = 200;
    private static final int SEND_ROUNDS = Integer.getInteger("rmq.equivalence.send-rounds", 2000);
    /** The hash the scripts read their clock from instead of {@code TIME}: the test's {@link #clock}. */
    private static final String CLOCK = "test-clock";
    /**
     * Members of a sequence: short ones, and long ones with shared prefixes (tied scores order members by
     * their bytes, which send.lua compares eight at a time: they differ before, at and after such a
     * boundary, in a byte above 127, or one is the other's prefix).
     */
    private static final List<String> MEMBERS = List.of("a", "b", "c", "d", "ab", "ba", "a\u0000", "e",
            "member-1234567", "member-12345678", "member-12345679", "member-1234567\u00e9", "member-123456780000000x",
            "member-123456780000000");

    /** How many of {@link #MEMBERS} a sequence uses: few make duplicates within a call and moved heads frequent. */
    private int alphabet;

    private RedisCommands<String, String> sync;
    private long clock;

    @BeforeEach
    void setUp(RedisConnections redis) {
        this.sync = redis.sync();
    }

    @ParameterizedTest
    @EnumSource(TopicType.class)
    void randomSequencesLeaveTheSameStateAndRepliesAsThePerMemberScripts(TopicType type) {
        for (int seed = 0; seed < SEEDS; seed++) {
            Random random = new Random(seed * 31L + type.ordinal());
            clock = 1_700_000_000_000L + random.nextInt(1000);
            alphabet = seed % 2 == 0 ? 3 : MEMBERS.size();
            Slot reference = new Slot("reference/", new TopicKeys(new TopicDefinition("ref" + seed, 1, type)));
            Slot batched = new Slot("scripts/", new TopicKeys(new TopicDefinition("new" + seed, 1, type)));
            for (int step = 0; step < STEPS; step++) {
                Step next = step(random, type);
                String expected = reference.run(next);
                assertThat(expected).as("reply of the reference at step " + step + ": " + next).isNotEqualTo("error");
                String actual = batched.run(next);
                String where = type + " seed " + seed + " step " + step + ": " + next;
                assertThat(actual).as("reply at " + where).isEqualTo(expected);
                assertThat(batched.state()).as("state after " + where).isEqualTo(reference.state());
            }
        }
    }

    /**
     * One send call of many messages on few members, on a store queue and a prepare queue filled at random
     * (scores and ties included), many times over: where a call moves the queue's head forward and back
     * after it looked at it, as sequences rarely do.
     */
    @ParameterizedTest
    @EnumSource(TopicType.class)
    void randomSendCallsOnRandomSlotsGiveTheSameRepliesNoticesAndQueuesAsThePerMemberScript(TopicType type) {
        Random random = new Random(type.ordinal());
        alphabet = 4;
        Slot reference = new Slot("reference/", new TopicKeys(new TopicDefinition("ref", 1, type)));
        Slot batched = new Slot("scripts/", new TopicKeys(new TopicDefinition("new", 1, type)));
        for (int round = 0; round < SEND_ROUNDS; round++) {
            clock = 1_700_000_000_000L + random.nextInt(1000);
            List<Step> setUp = new ArrayList<>();
            for (int i = random.nextInt(5); i > 0; i--) {
                String score = type == TopicType.PRIORITY ? value(random, type) : value(random, TopicType.FIXED_TIME);
                String member = member(random);
                setUp.add(new Step("ZADD", null, k -> List.of(k.store()), List.of(score, member),
                        "pending " + member + " " + score));
            }
            for (int i = random.nextInt(3); i > 0; i--) {
                String member = member(random);
                setUp.add(new Step("ZADD", null, k -> List.of(k.prepare()), List.of("1", member), "in flight " + member));
            }
            List<String> args = new ArrayList<>(List.of(type.name(), "WAKE", "0"));
            for (int i = 1 + random.nextInt(12); i > 0; i--) {
                args.add(random.nextInt(3) == 0 ? extreme(random, type) : value(random, type));
                args.add(member(random));
            }
            Step send = new Step("send.lua", ScriptOutputType.MULTI, k -> List.of(k.store(), k.prepare(), k.counters()),
                    args, "send " + args);
            for (Slot slot : List.of(reference, batched)) {
                sync.del(slot.keys.store(), slot.keys.prepare(), slot.wakes);
                setUp.forEach(slot::run);
            }
            String where = type + " round " + round + ": " + setUp + ", then " + send;
            String expected = reference.run(send);
            assertThat(expected).as("reply of the reference at " + where).isNotEqualTo("error");
            assertThat(batched.run(send)).as("reply at " + where).isEqualTo(expected);
            assertThat(batched.sendState()).as("state after " + where).isEqualTo(reference.sendState());
        }
    }

    /** One script call (or a change made by hand), the same for both slots; keys are picked per slot. */
    record Step(String script, ScriptOutputType output, Function<SlotKeys, List<String>> keys, List<String> args,
            String description) {
        @Override
        public String toString() {
            return description;
        }
    }

    private Step step(Random random, TopicType type) {
        int kind = random.nextInt(100);
        if (kind < 10) {
            clock += random.nextInt(3) == 0 ? 1 : random.nextInt(4000);
            return new Step(null, null, k -> List.of(), List.of(), "clock +" + clock);
        }
        if (kind < 40) {
            List<String> args = new ArrayList<>(List.of(type.name(), "WAKE", "0"));
            int messages = 1 + random.nextInt(random.nextBoolean() ? 3 : 12);
            for (int i = 0; i < messages; i++) {
                args.add(value(random, type));
                args.add(member(random));
            }
            return new Step("send.lua", ScriptOutputType.MULTI, k -> List.of(k.store(), k.prepare(), k.counters()), args,
                    "send " + args);
        }
        if (kind < 55) {
            List<String> args = List.of(type.name(), Integer.toString(random.nextInt(6)), Integer.toString(
                    1000 + random.nextInt(3) * 2000), random.nextInt(5) == 0 ? Integer.toString(random.nextInt(3)) : "0",
                    "worker");
            return new Step("pop.lua", ScriptOutputType.MULTI, k -> List.of(k.store(), k.prepare(), k.attempts(), k.origin(),
                    k.owner(), k.paused(), k.counters()), args, "pop " + args);
        }
        if (kind < 68) {
            List<String> args = new ArrayList<>(List.of("WAKE", "0"));
            args.addAll(members(random));
            return new Step("commit.lua", ScriptOutputType.INTEGER, k -> List.of(k.store(), k.prepare(), k.attempts(),
                    k.origin(), k.owner(), k.failures(), k.counters()), args, "commit " + args);
        }
        if (kind < 80) {
            boolean expired = random.nextInt(3) == 0;
            List<String> args = new ArrayList<>(List.of(type.name(), Integer.toString(random.nextInt(3)), "100", "1500",
                    "WAKE", "0", expired ? "expired" : "members", Integer.toString(random.nextInt(4)), "failed\tby test"));
            if (!expired) {
                args.addAll(members(random));
            }
            return new Step("rollback.lua", ScriptOutputType.MULTI, k -> List.of(k.store(), k.prepare(), k.attempts(),
                    k.origin(), k.dead(), k.owner(), k.failures(), k.counters()), args, "rollback " + args);
        }
        if (kind < 87) {
            List<String> args = new ArrayList<>(List.of("WAKE", "0"));
            for (String member : members(random)) {
                args.add(member);
                args.add(value(random, TopicType.FIXED_TIME));
            }
            return new Step("release.lua", ScriptOutputType.INTEGER, k -> List.of(k.store(), k.prepare(), k.origin(),
                    k.counters()), args, "release " + args);
        }
        if (kind < 91) {
            List<String> args = new ArrayList<>(List.of("2000"));
            args.addAll(members(random));
            return new Step("extend.lua", ScriptOutputType.INTEGER, k -> List.of(k.prepare()), args, "extend " + args);
        }
        if (kind < 96) {
            // a copy in flight, as another consumer's pop leaves it
            String member = member(random);
            String deadline = Long.toString(clock + random.nextInt(4000) - 2000);
            return new Step("ZADD", null, k -> List.of(k.prepare()), List.of(deadline, member),
                    "in flight " + member + " until " + deadline);
        }
        return new Step("HSET", null, k -> List.of(k.owner()), List.of("handover", "1"), "handover pending");
    }

    private String value(Random random, TopicType type) {
        return switch (type) {
            case RANGE_MERGE -> Integer.toString(1 + random.nextInt(5) * 1000);
            case PRIORITY -> random.nextInt(4) == 0 ? "2.5" : Integer.toString(random.nextInt(4));
            case FIXED_TIME -> Long.toString(clock - 3000 + random.nextInt(10) * 1000L);
        };
    }

    /** A value before or after every other: moves a pending duplicate to the head or behind every member. */
    private String extreme(Random random, TopicType type) {
        boolean first = random.nextBoolean();
        return switch (type) {
            case RANGE_MERGE -> first ? "1" : "600000";
            case PRIORITY -> first ? "100" : "-100";
            case FIXED_TIME -> Long.toString(first ? clock - 600_000 : clock + 600_000);
        };
    }

    private String member(Random random) {
        return MEMBERS.get(random.nextInt(alphabet));
    }

    private List<String> members(Random random) {
        List<String> members = new ArrayList<>();
        int n = random.nextInt(5);
        for (int i = 0; i < n; i++) {
            members.add(member(random));
        }
        return members;
    }

    /** One slot run by one set of scripts. */
    private final class Slot {

        private final String scripts;
        private final SlotKeys keys;
        private final String wakes;
        /** The SHA of each script as loaded, its clock and publish (its own, or lib/wake.lua's) replaced. */
        private final Map<String, String> loaded = new java.util.HashMap<>();

        Slot(String scripts, TopicKeys topic) {
            this.scripts = scripts;
            this.keys = topic.slot(0);
            this.wakes = "wakes{" + topic.topic().name() + "}";
        }

        String run(Step step) {
            if (step.script() == null) {
                return "";
            }
            List<String> k = step.keys().apply(keys);
            if (step.script().equals("ZADD")) {
                sync.zadd(k.get(0), Double.parseDouble(step.args().get(0)), step.args().get(1));
                return "";
            }
            if (step.script().equals("HSET")) {
                sync.hset(k.get(0), step.args().get(0), step.args().get(1));
                return "";
            }
            String sha = loaded.computeIfAbsent(step.script(), script -> sync.scriptLoad(source(scripts + script)
                    .replace("redis.call('TIME')", "redis.call('HMGET', '" + CLOCK + "', 'seconds', 'micros')")
                    .replace("redis.call(publishCommand, wakeChannel,", "redis.call('RPUSH', '" + wakes + "',")
                    .replace("redis.call(command, channel,", "redis.call('RPUSH', '" + wakes + "',")));
            sync.hset(CLOCK, Map.of("seconds", Long.toString(clock / 1000), "micros", Long.toString(clock % 1000 * 1000)));
            long noticesBefore = sync.llen(wakes);
            try {
                Object reply = sync.evalsha(sha, step.output(), k.toArray(String[]::new),
                        step.args().stream().map(a -> a.equals("WAKE") ? wakes : a).toArray(String[]::new));
                if (step.script().equals("commit.lua")) {
                    // a commit's notices follow another rule than the reference's (see the class comment)
                    if (noticesBefore == 0) {
                        sync.del(wakes);
                    } else {
                        sync.ltrim(wakes, 0, noticesBefore - 1);
                    }
                }
                if (step.script().equals("pop.lua") && !scripts.startsWith("reference")) {
                    return String.valueOf(asReferencePop((List<?>) reply));
                }
                if (step.script().equals("send.lua")) {
                    return String.valueOf(sendOutcomes((List<?>) reply, step.args()));
                }
                return String.valueOf(reply);
            } catch (RedisCommandExecutionException e) {
                return "error";
            }
        }

        /** What a send changes: the queues, the counters and the notices. */
        List<Object> sendState() {
            return List.of(sync.zrangeWithScores(keys.store(), 0, -1), sync.hgetall(keys.counters()),
                    sync.lrange(wakes, 0, -1));
        }

        /** Every key of the slot and the notices so far, with this slot's key names left out. */
        Map<String, String> state() {
            Map<String, String> state = new TreeMap<>();
            state.put("store", String.valueOf(sync.zrangeWithScores(keys.store(), 0, -1)));
            state.put("prepare", String.valueOf(sync.zrangeWithScores(keys.prepare(), 0, -1)));
            state.put("dead", String.valueOf(sync.zrangeWithScores(keys.dead(), 0, -1)));
            state.put("attempts", String.valueOf(new TreeMap<>(sync.hgetall(keys.attempts()))));
            state.put("origin", String.valueOf(new TreeMap<>(sync.hgetall(keys.origin()))));
            state.put("failures", String.valueOf(new TreeMap<>(sync.hgetall(keys.failures()))));
            state.put("owner", String.valueOf(new TreeMap<>(sync.hgetall(keys.owner()))));
            state.put("counters", String.valueOf(new TreeMap<>(sync.hgetall(keys.counters()))));
            state.put("wakes", String.valueOf(sync.lrange(wakes, 0, -1)));
            return state;
        }
    }

    /**
     * A pop reply in the reference's shape: pop.lua's header has a seventh element, attempts, and the members follow
     * as lists (the members, their scores in runs of equal scores, their failures so far when attempts is 1), the
     * reference's as member, score, attempt, member, ...
     */
    private static List<Object> asReferencePop(List<?> reply) {
        List<Object> shaped = new ArrayList<>(reply.subList(0, 6));
        assertThat(reply.get(6)).as("attempts flag of %s", reply).isIn(0L, 1L);
        if (reply.size() == 7) {
            return shaped;
        }
        assertThat(reply).as("header and five lists").hasSize(12);
        List<?> members = (List<?>) reply.get(7);
        List<?> runs = (List<?>) reply.get(8);
        List<?> failures = Long.valueOf(1L).equals(reply.get(6)) ? (List<?>) reply.get(9) : List.of();
        int i = 0;
        for (int r = 0; r < runs.size(); r += 2) {
            for (long c = 0; c < (Long) runs.get(r + 1); c++, i++) {
                shaped.add(members.get(i));
                shaped.add(runs.get(r));
                Object failed = i < failures.size() ? failures.get(i) : null;
                shaped.add(failed == null ? 1L : Long.parseLong(String.valueOf(failed)) + 1);
            }
        }
        assertThat(i).as("the runs cover the members of %s", reply).isEqualTo(members.size());
        return shaped;
    }

    /**
     * A send reply as each message's status and score (a number): send.lua answers {@code {2, now}} when every message
     * was stored as new (each score is then its value, RANGE_MERGE: now + its value), the reference a pair per message.
     */
    private static List<String> sendOutcomes(List<?> reply, List<String> args) {
        List<String> outcomes = new ArrayList<>();
        if (reply.size() == 2 && Long.valueOf(2L).equals(reply.get(0))) {
            long now = (Long) reply.get(1);
            boolean ranged = args.get(0).equals(TopicType.RANGE_MERGE.name());
            for (int i = 3; i + 1 < args.size(); i += 2) {
                double value = Double.parseDouble(args.get(i));
                outcomes.add("1@" + (ranged ? now + value : value));
            }
            return outcomes;
        }
        for (int i = 0; i + 1 < reply.size(); i += 2) {
            outcomes.add(reply.get(i) + "@" + Double.parseDouble(String.valueOf(reply.get(i + 1))));
        }
        return outcomes;
    }

    /** The script at {@code path}, its includes expanded as the engine expands them. */
    private static String source(String path) {
        int slash = path.lastIndexOf('/') + 1;
        return RedisScript.expand(path.substring(0, slash), path.substring(slash));
    }
}
