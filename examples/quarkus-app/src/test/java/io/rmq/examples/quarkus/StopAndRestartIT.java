package io.rmq.examples.quarkus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.rmq.testing.redis.EmbeddedRedis;

/**
 * Stopping and starting the application, as in a rolling restart: the packaged example is stopped
 * (SIGTERM) while its worker is busy with a task, then started again on the same Redis. The contract
 * suite's {@code LifecycleIT} states the same of an application undeployed and deployed again in a
 * running server, which Quarkus has no equivalent of. Each test has a Redis of its own, given to the
 * application with {@code RMQ_REDIS_URI}, so that it outlives both runs; the worker takes a second per
 * task, highest priority first.
 */
class StopAndRestartIT {

    /** The example's key prefix and its PRIORITY topic "tasks" of one slot (application.properties). */
    private static final String STORE_QUEUE = "rmq-quarkus-example:tasks_0";
    private static final String PREPARE_QUEUE = "prepare{" + STORE_QUEUE + "}";
    private static final Pattern PROCESSED = Pattern.compile("RMQ example: <- tasks: (\\S+) \\(");
    private static final List<String> TASKS = List.of("task-4", "task-3", "task-2", "task-1");

    /** What each of the two runs processed, in order. */
    private record Runs(List<String> first, List<String> second) {
    }

    /**
     * The graceful stop as the README states it: what is in process is finished and committed, nothing
     * waits in the prepare queue, and the next run processes nothing twice.
     */
    @Test
    void aStoppedApplicationCommitsWhatItProcessesAndItsNextRunTakesTheRest() {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            Runs runs = stopWhileBusyAndRestart(redis, "restart-strict");

            assertThat(runs.first()).as("processed in the first run, in priority order").isEqualTo(TASKS.subList(0, runs.first().size()));
            assertThat(runs.second()).as("the rest, and nothing twice").isEqualTo(TASKS.subList(runs.first().size(), TASKS.size()));
            assertThat(redis.command("ZCARD", PREPARE_QUEUE)).isEqualTo("0");
            assertThat(redis.command("ZCARD", STORE_QUEUE)).isEqualTo("0");
        }
    }

    /**
     * What holds in any case: a stop loses nothing, the next run takes the rest, and only a message in
     * process at the stop may be delivered again (once its prepare deadline, shortened here, has passed).
     */
    @Test
    void aStoppedApplicationLosesNothingAndItsNextRunTakesTheRest() {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            Runs runs = stopWhileBusyAndRestart(redis, "restart", "-Dmp.messaging.incoming.tasks.prepare-timeout=2000");

            assertThat(runs.first()).as("processed in the first run, in priority order").isEqualTo(TASKS.subList(0, runs.first().size()));
            List<String> again = new ArrayList<>(runs.second());
            again.retainAll(runs.first());
            assertThat(again).as("processed again: at most the task in process at the stop")
                    .isSubsetOf(runs.first().get(runs.first().size() - 1));
            assertThat(new HashSet<>(runs.second())).as("the rest").containsAll(TASKS.subList(runs.first().size(), TASKS.size()));
            assertThat(redis.command("ZCARD", PREPARE_QUEUE)).isEqualTo("0");
            assertThat(redis.command("ZCARD", STORE_QUEUE)).isEqualTo("0");
        }
    }

    /**
     * Queues the tasks, stops the application once the worker is busy with the first, starts it again and
     * runs it until nothing is left in Redis.
     */
    private static Runs stopWhileBusyAndRestart(EmbeddedRedis redis, String name, String... properties) {
        Map<String, String> ownRedis = Map.of(EmbeddedRedis.EXTERNAL_URI, redis.uri());
        List<String> first;
        try (PackagedApp app = PackagedApp.start(name + "-1", ownRedis, properties).awaitListening()) {
            for (String task : TASKS) {
                String priority = task.substring("task-".length());
                assertThat(app.call("POST", "/api/tasks?priority=" + priority, task).statusCode()).isEqualTo(202);
            }
            await().atMost(PackagedApp.WAIT).until(() -> processed(app).contains(TASKS.get(0)));
            app.stop(); // while the worker is busy with task-4 (or, on a slow machine, a later one)
            first = processed(app);
            assertThat(app.output()).contains("RMQ-1003 Channel 'tasks' stopped");
        }
        try (PackagedApp app = PackagedApp.start(name + "-2", ownRedis, properties).awaitListening()) {
            await().atMost(PackagedApp.WAIT).until(() -> "0".equals(redis.command("ZCARD", STORE_QUEUE))
                    && "0".equals(redis.command("ZCARD", PREPARE_QUEUE))
                    && processed(app).size() + first.size() >= TASKS.size());
            return new Runs(first, processed(app));
        }
    }

    /** The tasks the application's worker received, from its log ({@code ReceivedLog}), in order. */
    private static List<String> processed(PackagedApp app) {
        return PROCESSED.matcher(app.output()).results().map(r -> r.group(1)).toList();
    }
}
