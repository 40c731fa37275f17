package io.rmq.cli;

import static io.rmq.cli.CliRun.rmq;
import static io.rmq.cli.QueueState.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.rmq.engine.RmqEngine;
import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.topic.SlotRouter;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.RedisConnections;
import io.rmq.testing.RedisTest;
import io.rmq.testing.RedisTestServer;

/** {@code rmq topics} and {@code rmq stats} against topics built through the engine. */
@RedisTest
class TopicsAndStatsIT {

    private static final TopicDefinition ORDERS = new TopicDefinition("orders", 4, TopicType.FIXED_TIME);

    @Test
    void topicsListsEachRecordedTopicWithItsTypeAndSlots(RedisTestServer redis) {
        QueueState.register(redis.uri(), ORDERS, new TopicDefinition("prices", 1, TopicType.PRIORITY),
                new TopicDefinition("carts", 2, TopicType.RANGE_MERGE, "tenant-a:"));
        CliRun text = rmq("--uri", redis.uri(), "topics");
        assertThat(text.exitCode()).as("%s", text).isZero();
        assertThat(text.out().lines()).containsExactly(
                "TOPIC   TYPE        SLOTS",
                "orders  FIXED_TIME      4",
                "prices  PRIORITY        1");
        assertThat(text.err()).isEmpty();

        // global options after the command's name, and another key prefix
        CliRun json = rmq("topics", "--uri", redis.uri(), "--key-prefix", "tenant-a:", "--json");
        assertThat(json.exitCode()).as("%s", json).isZero();
        JsonNode report = json.json();
        assertThat(report.get("keyPrefix").asText()).isEqualTo("tenant-a:");
        assertThat(report.get("registry").asText()).isEqualTo("tenant-a:rmq:topics");
        assertThat(report.get("topics")).hasSize(1);
        JsonNode carts = report.get("topics").get(0);
        assertThat(carts.get("name").asText()).isEqualTo("carts");
        assertThat(carts.get("type").asText()).isEqualTo("RANGE_MERGE");
        assertThat(carts.get("slotAmount").asInt()).isEqualTo(2);
    }

    @Test
    void topicsSaysSoWhenNoTopicIsRecorded(RedisTestServer redis) {
        CliRun run = rmq("--uri", redis.uri(), "topics");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEqualTo("no topic is recorded in hash 'rmq:topics'" + System.lineSeparator());
        assertThat(rmq("--uri", redis.uri(), "--json", "topics").json().get("topics")).isEmpty();
    }

