package io.rmq.cli;

import static io.rmq.cli.CliRun.rmq;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;

/** {@code rmq operations list | cancel} against a requeue that another run of the tool has under way. */
@RedisTest
class OperationsIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final TopicDefinition SLOW = new TopicDefinition("slow", 1, TopicType.FIXED_TIME, "ops-it:");

    @Test
    void aRequeueOfAnotherRunIsListedAndCancelled(RedisTestServer server, RedisConnections redis) throws Exception {
        String uri = server.uri();
        QueueState.register(uri, SLOW);
        String dead = new TopicKeys(SLOW).slot(0).dead();
        for (int i = 0; i < 30; i++) {
            redis.sync().zadd(dead, i, "slow-" + i);
        }
        CompletableFuture<CliRun> requeue = CompletableFuture.supplyAsync(() -> rmq("--uri", uri, "--key-prefix", "ops-it:",
                "--json", "dead", "requeue", "slow", "--all", "--rate", "2"));
        JsonNode[] listed = new JsonNode[1];
        await().atMost(WAIT).until(() -> {
            CliRun list = rmq("--uri", uri, "--key-prefix", "ops-it:", "--json", "operations", "list");
            listed[0] = list.json().get("operations");
            return list.exitCode() == 0 && listed[0].size() == 1;
        });
        JsonNode operation = listed[0].get(0);
        assertThat(operation.get("user").asText()).startsWith("cli:");
        assertThat(operation.get("action").asText()).isEqualTo("requeuing dead messages");
        assertThat(operation.get("topic").asText()).isEqualTo("slow");
        assertThat(operation.get("what").asText()).isEqualTo("selection: all, at most 2/s");
        assertThat(operation.get("stopping").asBoolean()).isFalse();
        CliRun text = rmq("--uri", uri, "--key-prefix", "ops-it:", "operations", "list");
        assertThat(text.out()).contains("ID", "MOVED", operation.get("id").asText(), "requeuing dead messages");

        CliRun cancel = rmq("--uri", uri, "--key-prefix", "ops-it:", "operations", "cancel", operation.get("id").asText());
        assertThat(cancel.exitCode()).as("%s", cancel).isZero();
        assertThat(cancel.out()).contains("asked requeuing dead messages of topic 'slow'", "to stop");

        CliRun stopped = requeue.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(stopped.exitCode()).as("%s", stopped).isZero();
        long moved = stopped.json().get("count").asLong();
        assertThat(moved).isLessThan(30).isEqualTo(30 - redis.sync().zcard(dead));
        assertThat(rmq("--uri", uri, "--key-prefix", "ops-it:", "operations", "list").out())
                .contains("no requeue or purge is under way");
    }

    @Test
    void cancellingAnUnknownOperationFails(RedisTestServer server) {
        CliRun cancel = rmq("--uri", server.uri(), "operations", "cancel", "no-such-id");
        assertThat(cancel.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(cancel.err()).contains("RMQ-0820 No requeue or purge is under way with id 'no-such-id'");
    }
}
