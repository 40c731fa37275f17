package io.rmq.examples.demo;

import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Optional;

import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;

import io.rmq.examples.story.OrderTimeouts;
import io.rmq.examples.story.PriceCacheRefresher;
import io.rmq.examples.story.ReceivedLog;
import io.rmq.examples.story.TaskBoard;
import io.rmq.examples.support.Console;
import io.rmq.examples.support.ConsoleLogging;
import io.rmq.examples.support.ExampleConfig;
import io.rmq.examples.support.ExampleRedis;
import io.rmq.testing.redis.EmbeddedRedis;

/**
 * The demo: merged duplicates, priorities and scheduled delivery through the {@code smallrye-redis-rmq}
 * connector, on SmallRye Reactive Messaging and Weld SE. It tells the story of the example applications with their
 * own beans ({@code examples/story}, see {@link DemoStory}). Runs in about half a minute and exits.
 *
 * <p>Run from the repository root: {@code mvn -q -pl examples/demo -am verify -Pdemo -DskipTests}.
 *
 * <p>Redis: the system property or environment variable {@code RMQ_REDIS_URI}, or the configuration
 * property {@code demo.redis-uri}, names an external server (credentials may be in the URI; the demo
 * prints it masked); without one the demo starts an embedded Redis and stops it at the end. When the
 * external Redis cannot be reached or refuses the credentials, the demo prints why on one line of
 * standard error and exits with status 1. The channels are declared in
 * {@code META-INF/microprofile-config.properties} (configuration profile {@code demo}); the demo sets
 * their Redis URI and a key prefix of its own for every channel at once, through the connector-level
 * attributes {@code mp.messaging.connector.smallrye-redis-rmq.*} in a config source it registers
 * before Weld starts ({@link ExampleConfig}).
 */
public final class Demo {

    /** The configuration profile of the demo's channels. */
    static final String PROFILE = "demo";
    static final String CONNECTOR_ATTRIBUTE = "mp.messaging.connector.smallrye-redis-rmq.";

    private Demo() {
    }

    public static void main(String[] args) throws Exception {
        ConsoleLogging.install();
        long start = System.nanoTime();

        ExampleRedis connected;
        try {
            connected = ExampleRedis.startOrConnect(externalRedisUri().orElse(null));
        } catch (IllegalArgumentException | IllegalStateException e) {
            // Redis refused us or is not there: say so in one line, with nothing left running, and fail
            System.err.println("RMQ demo: " + e.getMessage());
            System.exit(1);
            return;
        }
        boolean succeeded;
        try (ExampleRedis redis = connected) {
            // A key prefix of its own, so that a run against a shared Redis meets nothing left by another.
            String keyPrefix = "rmq-demo-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS")) + ":";
            Console.say("RMQ demo: Redis %s at %s (%s), key prefix '%s'", redis.version(), redis.displayUri(),
                    redis.isEmbedded() ? "embedded, started for this demo" : "external", keyPrefix);
            Map<String, String> forAllChannels = Map.of(
                    CONNECTOR_ATTRIBUTE + "redis-uri", redis.uri(),
                    CONNECTOR_ATTRIBUTE + "key-prefix", keyPrefix);

            try (ExampleConfig config = ExampleConfig.register(PROFILE, forAllChannels);
                    WeldContainer container = new Weld().initialize()) {
                DemoStory story = new DemoStory(container.select(PriceCacheRefresher.class).get(),
                        container.select(TaskBoard.class).get(), container.select(OrderTimeouts.class).get(),
                        container.select(ReceivedLog.class).get());
                succeeded = story.mergedDuplicates() & story.priorities() & story.scheduledDelivery()
                        & story.recurringReport();
            }
            if (!redis.isEmbedded()) {
                redis.deleteKeysContaining(keyPrefix);
            }
        }
        Console.say("");
        Console.say("Demo %s in %.1f s.", succeeded ? "finished" : "FAILED", (System.nanoTime() - start) / 1e9);
        if (!succeeded) {
            throw new IllegalStateException("the demo did not show what it should: see above");
        }
    }

    /** {@code RMQ_REDIS_URI} (system property, then environment), then the configuration property {@code demo.redis-uri}. */
    static Optional<String> externalRedisUri() {
        return EmbeddedRedis.externalUri().or(() -> ExampleConfig.read(PROFILE)
                .getOptionalValue("demo.redis-uri", String.class).filter(s -> !s.isBlank()));
    }
}
