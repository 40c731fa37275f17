package io.rmq.cdi;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import io.rmq.testing.redis.RedisTestServer;

/**
 * What an application may leave behind in the JVM and in Redis: the threads of the connector
 * ({@code rmq-...}) and of Lettuce ({@code lettuce-...}), and Redis client connections.
 *
 * <p>Redis is queried over a plain socket ({@link RedisTestServer#command}), so that checking starts no
 * Lettuce thread and opens no connection that would have to be told apart from the application's.
 * Take a {@link #snapshot} before the application starts: threads that existed before (the test
 * support's own Lettuce threads, say) are not leftovers. Stateless.
 */
final class Leftovers {

    private Leftovers() {
    }

    /** The connector's and Lettuce's threads alive now. */
    static Set<Thread> snapshot() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && (t.getName().startsWith("rmq-") || t.getName().startsWith("lettuce-")))
                .collect(Collectors.toSet());
    }

    /** The names of the connector's and Lettuce's threads alive now that are not in {@code before}. */
    static List<String> newThreads(Set<Thread> before) {
        return snapshot().stream().filter(t -> !before.contains(t)).map(Thread::getName).sorted()
                .collect(Collectors.toList());
    }

    /** The client connections of the Redis server, one {@code CLIENT LIST} line each, except the asking one. */
    static List<String> redisClients(RedisTestServer redis) {
        String list = redis.command("CLIENT", "LIST");
        return Arrays.stream(list.split("\n")).map(String::trim).filter(line -> !line.isEmpty())
                .filter(line -> !line.contains("cmd=client|list") && !line.contains("cmd=client "))
                .collect(Collectors.toList());
    }
}
