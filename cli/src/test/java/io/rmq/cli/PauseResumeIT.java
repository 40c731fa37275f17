package io.rmq.cli;

import static io.rmq.cli.CliRun.rmq;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.ChannelRecorder;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;

/** {@code rmq pause} and {@code rmq resume}: the pause flag of every slot, which the pop script honours. */
@RedisTest
class PauseResumeIT {

    private static final TopicDefinition ORDERS = new TopicDefinition("orders", 4, TopicType.FIXED_TIME);

    @Test
    void pauseFlagsEverySlotAndResumeClearsThemAndWakesConsumers(RedisTestServer server, RedisConnections redis) {
        try (QueueState state = QueueState.of(server.uri(), ORDERS)) {
            CliRun pause = rmq("--uri", server.uri(), "pause", "orders");
            assertThat(pause.exitCode()).as("%s", pause).isZero();
            assertThat(pause.out()).isEqualTo("paused consumption of topic 'orders' (all 4 slots); producers go on storing"
                    + System.lineSeparator());
            for (int slot = 0; slot < 4; slot++) {
                assertThat(redis.sync().exists(state.keys().slot(slot).paused())).as("slot %d paused", slot).isEqualTo(1);
            }
            assertThat(rmq("--uri", server.uri(), "stats", "orders").out()).startsWith(
                    "topic 'orders': FIXED_TIME, 4 slots, consumption PAUSED");

            ChannelRecorder wake = redis.record(state.keys().wakeChannel());
            CliRun resume = rmq("--uri", server.uri(), "--json", "resume", "orders");
            assertThat(resume.exitCode()).as("%s", resume).isZero();
            JsonNode report = resume.json();
            assertThat(report.get("topic").asText()).isEqualTo("orders");
            assertThat(report.get("slots").asInt()).isEqualTo(4);
            assertThat(report.get("paused").asBoolean()).isFalse();
            for (int slot = 0; slot < 4; slot++) {
                assertThat(redis.sync().exists(state.keys().slot(slot).paused())).as("slot %d paused", slot).isZero();
            }
            assertThat(wake.drain()).containsExactlyInAnyOrder("0:0", "1:0", "2:0", "3:0");
            assertThat(rmq("--uri", server.uri(), "--json", "stats", "orders").json().get("totals").get("pausedSlots").asInt())
                    .isZero();
        }
    }

    @Test
    void pausingTwiceKeepsTheTopicPausedAndTheKeyPrefixIsHonoured(RedisTestServer server, RedisConnections redis) {
        TopicDefinition prefixed = new TopicDefinition("orders", 2, TopicType.PRIORITY, "shop:");
        try (QueueState state = QueueState.of(server.uri(), prefixed)) {
            for (int i = 0; i < 2; i++) {
                CliRun run = rmq("pause", "orders", "--uri", server.uri(), "--key-prefix", "shop:", "--json");
                assertThat(run.exitCode()).as("%s", run).isZero();
                assertThat(run.json().get("paused").asBoolean()).isTrue();
            }
            assertThat(redis.sync().exists(state.keys().slot(0).paused(), state.keys().slot(1).paused())).isEqualTo(2);
            assertThat(state.keys().slot(0).paused()).isEqualTo("paused{shop:orders_0}");
        }
    }
}
