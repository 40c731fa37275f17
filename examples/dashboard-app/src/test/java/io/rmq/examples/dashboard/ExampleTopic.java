package io.rmq.examples.dashboard;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;

/**
 * A test's own FIXED_TIME topic in the running example's Redis, under the demo's key prefix: the engine that
 * recorded it, its keys, a plain connection to read Redis with, a client of the application and its server log. Open with {@link #record}, close after
 * the tests. Not thread-safe.
 */
final class ExampleTopic implements AutoCloseable {

    static final String PREFIX = "rmq-dashboard-demo:";

    final AdminClient client;
    final ServerLog log;
    final RmqEngine engine;
    final TopicKeys keys;
    final RedisClient lettuce;
    final StatefulRedisConnection<String, String> connection;
    final RedisCommands<String, String> redis;

    private ExampleTopic(AdminClient client, RmqEngine engine, TopicKeys keys, RedisClient lettuce) {
        this.client = client;
        this.log = ServerLog.ofTestServer();
        this.engine = engine;
        this.keys = keys;
        this.lettuce = lettuce;
        this.connection = lettuce.connect();
        this.redis = connection.sync();
    }

    /**
     * Records {@code name} with {@code slots} slots in the Redis the application uses (the admin endpoints name it),
     * the application at {@code -Drmq.example.url} (the POM's) or {@code http://localhost:9080}.
     */
    static ExampleTopic record(String name, int slots) throws Exception {
        AdminClient client = new AdminClient(System.getProperty("rmq.example.url", "http://localhost:9080"));
        String redisUri = client.topics().getString("redis");
        RmqEngine engine = new RmqEngine(redisUri).start();
        engine.ready().toCompletableFuture().get();
        TopicKeys keys = engine.registerTopic(new TopicDefinition(name, slots, TopicType.FIXED_TIME, PREFIX))
                .toCompletableFuture().get();
        return new ExampleTopic(client, engine, keys, RedisClient.create(redisUri));
    }

    @Override
    public void close() {
        engine.close();
        connection.close();
        lettuce.shutdown();
    }
}