    @Test
    void statsShowsEachSlotAndTheTotals(RedisTestServer redis) throws Exception {
        try (QueueState state = QueueState.of(redis.uri(), ORDERS);
                RmqEngine engine = new RmqEngine(redis.uri()).start();
                RmqAdmin admin = RmqAdmin.connect(redis.uri())) {
            state.killed("boom", "dead-1", "dead-2");
            BlockingQueue<Delivery> held = new LinkedBlockingQueue<>();
            TopicConsumer consumer = engine.consumer(state.keys(),
                    ConsumerOptions.builder().batchSize(1).shutdownTimeout(Duration.ofMillis(200)).build(), "holder");
            consumer.start(held::add);
            consumer.request(1);
            state.sendAt("held", Instant.now(), null);
            Delivery inFlight = held.poll(20, TimeUnit.SECONDS);
            assertThat(inFlight).as("the delivery to hold").isNotNull();
            admin.pause(ORDERS);
            state.sendAt("late", Instant.now().minusSeconds(5), null);
            state.sendAt("later", Instant.now().plus(Duration.ofHours(1)), null);

            CliRun json = rmq("--uri", redis.uri(), "stats", "orders", "--json");
            CliRun text = rmq("--uri", redis.uri(), "stats", "orders");
            inFlight.commit();
            consumer.close();

            assertThat(json.exitCode()).as("%s", json).isZero();
            JsonNode report = json.json();
            assertThat(report.get("topic").asText()).isEqualTo("orders");
            assertThat(report.get("type").asText()).isEqualTo("FIXED_TIME");
            assertThat(report.get("slotAmount").asInt()).isEqualTo(4);
            assertThat(report.get("keyPrefix").asText()).isEmpty();
            JsonNode totals = report.get("totals");
            assertThat(totals.get("pending").asLong()).isEqualTo(2);
            assertThat(totals.get("due").asLong()).isEqualTo(1);
            assertThat(totals.get("oldestDueAgeMillis").asLong()).as("ms since 'late' became due").isGreaterThanOrEqualTo(4_000);
            assertThat(totals.get("inFlight").asLong()).isEqualTo(1);
            assertThat(totals.get("dead").asLong()).isEqualTo(2);
            assertThat(totals.get("paused").asBoolean()).isTrue();
            assertThat(totals.get("pausedSlots").asInt()).isEqualTo(4);

            JsonNode slots = report.get("slots");
            assertThat(slots).hasSize(4);
            for (int slot = 0; slot < 4; slot++) {
                JsonNode s = slots.get(slot);
                assertThat(s.get("slot").asInt()).isEqualTo(slot);
                assertThat(s.get("pending").asLong()).as("pending in slot %d", slot).isEqualTo(count(slot, "late", "later"));
                assertThat(s.get("due").asLong()).as("due in slot %d", slot).isEqualTo(count(slot, "late"));
                assertThat(s.get("inFlight").asLong()).as("in flight in slot %d", slot).isEqualTo(count(slot, "held"));
                assertThat(s.get("dead").asLong()).as("dead in slot %d", slot).isEqualTo(count(slot, "dead-1", "dead-2"));
                assertThat(s.get("paused").asBoolean()).isTrue();
                assertThat(s.get("owner").isNull()).as("no owner without coordination").isTrue();
            }

            assertThat(text.exitCode()).as("%s", text).isZero();
            assertThat(text.out().lines().toList()).hasSize(2 + 4 + 1);
            assertThat(text.out().lines().findFirst()).hasValue("topic 'orders': FIXED_TIME, 4 slots, consumption PAUSED");
            assertThat(text.out().lines().skip(1).findFirst().orElseThrow().trim().split("\\s{2,}"))
                    .containsExactly("SLOT", "PENDING", "DUE", "OLDEST DUE", "IN FLIGHT", "DEAD", "PAUSED", "OWNER", "EPOCH", "SINCE");
            String lateSlotRow = text.out().lines().skip(2 + slotOf("late")).findFirst().orElseThrow();
            assertThat(lateSlotRow.trim()).startsWith(slotOf("late") + " ").matches(".* \\d+\\.\\ds .*").contains("yes");
            assertThat(text.out().lines().reduce((a, b) -> b).orElseThrow().trim().split("\\s+"))
                    .as("the totals row").startsWith("total", "2", "1").endsWith("1", "2", "4/4");
        }
    }

    @Test
    void statsShowsTheOwnerOfASlotUnderSerialConsumption(RedisTestServer redis, RedisConnections connections) {
        try (QueueState state = QueueState.of(redis.uri(), ORDERS)) {
            // what the pop script of a coordinated consumer records (ZooKeeper coordination is not this test's subject)
            Instant since = Instant.parse("2025-06-01T10:15:30.250Z");
            connections.sync().hset(state.keys().slot(1).owner(), Map.of(
                    "worker", "orders-consumer@host-1:4242#a1b2", "epoch", "7", "since", Long.toString(since.toEpochMilli())));

            CliRun text = rmq("--uri", redis.uri(), "stats", "orders");
            assertThat(text.exitCode()).as("%s", text).isZero();
            assertThat(text.out()).contains("consumption running");
            String row = text.out().lines().skip(3).findFirst().orElseThrow();
            assertThat(row.trim().split("\\s+")).startsWith("1").endsWith("no", "orders-consumer@host-1:4242#a1b2", "7",
                    "2025-06-01T10:15:30.250Z");

            JsonNode owner = rmq("--uri", redis.uri(), "stats", "orders", "--json").json().get("slots").get(1).get("owner");
            assertThat(owner.get("worker").asText()).isEqualTo("orders-consumer@host-1:4242#a1b2");
            assertThat(owner.get("epoch").asLong()).isEqualTo(7);
            assertThat(owner.get("since").asText()).isEqualTo("2025-06-01T10:15:30.250Z");
        }
    }

    private static long count(int slot, String... contents) {
        return java.util.Arrays.stream(contents).filter(c -> slotOf(c) == slot).count();
    }

    private static int slotOf(String content) {
        return SlotRouter.slotOf(null, bytes(content), ORDERS.slotAmount());
    }
}
