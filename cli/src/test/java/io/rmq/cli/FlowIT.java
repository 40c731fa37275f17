package io.rmq.cli;

import static io.rmq.cli.CliRun.rmq;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;

/** {@code rmq flow show|set|remove|weight}: a topic's flow hash, changed live. */
@RedisTest
class FlowIT {

    private static final TopicDefinition ORDERS = new TopicDefinition("flow-orders", 2, TopicType.PRIORITY);
    private static final TopicDefinition BAD = new TopicDefinition("flow-bad", 2, TopicType.PRIORITY);

    @Test
    void setsShowsWeighsAndRemoves(RedisTestServer server, RedisConnections redis) {
        try (QueueState state = QueueState.of(server.uri(), ORDERS)) {
            String flow = state.keys().flow();
            CliRun set = rmq("--uri", server.uri(), "flow", "set", "flow-orders", "--rate", "500/s", "--burst", "50",
                    "--key-concurrency", "2", "--key-rate", "50/s", "--fair", "on", "--aging", "1/10s", "--adaptive", "on",
                    "--adaptive-threshold", "0.4", "--adaptive-floor", "5/s");
            assertThat(set.exitCode()).as("%s", set).isZero();
            assertThat(set.out()).startsWith("changed: flow settings of topic 'flow-orders' (generation 1)")
                    .contains("rate limit      500/s, burst 50").contains("per key         concurrency 2, rate 50/s")
                    .contains("priority aging  1/10s").contains("adaptive        on, threshold 0.4, floor 5/s");
            assertThat(redis.sync().hgetall(flow)).containsEntry("rate", "500").containsEntry("key.conc", "2")
                    .containsEntry("fair", "on").containsEntry("aging.pace", "0.0001").containsEntry("a.on", "1");

            CliRun weight = rmq("--uri", server.uri(), "flow", "weight", "flow-orders", "acme", "3");
            assertThat(weight.exitCode()).as("%s", weight).isZero();
            assertThat(weight.out()).contains("fair share      on; weights acme=3, others 1");

            JsonNode shown = rmq("--uri", server.uri(), "--json", "flow", "show", "flow-orders").json();
            assertThat(shown.get("gen").asLong()).isEqualTo(2);
            assertThat(shown.get("rate").asText()).isEqualTo("500/s");
            assertThat(shown.get("weights").get("acme").asDouble()).isEqualTo(3);
            assertThat(shown.get("aging").asText()).isEqualTo("1/10s");
            assertThat(shown.get("action").isNull()).isTrue();

            assertThat(rmq("--uri", server.uri(), "flow", "remove", "flow-orders", "weight:acme").exitCode()).isZero();
            CliRun removed = rmq("--uri", server.uri(), "flow", "remove", "flow-orders", "rate");
            assertThat(removed.out()).contains("rate limit      none");
            assertThat(redis.sync().hgetall(flow)).doesNotContainKeys("rate", "burst", "w:acme").containsEntry("gen", "4");
        }
    }

    @Test
    void badValuesAreUsageErrorsThatChangeNothing(RedisTestServer server, RedisConnections redis) {
        try (QueueState state = QueueState.of(server.uri(), BAD)) {
            CliRun rate = rmq("--uri", server.uri(), "flow", "set", "flow-bad", "--rate", "fast");
            assertThat(rate.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(rate.err()).contains("RMQ-0675 Flow setting '--rate' cannot be 'fast'");
            assertThat(rmq("--uri", server.uri(), "flow", "set", "flow-bad", "--key-concurrency", "0").err())
                    .contains("RMQ-0675 Flow setting 'key.conc' cannot be '0'");
            assertThat(rmq("--uri", server.uri(), "flow", "set", "flow-bad", "--fair", "yes").err())
                    .contains("RMQ-0831 --fair must be on or off, was 'yes'");
            assertThat(rmq("--uri", server.uri(), "flow", "set", "flow-bad").err()).contains("RMQ-0830");
            assertThat(rmq("--uri", server.uri(), "flow", "remove", "flow-bad", "speed").err()).contains("RMQ-0832");
            assertThat(rmq("--uri", server.uri(), "flow", "weight", "flow-bad", "acme", "-1").err()).contains("RMQ-0833");
            assertThat(redis.sync().exists(state.keys().flow())).isZero();

            CliRun unknown = rmq("--uri", server.uri(), "flow", "show", "no-such-topic");
            assertThat(unknown.exitCode()).isEqualTo(ExitCodes.FAILED);
            assertThat(unknown.err()).contains("RMQ-0312");
        }
    }
}
