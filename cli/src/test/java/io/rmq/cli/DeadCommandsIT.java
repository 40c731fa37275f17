package io.rmq.cli;

import static io.rmq.cli.CliRun.rmq;
import static io.rmq.cli.QueueState.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.ScoredValue;
import io.rmq.engine.topic.SlotKeys;
import io.rmq.engine.topic.SlotRouter;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;

/** {@code rmq dead list | requeue | purge} against messages that died through the engine. */
@RedisTest
class DeadCommandsIT {

    private static final TopicDefinition ORDERS = new TopicDefinition("orders", 4, TopicType.FIXED_TIME);
    /** Not UTF-8 (0xff), with a control character and a line break. */
    private static final byte[] BINARY = {'b', 'i', 'n', 0x01, (byte) 0xff, '\n'};

    private String uri;
    private RedisConnections redis;
    private QueueState state;

    @BeforeEach
    void setUp(RedisTestServer server, RedisConnections connections) {
        uri = server.uri();
        redis = connections;
        state = QueueState.of(uri, ORDERS);
    }

    @AfterEach
    void tearDown() {
        state.close();
    }

    @Test
    void listShowsEachDeadMessageWithItsSlotDeathDeliveriesFailureAndContent() {
        Instant before = Instant.now();
        state.killed("boom", "close:1", "close:2");
        state.killed("bad bytes", List.of(BINARY));

        CliRun json = rmq("--uri", uri, "--json", "dead", "list", "orders");
        assertThat(json.exitCode()).as("%s", json).isZero();
        JsonNode page = json.json();
        assertThat(page.get("topic").asText()).isEqualTo("orders");
        assertThat(page.get("cursor").asText()).isEqualTo("0:0");
        assertThat(page.get("next").isNull()).as("a single page").isTrue();
        assertThat(page.get("messages")).hasSize(3);
        List<byte[]> contents = new ArrayList<>();
        int previousSlot = 0;
        for (JsonNode m : page.get("messages")) {
            byte[] content = Base64.getDecoder().decode(m.get("contentBase64").asText());
            contents.add(content);
            assertThat(m.get("slot").asInt()).as("slot after slot").isEqualTo(SlotRouter.slotOf(content, 4))
                    .isGreaterThanOrEqualTo(previousSlot);
            previousSlot = m.get("slot").asInt();
            assertThat(m.get("deliveries").asInt()).isEqualTo(1);
            assertThat(Instant.parse(m.get("diedAt").asText())).isAfter(before.minusSeconds(60)).isBefore(Instant.now().plusSeconds(60));
            if (content.length == BINARY.length && content[4] == (byte) 0xff) {
                assertThat(m.get("contentUtf8").isNull()).as("not UTF-8").isTrue();
                assertThat(m.get("lastFailure").asText()).startsWith("java.lang.IllegalStateException: bad bytes bin");
            } else {
                String text = new String(content, StandardCharsets.UTF_8);
                assertThat(m.get("contentUtf8").asText()).isEqualTo(text);
                assertThat(m.get("lastFailure").asText()).isEqualTo("java.lang.IllegalStateException: boom " + text);
            }
        }
        assertThat(contents).containsExactlyInAnyOrder(bytes("close:1"), bytes("close:2"), BINARY);

        CliRun text = rmq("--uri", uri, "dead", "list", "orders");
        assertThat(text.exitCode()).as("%s", text).isZero();
        List<String> lines = text.out().lines().toList();
        assertThat(lines).hasSize(1 + 1 + 3 + 1);
        assertThat(lines.get(0)).isEqualTo("dead messages of topic 'orders' from cursor 0:0:");
        assertThat(lines.get(1).trim().split("\\s{2,}")).containsExactly("SLOT", "DIED AT (UTC)", "DELIVERIES", "CONTENT", "LAST FAILURE");
        List<List<String>> rows = lines.subList(2, 5).stream().map(l -> List.of(l.trim().split("\\s{2,}"))).toList();
        assertThat(rows).anySatisfy(row -> assertThat(row).satisfiesExactly(
                slot -> assertThat(slot).isEqualTo(String.valueOf(SlotRouter.slotOf(bytes("close:1"), 4))),
                diedAt -> assertThat(Instant.parse(diedAt)).isNotNull(),
                deliveries -> assertThat(deliveries).isEqualTo("1"),
                content -> assertThat(content).isEqualTo("close:1"),
                failure -> assertThat(failure).isEqualTo("java.lang.IllegalStateException: boom close:1")));
        assertThat(rows).as("binary content escaped byte by byte, on one line")
                .anySatisfy(row -> assertThat(row.get(3)).isEqualTo("bin\\u0001\\xff\\n"));
        assertThat(lines.get(lines.size() - 1)).isEqualTo("(end of the dead queues)");
    }

