package io.rmq.badinput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.connector.RedisRmqConnector;
import io.rmq.testing.LogRecorder;
import io.rmq.testing.WeldApp;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;

/**
 * The catalogue of bad content arriving on an incoming channel (docs/bad-input.md), through SmallRye
 * on Weld against a real Redis: content that cannot become the channel's payload is rolled back with
 * an error naming the channel, topic and slot (retried, then kept in the dead queue with that error as
 * its last failure), never delivered altered and never dropped, while the other messages flow.
 */
@RedisTest
class BadIncomingContentIT {

    private static final String RMQ = RedisRmqConnector.CONNECTOR_NAME;
    private static final Duration WAIT = Duration.ofSeconds(20);
    /** "caf" then a lone ISO-8859-1 'é' (0xE9) and 0xFF: no UTF-8 decoder accepts them. */
    private static final byte[] NOT_UTF8 = {'c', 'a', 'f', (byte) 0xE9, (byte) 0xFF};

    private WeldApp app;
    private LogRecorder log;

    @BeforeEach
    void record() {
        log = LogRecorder.record("io.rmq");
    }

    @AfterEach
    void stop() {
        if (app != null) {
            app.close();
        }
        log.close();
    }

    private void start(RedisTestServer redis, Object... incomingAttributes) {
        WeldApp.Builder builder = WeldApp.builder()
                .beans(RedisRmqConnector.class, BadInputBeans.Sender.class, BadInputBeans.Receiver.class)
                .config("mp.messaging.connector." + RMQ + ".redis-uri", redis.uri())
                .incoming("in", RMQ, "topic", "t", "topic-type", "FIXED_TIME", "slot-amount", 1, "poll-interval", 500,
                        "retry-backoff", 0, "max-retries", 1, "shutdown-timeout", 2000)
                .outgoing("out", RMQ, "topic", "t", "topic-type", "FIXED_TIME", "slot-amount", 1);
        for (int i = 0; i + 1 < incomingAttributes.length; i += 2) {
            builder.config("mp.messaging.incoming.in." + incomingAttributes[i], incomingAttributes[i + 1]);
        }
        app = builder.start();
    }

    private BadInputBeans.Receiver receiver() {
        return app.get(BadInputBeans.Receiver.class);
    }

    /** The content is kept in the dead queue, byte for byte, with the error as its last failure. */
    private static void keptInTheDeadQueue(RedisConnections connections, byte[] content, String failure) {
        RedisCommands<byte[], byte[]> redis = connections.binary().sync();
        await().atMost(WAIT).until(() -> redis.zcard(bytes("dead{t_0}")) == 1);
        assertThat(redis.zrange(bytes("dead{t_0}"), 0, -1)).containsExactly(content);
        assertThat(new String(redis.hget(bytes("failures{t_0}"), content), StandardCharsets.UTF_8)).contains(failure);
        assertThat(redis.zcard(bytes("prepare{t_0}"))).isZero();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void nonUtf8ContentWrittenByAnotherClientIsRolledBackToTheDeadQueue(RedisTestServer redis,
            RedisConnections connections) {
        start(redis);
        // as `redis-cli ZADD t_0 0 $'caf\xe9\xff'` would, next to a good message
        connections.binary().sync().zadd(bytes("t_0"), 0, NOT_UTF8);
        connections.binary().sync().zadd(bytes("t_0"), 1, bytes("good"));

        await().atMost(WAIT).until(() -> receiver().texts().contains("good"));
        keptInTheDeadQueue(connections, NOT_UTF8, "RMQ-2101 Channel 'in' cannot deliver a message of topic 't' slot 0"
                + " as a String: its content (5 bytes) is not valid UTF-8 (first malformed byte at offset 3); channel"
                + " attribute 'payload-type' is 'string': set it to 'bytes', or set a 'codec', to receive such content");
        assertThat(receiver().payloads()).containsExactly("good"); // never delivered with replacement characters
        assertThat(log.messagesContaining("RMQ-1101 Channel 'in' rolls back a message of topic 't' slot 0")).hasSize(2);
        assertThat(log.messagesContaining("RMQ-0105")).hasSize(1); // moved to the dead queue, on its last delivery
    }

    @Test
    void nonUtf8BytesFromAByteArrayProducerAreRolledBackToTheDeadQueue(RedisTestServer redis,
            RedisConnections connections) throws Exception {
        start(redis);
        BadInputBeans.Sender sender = app.get(BadInputBeans.Sender.class);
        sender.send(NOT_UTF8).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        sender.send("good").get(WAIT.toSeconds(), TimeUnit.SECONDS);

        await().atMost(WAIT).until(() -> receiver().texts().contains("good"));
        keptInTheDeadQueue(connections, NOT_UTF8, "RMQ-2101");
        assertThat(receiver().payloads()).containsExactly("good");
    }

    @Test
    void aBytesChannelReceivesAnyContentUnchanged(RedisTestServer redis, RedisConnections connections) {
        start(redis, "payload-type", "bytes");
        connections.binary().sync().zadd(bytes("t_0"), 0, NOT_UTF8);

        await().atMost(WAIT).until(() -> receiver().payloads().size() == 1);
        assertThat((byte[]) receiver().payloads().get(0)).isEqualTo(NOT_UTF8);
    }

    @Test
    void validUtf8BeyondAsciiIsDeliveredAsItIs(RedisTestServer redis, RedisConnections connections) {
        start(redis);
        String text = "café, 東京, 🚀";
        connections.binary().sync().zadd(bytes("t_0"), 0, bytes(text));

        await().atMost(WAIT).until(() -> receiver().payloads().size() == 1);
        assertThat(receiver().payloads()).containsExactly(text);
    }

    @Test
    void aCodecThatThrowsOnReceiveRollsTheMessageBackToTheDeadQueue(RedisTestServer redis,
            RedisConnections connections) {
        codecFailsOnReceive(redis, connections, "boom", "RMQ-2007 Codec " + BadInputBeans.FailingCodec.class.getName()
                + " of channel 'in' failed to decode: java.lang.IllegalStateException: cannot decode boom");
    }

    @Test
    void aCodecThatReturnsNullOnReceiveRollsTheMessageBackToTheDeadQueue(RedisTestServer redis,
            RedisConnections connections) {
        codecFailsOnReceive(redis, connections, "null", "RMQ-2008 Codec " + BadInputBeans.FailingCodec.class.getName()
                + " of channel 'in' returned null from decode");
    }

    private void codecFailsOnReceive(RedisTestServer redis, RedisConnections connections, String content,
            String failure) {
        start(redis, "codec", BadInputBeans.FailingCodec.class.getName());
        connections.binary().sync().zadd(bytes("t_0"), 0, bytes(content));
        connections.binary().sync().zadd(bytes("t_0"), 1, bytes("good"));

        await().atMost(WAIT).until(() -> receiver().texts().contains("good"));
        keptInTheDeadQueue(connections, bytes(content), failure);
        assertThat(log.messagesContaining("RMQ-1013 Channel 'in' could not decode a message of topic 't' slot 0"))
                .hasSize(2);
        assertThat(receiver().payloads()).containsExactly("good");
    }
}
