package io.rmq.testing.redis;

import static org.awaitility.Awaitility.await;

import java.time.Duration;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;

/**
 * Measures what clients cost a Redis of the test's own while they idle: the growth of
 * {@code total_commands_processed} ({@code INFO stats}; commands run inside scripts count one each) over a
 * window, less the test's own {@code INFO} call, per second.
 */
public final class IdleCost {

    private IdleCost() {
    }

    /**
     * Waits {@code settle}, then counts the commands Redis processes during {@code window}; prints
     * {@code IDLE COST <what>: ...}.
     *
     * @return commands per second
     */
    public static double measure(RedisProcess redis, Duration settle, Duration window, String what) {
        RedisClient client = RedisClient.create(RedisURI.create("redis://" + redis.address()));
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            long start = System.nanoTime();
            await().pollDelay(settle).atMost(settle.plusSeconds(5)).until(() -> true);
            long before = processed(c);
            long from = System.nanoTime();
            await().pollDelay(window).atMost(window.plusSeconds(5)).until(() -> true);
            long after = processed(c);
            String clients = c.sync().clientList();
            String commandStats = c.sync().info("commandstats");
            double seconds = (System.nanoTime() - from) / 1e9;
            long commands = after - before - 1; // the first INFO is counted by the second reading
            double perSecond = commands / seconds;
            System.out.printf("IDLE COST %s: %d commands in %.1f s = %.2f per second (after %.0f s of settling)%n",
                    what, commands, seconds, perSecond, (from - start) / 1e9);
            System.out.println("IDLE COST clients:\n" + clients + "IDLE COST " + commandStats);
            return perSecond;
        } finally {
            client.shutdown();
        }
    }

    private static long processed(StatefulRedisConnection<String, String> c) {
        for (String line : c.sync().info("stats").split("\r?\n")) {
            if (line.startsWith("total_commands_processed:")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        throw new IllegalStateException("INFO stats without total_commands_processed");
    }
}