    @Test
    void pagesWalkEveryDeadMessageOnceFollowingTheCursor() {
        List<String> killed = List.of("m-1", "m-2", "m-3", "m-4", "m-5");
        state.killed("boom", killed.toArray(String[]::new));

        List<String> seen = new ArrayList<>();
        String cursor = "0:0";
        int pages = 0;
        while (cursor != null) {
            CliRun run = rmq("--uri", uri, "--json", "dead", "list", "orders", "--limit", "2", "--cursor", cursor);
            assertThat(run.exitCode()).as("%s", run).isZero();
            JsonNode page = run.json();
            page.get("messages").forEach(m -> seen.add(m.get("contentUtf8").asText()));
            cursor = page.get("next").isNull() ? null : page.get("next").asText();
            assertThat(++pages).as("pages").isLessThanOrEqualTo(3);
        }
        assertThat(seen).containsExactlyInAnyOrderElementsOf(killed);

        CliRun text = rmq("--uri", uri, "dead", "list", "orders", "--limit", "2");
        assertThat(text.out().lines().reduce((a, b) -> b).orElseThrow()).matches("next page: --cursor \\d+:\\d+");
    }

    @Test
    void requeueAllPutsThemBackDueNowWithAFreshStart() {
        state.killed("boom", "close:1", "close:2", "close:3");

        CliRun run = rmq("--uri", uri, "dead", "requeue", "orders", "--all");
        assertThat(run.exitCode()).as("%s", run).isZero();
        assertThat(run.out()).isEqualTo("requeued 3 dead messages of topic 'orders' (selection: all, at most 100/s)"
                + System.lineSeparator());
        assertThat(deadMembers()).isEmpty();
        long now = redis.redisTimeMillis();
        for (String member : List.of("close:1", "close:2", "close:3")) {
            SlotKeys slot = slotOf(member);
            assertThat(redis.sync().zscore(slot.store(), member)).as("due time of %s", member).isNotNull().isLessThanOrEqualTo(now);
            assertThat(redis.sync().hexists(slot.attempts(), member)).as("attempts of %s", member).isFalse();
            assertThat(redis.sync().hexists(slot.failures(), member)).as("failure of %s", member).isFalse();
        }
    }

    @Test
    void requeueByMemberAsTextOrBase64TakesOnlyThose() {
        state.killed("boom", "close:1", "close:2");
        state.killed("bad bytes", List.of(BINARY));

        CliRun byText = rmq("--uri", uri, "dead", "requeue", "orders", "--member", "close:1", "--member", "not-dead");
        assertThat(byText.exitCode()).as("%s", byText).isZero();
        assertThat(byText.out()).startsWith("requeued 1 dead message of topic 'orders' (selection: 2 members");

        CliRun byBase64 = rmq("--uri", uri, "--json", "dead", "requeue", "orders",
                "--member-base64", Base64.getEncoder().encodeToString(BINARY), "--rate", "10");
        assertThat(byBase64.exitCode()).as("%s", byBase64).isZero();
        JsonNode report = byBase64.json();
        assertThat(report.get("topic").asText()).isEqualTo("orders");
        assertThat(report.get("action").asText()).isEqualTo("requeue");
        assertThat(report.get("selection").asText()).isEqualTo("1 member");
        assertThat(report.get("dryRun").asBoolean()).isFalse();
        assertThat(report.get("count").asLong()).isEqualTo(1);
        assertThat(report.get("ratePerSecond").asInt()).isEqualTo(10);

        assertThat(deadMembers()).containsExactly("close:2");
        assertThat(redis.binary().sync().zscore(QueueState.bytes(slotOf(BINARY).store()), BINARY)).isNotNull();
        assertThat(redis.sync().zscore(slotOf("close:1").store(), "close:1")).isNotNull();
    }

