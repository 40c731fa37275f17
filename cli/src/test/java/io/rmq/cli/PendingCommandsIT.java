package io.rmq.cli;

import static io.rmq.cli.CliRun.rmq;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import io.rmq.engine.scripts.SendResult;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.ChannelRecorder;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;

/** {@code rmq pending remove | due-now} on messages a producer sent. */
@RedisTest
class PendingCommandsIT {

    private static final TopicDefinition ORDERS = new TopicDefinition("orders", 16, TopicType.FIXED_TIME);
    private static final Instant IN_AN_HOUR = Instant.now().plus(Duration.ofHours(1));

    @Test
    void removeDeletesAPendingMessageFromTheSlotOfItsContentOrOfItsSlotBasis(RedisTestServer server,
            RedisConnections redis) {
        try (QueueState state = QueueState.of(server.uri(), ORDERS)) {
            SendResult byContent = state.sendAt("close:1", IN_AN_HOUR, null);
            SendResult byBasis = state.sendAt("close:2", IN_AN_HOUR, "order-2");

            CliRun run = rmq("--uri", server.uri(), "pending", "remove", "orders", "close:1");
            assertThat(run.exitCode()).as("%s", run).isZero();
            assertThat(run.out()).isEqualTo("removed 'close:1' from slot " + byContent.slot() + " of topic 'orders'"
                    + System.lineSeparator());
            assertThat(redis.sync().zscore(state.keys().slot(byContent.slot()).store(), "close:1")).isNull();

            CliRun withBasis = rmq("--uri", server.uri(), "--json", "pending", "remove", "orders", "close:2",
                    "--slot-basis", "order-2");
            assertThat(withBasis.exitCode()).as("%s", withBasis).isZero();
            JsonNode report = withBasis.json();
            assertThat(report.get("topic").asText()).isEqualTo("orders");
            assertThat(report.get("action").asText()).isEqualTo("remove");
            assertThat(report.get("slot").asInt()).isEqualTo(byBasis.slot());
            assertThat(report.get("pending").asBoolean()).isTrue();
            assertThat(report.get("member").asText()).isEqualTo("close:2");
            assertThat(redis.sync().zcard(state.keys().slot(byBasis.slot()).store())).isZero();
        }
    }

    @Test
    void aMessageThatIsNotPendingChangesNothingAndExitsWithThree(RedisTestServer server, RedisConnections redis) {
        try (QueueState state = QueueState.of(server.uri(), ORDERS)) {
            SendResult sent = state.sendAt("close:1", IN_AN_HOUR, "order-1");
            state.killed("boom", "close:9");

            for (List<String> args : List.of(
                    List.of("pending", "remove", "orders", "close:1"), // sent with a slot basis: another slot
                    List.of("pending", "due-now", "orders", "close:1"),
                    List.of("pending", "remove", "orders", "close:9"))) { // dead, not pending
                CliRun run = rmq(concat(List.of("--uri", server.uri()), args));
                assertThat(run.exitCode()).as("%s", run).isEqualTo(ExitCodes.NOT_PENDING);
                assertThat(run.out()).contains("is not pending in slot").contains("nothing changed");
            }
            CliRun json = rmq("--uri", server.uri(), "--json", "pending", "due-now", "orders", "close:1");
            assertThat(json.exitCode()).isEqualTo(ExitCodes.NOT_PENDING);
            assertThat(json.json().get("pending").asBoolean()).isFalse();

            assertThat(redis.sync().zscore(state.keys().slot(sent.slot()).store(), "close:1")).isEqualTo(sent.score());
            assertThat(redis.sync().zscore(state.keys().slot(
                    io.rmq.engine.topic.SlotRouter.slotOf(QueueState.bytes("close:9"), 16)).dead(), "close:9")).isNotNull();
        }
    }

    @Test
    void dueNowMakesAScheduledMessageDueAndWakesConsumers(RedisTestServer server, RedisConnections redis) {
        try (QueueState state = QueueState.of(server.uri(), ORDERS)) {
            SendResult sent = state.sendAt("close:1", IN_AN_HOUR, "order-1");
            ChannelRecorder wake = redis.record(state.keys().wakeChannel());

            CliRun run = rmq("--uri", server.uri(), "pending", "due-now", "orders", "close:1", "--slot-basis", "order-1");
            assertThat(run.exitCode()).as("%s", run).isZero();
            assertThat(run.out()).isEqualTo("'close:1' is due now in slot " + sent.slot() + " of topic 'orders'"
                    + System.lineSeparator());
            assertThat(redis.sync().zscore(state.keys().slot(sent.slot()).store(), "close:1"))
                    .isLessThanOrEqualTo(redis.redisTimeMillis());
            assertThat(wake.drain()).containsExactly(sent.slot() + ":0");
        }
    }

    @Test
    void dueNowPutsAPriorityMessageFirstOfItsSlot(RedisTestServer server, RedisConnections redis) {
        try (QueueState state = QueueState.of(server.uri(), new TopicDefinition("jobs", 1, TopicType.PRIORITY))) {
            state.sendWithPriority("urgent", 10, null);
            state.sendWithPriority("routine", 1, null);

            CliRun run = rmq("--uri", server.uri(), "pending", "due-now", "jobs", "routine");
            assertThat(run.exitCode()).as("%s", run).isZero();
            assertThat(redis.sync().zrevrange(state.keys().slot(0).store(), 0, -1)).containsExactly("routine", "urgent");
        }
    }

    @Test
    void aBinaryMemberIsGivenInBase64(RedisTestServer server, RedisConnections redis) {
        byte[] binary = {0x00, (byte) 0xfe, 'x'};
        try (QueueState state = QueueState.of(server.uri(), ORDERS)) {
            SendResult sent = state.sendAt(binary, IN_AN_HOUR, null);

            CliRun run = rmq("--uri", server.uri(), "pending", "remove", "orders", "--base64",
                    Base64.getEncoder().encodeToString(binary));
            assertThat(run.exitCode()).as("%s", run).isZero();
            assertThat(run.out()).startsWith("removed '\\u0000\\xfex' from slot " + sent.slot());
            assertThat(redis.binary().sync().zcard(QueueState.bytes(state.keys().slot(sent.slot()).store()))).isZero();
        }
    }

    private static String[] concat(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toArray(String[]::new);
    }
}
