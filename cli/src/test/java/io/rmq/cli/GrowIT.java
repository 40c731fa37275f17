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

/** {@code rmq grow}: a topic's slot amount raised through the admin API, and the amounts it refuses. */
@RedisTest
class GrowIT {

    private static final TopicDefinition ORDERS = new TopicDefinition("orders", 4, TopicType.FIXED_TIME);

    @Test
    void growDoublesUntilTheAmountAndRedisRecordsIt(RedisTestServer server, RedisConnections redis) {
        QueueState.register(server.uri(), ORDERS);

        CliRun grow = rmq("--uri", server.uri(), "grow", "orders", "16");

        assertThat(grow.exitCode()).as("%s", grow).isZero();
        assertThat(grow.out()).isEqualTo("topic 'orders' has 16 slots (had 4)" + System.lineSeparator());
        assertThat(redis.sync().hget("rmq:topics", "orders")).isEqualTo("FIXED_TIME:16");
        assertThat(redis.sync().exists("split:8{orders_3}", "split:16{orders_7}")).isEqualTo(2);

        JsonNode again = rmq("--uri", server.uri(), "--json", "grow", "orders", "32").json();
        assertThat(again.get("topic").asText()).isEqualTo("orders");
        assertThat(again.get("from").asInt()).isEqualTo(16);
        assertThat(again.get("slots").asInt()).isEqualTo(32);
    }

    @Test
    void anAmountThatIsNotALargerPowerOfTwoIsRefused(RedisTestServer server, RedisConnections redis) {
        QueueState.register(server.uri(), ORDERS);

        CliRun same = rmq("--uri", server.uri(), "grow", "orders", "4");
        CliRun odd = rmq("--uri", server.uri(), "grow", "orders", "12");

        assertThat(same.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(same.err()).contains("RMQ-0411 Cannot grow topic 'orders' from 4 to 4 slots");
        assertThat(odd.err()).contains("RMQ-0411 Cannot grow topic 'orders' from 4 to 12 slots");
        assertThat(redis.sync().hget("rmq:topics", "orders")).isEqualTo("FIXED_TIME:4");
    }
}