    @Test
    void requeueOlderThanSelectsByTimeOfDeath() {
        state.killed("boom", "old");
        double oldDeath = redis.sync().zscore(slotOf("old").dead(), "old");
        awaitRedisClockPast((long) oldDeath);
        state.killed("boom", "new");
        Instant bound = Instant.ofEpochMilli((long) oldDeath + 1);

        CliRun dryRun = rmq("--uri", uri, "dead", "requeue", "orders", "--older-than", "1h", "--dry-run");
        assertThat(dryRun.exitCode()).as("%s", dryRun).isZero();
        assertThat(dryRun.out()).startsWith("dry run: 0 dead messages of topic 'orders' would be requeued (selection: died before ");

        CliRun run = rmq("--uri", uri, "dead", "requeue", "orders", "--older-than", bound.toString());
        assertThat(run.exitCode()).as("%s", run).isZero();
        assertThat(run.out()).isEqualTo("requeued 1 dead message of topic 'orders' (selection: died before " + bound
                + ", at most 100/s)" + System.lineSeparator());
        assertThat(deadMembers()).containsExactly("new");
    }

    @Test
    void dryRunsCountTheSelectionAndChangeNothing() {
        state.killed("boom", "keep-1", "drop-1", "drop-2");

        CliRun requeue = rmq("--uri", uri, "dead", "requeue", "orders", "--contains", "drop", "--dry-run");
        assertThat(requeue.exitCode()).as("%s", requeue).isZero();
        assertThat(requeue.out()).isEqualTo("dry run: 2 dead messages of topic 'orders' would be requeued (selection: content"
                + " contains 'drop'); nothing changed" + System.lineSeparator());
        CliRun purge = rmq("--uri", uri, "--json", "dead", "purge", "orders", "--all", "--dry-run");
        assertThat(purge.json().get("dryRun").asBoolean()).isTrue();
        assertThat(purge.json().get("count").asLong()).isEqualTo(3);
        assertThat(purge.json().get("ratePerSecond").isNull()).isTrue();

        assertThat(deadMembers()).containsExactlyInAnyOrder("keep-1", "drop-1", "drop-2");
        assertThat(redis.sync().keys("orders_*")).as("store queues").isEmpty();
    }

    @Test
    void purgeDeletesTheSelectionAndWhatIsRecordedAboutIt() {
        state.killed("boom", "keep-1", "drop-1", "drop-2");

        CliRun run = rmq("--uri", uri, "dead", "purge", "orders", "--contains", "drop");
        assertThat(run.exitCode()).as("%s", run).isZero();
        assertThat(run.out()).isEqualTo("purged 2 dead messages of topic 'orders' (selection: content contains 'drop')"
                + System.lineSeparator());
        assertThat(deadMembers()).containsExactly("keep-1");
        for (String member : List.of("drop-1", "drop-2")) {
            assertThat(redis.sync().hexists(slotOf(member).failures(), member)).as("failure of %s", member).isFalse();
            assertThat(redis.sync().zscore(slotOf(member).store(), member)).as("%s requeued", member).isNull();
        }
        assertThat(redis.sync().hexists(slotOf("keep-1").failures(), "keep-1")).isTrue();
    }

    /** Every member of the topic's dead queues, as UTF-8 text. */
    private List<String> deadMembers() {
        List<String> members = new ArrayList<>();
        for (int slot = 0; slot < ORDERS.slotAmount(); slot++) {
            for (ScoredValue<String> v : redis.sync().zrangeWithScores(state.keys().slot(slot).dead(), 0, -1)) {
                members.add(v.getValue());
            }
        }
        return members;
    }

    private SlotKeys slotOf(String content) {
        return slotOf(bytes(content));
    }

    private SlotKeys slotOf(byte[] content) {
        return state.keys().slot(SlotRouter.slotOf(content, ORDERS.slotAmount()));
    }

    /** Waits (on Redis's clock, the one that stamps deaths) until it is past {@code millis}. */
    private void awaitRedisClockPast(long millis) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (redis.redisTimeMillis() <= millis) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the Redis clock did not pass " + millis);
            }
            Thread.onSpinWait();
        }
    }
}
