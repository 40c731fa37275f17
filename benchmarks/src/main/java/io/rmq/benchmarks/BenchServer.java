package io.rmq.benchmarks;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import io.rmq.examples.support.ExampleRedis;
import io.rmq.testing.redis.EmbeddedRedis;
import io.rmq.testing.redis.RedisBinary;

/**
 * A Redis the benchmark runs on, as {@code bench.redis} and {@code bench.redis-uri} choose: the one
 * given by URI, {@code redis-server} from the {@code PATH}, or the Redis 6.2 binary that embedded-redis
 * ships. Each is started when the benchmark reaches it, and stopped when its {@link Running} is closed.
 *
 * @param name    what the results call it besides its version, e.g. {@code embedded-redis}
 * @param starter starts (or connects to) the server
 */
record BenchServer(String name, Starter starter) {

    /** Starts a server, or connects to one. */
    interface Starter {
        Running start() throws IOException;
    }

    /** A started server: the programs' connection to it, and the process the benchmark started, if any. */
    record Running(ExampleRedis redis, AutoCloseable process) implements AutoCloseable {

        @Override
        public void close() throws Exception {
            try {
                redis.close();
            } finally {
                if (process != null) {
                    process.close();
                }
            }
        }
    }

    Running start() throws IOException {
        return starter.start();
    }

    /** The servers of {@code settings}, in the order they are measured. */
    static List<BenchServer> of(BenchSettings settings) {
        if (settings.redisUri().isPresent()) {
            return List.of(new BenchServer("external", () -> new Running(ExampleRedis.startOrConnect(settings.redisUri().get()), null)));
        }
        List<BenchServer> servers = new ArrayList<>();
        switch (settings.redis()) {
            case "auto" -> servers.add(new BenchServer(onPath() ? "redis-server from the PATH" : "embedded-redis",
                    () -> new Running(ExampleRedis.startOrConnect(null), null)));
            case "system" -> servers.add(system());
            case "embedded" -> servers.add(embedded());
            case "both" -> {
                servers.add(embedded());
                servers.add(system());
            }
            default -> throw new IllegalArgumentException(BenchSettings.PREFIX + "redis must be one of "
                    + BenchSettings.REDIS_CHOICES + ", was '" + settings.redis() + "'");
        }
        return servers;
    }

    /** {@code redis-server} from the {@code PATH}, which {@link EmbeddedRedis} prefers. */
    private static BenchServer system() {
        if (!onPath()) {
            throw new IllegalArgumentException(BenchSettings.PREFIX + "redis=system (or both) runs redis-server from the"
                    + " PATH, and there is none (Debian: apt-get install redis-server)");
        }
        return new BenchServer("redis-server from the PATH", () -> new Running(ExampleRedis.startOrConnect(null), null));
    }

    /** The Redis 6.2 binary inside embedded-redis, whatever the {@code PATH} holds. */
    private static BenchServer embedded() {
        return new BenchServer("embedded-redis", () -> {
            EmbeddedRedis process = EmbeddedRedis.start(RedisBinary.embedded(), List.of());
            try {
                return new Running(ExampleRedis.startOrConnect(process.uri()), process);
            } catch (RuntimeException e) {
                process.close();
                throw e;
            }
        });
    }

    private static boolean onPath() {
        return RedisBinary.fromPath().isPresent();
    }
}
