package io.rmq.engine;

import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.testing.redis.PlainRedis;
import io.rmq.testing.redis.RedisClusterTestServer;

/**
 * Clients, topics and consumers for engine tests, against one Redis or a Redis Cluster ({@link #cluster});
 * closes everything it made.
 */
public final class EngineFixture implements AutoCloseable {

    public final String uri;
    private final boolean cluster;
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private PlainRedis plain;

    public EngineFixture(String uri) {
        this(uri, false);
    }

    private EngineFixture(String uri, boolean cluster) {
        this.uri = uri;
        this.cluster = cluster;
    }

    /** A fixture for the Redis Cluster that {@code uri} names; {@link #redis()} is then a cluster connection. */
    public static EngineFixture cluster(String uri) {
        return new EngineFixture(uri, true);
    }

    public RmqEngine client() {
        RmqEngine c = new RmqEngine(uri).start();
        toClose.add(c);
        c.ready().toCompletableFuture().join();
        return c;
    }

    /** A plain string connection, as redis-cli would use ({@code redis-cli -c} on a cluster). */
    public RedisClusterCommands<String, String> redis() {
        if (plain == null) {
            plain = PlainRedis.connect(uri, cluster);
        }
        return plain.commands();
    }

    /** Messages of the topic in Redis: pending in its store queues or popped into its prepare queues. */
    public long inQueues(TopicKeys keys) {
        long n = 0;
        for (int slot = 0; slot < keys.topic().slotAmount(); slot++) {
            n += redis().zcard(keys.slot(slot).store()) + redis().zcard(keys.slot(slot).prepare());
        }
        return n;
    }

    /** Messages of the topic in its prepare queues: popped, and not committed or rolled back yet. */
    public long prepared(TopicKeys keys) {
        long n = 0;
        for (int slot = 0; slot < keys.topic().slotAmount(); slot++) {
            n += redis().zcard(keys.slot(slot).prepare());
        }
        return n;
    }

    /** Waits until a client subscribes to the topic's wake notices (after a start, or after its connection was dropped). */
    public void awaitWakeSubscription(TopicKeys keys, Duration timeout) {
        if (cluster) {
            String channel = keys.shardedWakeChannel(0);
            // PUBSUB SHARDNUMSUB counts the subscribers of the node it runs on: ask the slot's master
            await("a subscriber of " + channel).atMost(timeout).until(() -> !RedisClusterTestServer.shared()
                    .masterOf(channel).cli("PUBSUB", "SHARDNUMSUB", channel).endsWith("\n0"));
            return;
        }
        await("a subscriber of " + keys.wakeChannel()).atMost(timeout)
                .until(() -> redis().pubsubNumsub(keys.wakeChannel()).getOrDefault(keys.wakeChannel(), 0L) > 0);
    }

    public static TopicKeys register(RmqEngine client, TopicDefinition topic) {
        return client.registerTopic(topic).toCompletableFuture().join();
    }

    /** A started consumer that records its deliveries; demand must be requested by the test. */
    public Recorder consume(RmqEngine client, TopicKeys keys, ConsumerOptions options) {
        TopicConsumer consumer = client.consumer(keys, options, "test-" + toClose.size());
        Recorder recorder = new Recorder(consumer);
        toClose.add(0, consumer);
        consumer.start(recorder.received::add);
        return recorder;
    }

    public static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    public static String text(Delivery d) {
        return new String(d.content(), StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
        if (plain != null) {
            plain.close();
        }
    }

    public static final class Recorder {
        public final TopicConsumer consumer;
        public final BlockingQueue<Delivery> received = new LinkedBlockingQueue<>();

        Recorder(TopicConsumer consumer) {
            this.consumer = consumer;
        }

        public Delivery next(Duration timeout) throws InterruptedException {
            Delivery d = received.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (d == null) {
                throw new AssertionError("no delivery within " + timeout);
            }
            return d;
        }

        public List<Delivery> take(int n, Duration timeout) throws InterruptedException {
            List<Delivery> out = new ArrayList<>();
            long deadline = System.nanoTime() + timeout.toNanos();
            while (out.size() < n) {
                long left = deadline - System.nanoTime();
                Delivery d = received.poll(Math.max(0, left), TimeUnit.NANOSECONDS);
                if (d == null) {
                    throw new AssertionError("received " + out.size() + " of " + n + " deliveries within " + timeout);
                }
                out.add(d);
            }
            return out;
        }
    }
}
