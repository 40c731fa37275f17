package io.rmq.reliability;

import java.time.Duration;
import java.util.Set;

import io.rmq.engine.RmqEngine;
import io.rmq.engine.schedule.ScheduleRunner;

/**
 * An application instance that runs the schedules recorded for some topics, for {@link ScheduleFleetIT}: started
 * by {@link ConsumerJvm} (its arguments: Redis URI, comma-separated topics, then those it ignores). Prints
 * {@code READY} once it runs them all, and stops (printing {@code STOPPED}) when its standard input closes.
 */
public final class ScheduleMain {

    private ScheduleMain() {
    }

    public static void main(String[] args) throws Exception {
        Set<String> topics = Set.of(args[1].split(","));
        try (RmqEngine engine = new RmqEngine(args[0]).start()) {
            engine.ready().toCompletableFuture().get(Duration.ofSeconds(60).toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
            try (ScheduleRunner runner = engine.runSchedules("", topics)) {
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (runner.running().size() < topics.size() && System.nanoTime() < deadline) {
                    Thread.sleep(20); // the runner reads the registry in the background
                }
                System.out.println("READY");
                while (System.in.read() >= 0) {
                    // runs until its input closes
                }
            }
        }
        System.out.println("STOPPED");
    }
}
