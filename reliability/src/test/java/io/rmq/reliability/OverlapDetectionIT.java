package io.rmq.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rmq.engine.RmqEngine;
import io.rmq.testing.redis.RedisProcess;

/**
 * The checker's overlap detection against real consumers: without coordination, competing consumers
 * do process one key's messages at the same time, and the checker sees it. This is what makes "no
 * overlap" in the coordinated scenarios ({@link ZooKeeperFaultIT}) mean something.
 */
class OverlapDetectionIT {

    @Test
    void competingConsumersWithoutCoordinationOverlap(@TempDir Path dir) throws Exception {
        try (RedisProcess redis = RedisProcess.start(dir, List.of(), false);
                Scenario scenario = new Scenario("competing consumers", redis.uri());
                RmqEngine engine = new RmqEngine(redis.uri()).start()) {
            engine.registerTopic(scenario.topic).toCompletableFuture().join();
            try (RecordingConsumer a = consumer(engine, scenario, "a"); RecordingConsumer b = consumer(engine, scenario, "b")) {
                scenario.send(2_000, 4, 2_000).await(5);
                scenario.awaitDrained();
            }
            Verdict verdict = scenario.verdict(true);
            assertThat(verdict.lost()).isEmpty();
            assertThat(verdict.overlaps()).as("one key's messages processed at once by competing consumers").isNotEmpty();
        }
    }

    private static RecordingConsumer consumer(RmqEngine engine, Scenario scenario, String name) {
        return new RecordingConsumer(engine, scenario.keys, Scenario.consumerOptions(Duration.ofSeconds(5)).build(), name,
                (id, key, attempt, start) -> scenario.history.delivered(id, key, attempt, name, start), 1_000, 2).start();
    }
}
