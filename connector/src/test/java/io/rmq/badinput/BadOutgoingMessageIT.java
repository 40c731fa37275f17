package io.rmq.badinput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rmq.connector.IncomingRmqMetadata;
import io.rmq.connector.OutgoingRmqMetadata;
import io.rmq.connector.RedisRmqConnector;
import io.rmq.testing.WeldApp;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;

/**
 * The catalogue of bad outgoing messages (docs/bad-input.md), through SmallRye on Weld against a real
 * Redis: each bad message is nacked with an error naming the problem and the metadata field, setting or
 * payload type, nothing of it is written, and a good message sent after it still flows to the consumer.
 */
@RedisTest
class BadOutgoingMessageIT {

    private static final String RMQ = RedisRmqConnector.CONNECTOR_NAME;
    private static final Duration WAIT = Duration.ofSeconds(20);

    private WeldApp app;

    @AfterEach
    void stop() {
        if (app != null) {
            app.close();
        }
    }

    private WeldApp start(RedisTestServer redis, String type, Object... outgoingAttributes) {
        WeldApp.Builder builder = WeldApp.builder()
                .beans(RedisRmqConnector.class, BadInputBeans.Sender.class, BadInputBeans.Receiver.class)
                .config("mp.messaging.connector." + RMQ + ".redis-uri", redis.uri())
                .incoming("in", RMQ, "topic", "t", "topic-type", type, "slot-amount", 1, "poll-interval", 500,
                        "retry-backoff", 0, "shutdown-timeout", 2000)
                .outgoing("out", RMQ, "topic", "t", "topic-type", type, "slot-amount", 1);
        for (int i = 0; i + 1 < outgoingAttributes.length; i += 2) {
            builder.config("mp.messaging.outgoing.out." + outgoingAttributes[i], outgoingAttributes[i + 1]);
        }
        app = builder.start();
        return app;
    }

    private BadInputBeans.Sender sender() {
        return app.get(BadInputBeans.Sender.class);
    }

    private BadInputBeans.Receiver receiver() {
        return app.get(BadInputBeans.Receiver.class);
    }

    /** The reason the message was nacked with; fails when it was acked. */
    private static Throwable nackReason(CompletableFuture<Void> settled) throws Exception {
        try {
            settled.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        }
        throw new AssertionError("the message was acked");
    }

    /** A good message sent after the bad one arrives, and it is the only thing the topic ever held. */
    private void goodMessageStillFlows(Object payload, Object... metadata) throws Exception {
        sender().send(payload, metadata).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        await().atMost(WAIT).until(() -> receiver().texts().contains(String.valueOf(payload)));
        assertThat(receiver().texts()).containsExactly(String.valueOf(payload));
    }

    @Test
    void aFieldOfAnotherTopicTypeIsNacked(RedisTestServer redis, RedisConnections connections) throws Exception {
        start(redis, "FIXED_TIME");
        Throwable reason = nackReason(sender().send("close:1", OutgoingRmqMetadata.builder().withPriority(5).build()));

        assertThat(reason).hasMessage("RMQ-2010 Channel 'out' cannot send a message with a priority to FIXED_TIME"
                + " topic 't': FIXED_TIME messages do not use it");
        assertThat(connections.sync().zcard("t_0")).isZero();
        goodMessageStillFlows("close:2");
    }

    @Test
    void aRangeMergeMessageWithoutTimeRangeIsNacked(RedisTestServer redis) throws Exception {
        start(redis, "RANGE_MERGE");
        Throwable reason = nackReason(sender().send("price:1"));

        assertThat(reason).hasMessageStartingWith("RMQ-2004 Channel 'out' cannot send to RANGE_MERGE topic 't'"
                + " without a time range").hasMessageContaining("the channel attribute 'time-range'");
        goodMessageStillFlows("price:2", OutgoingRmqMetadata.builder().withTimeRange(Duration.ofMillis(1)).build());
    }

    @Test
    void metadataOfAnotherTypeIsIgnoredSoAPriorityMessageWithoutPriorityIsNacked(RedisTestServer redis)
            throws Exception {
        start(redis, "PRIORITY");
        // e.g. a received message forwarded as it is: its incoming metadata says nothing to the outgoing channel
        IncomingRmqMetadata foreign = new IncomingRmqMetadata("in", "t", 0, 1, 9.0);
        Throwable reason = nackReason(sender().send("task:1", foreign, "a string as metadata"));

        assertThat(reason).hasMessageStartingWith("RMQ-2005 Channel 'out' cannot send to PRIORITY topic 't' without"
                + " a priority: set OutgoingRmqMetadata.withPriority(...) on the message or the channel attribute"
                + " 'priority'");
        goodMessageStillFlows("task:2", OutgoingRmqMetadata.builder().withPriority(1).build());
    }

    @Test
    void aPayloadOfAnUnsupportedTypeIsNacked(RedisTestServer redis) throws Exception {
        start(redis, "FIXED_TIME");
        Throwable reason = nackReason(sender().send(42));

        assertThat(reason).hasMessage("RMQ-2006 Channel 'out' cannot send a payload of type java.lang.Integer:"
                + " without a codec only String (sent as UTF-8) and byte[] are supported; set the channel attribute"
                + " 'codec'");
        goodMessageStillFlows("close:2");
    }

    @Test
    void aNullPayloadIsNacked(RedisTestServer redis) throws Exception {
        start(redis, "FIXED_TIME");
        Throwable reason = nackReason(sender().send(null));

        assertThat(reason).hasMessageStartingWith("RMQ-2006 Channel 'out' cannot send a payload of type null");
        goodMessageStillFlows("close:2");
    }

    @Test
    void aStringThatIsNotValidUnicodeIsNackedRatherThanAltered(RedisTestServer redis, RedisConnections connections)
            throws Exception {
        start(redis, "FIXED_TIME");
        Throwable reason = nackReason(sender().send("order-\uD83D")); // half of an emoji: String.getBytes would write '?'

        assertThat(reason).hasMessage("RMQ-2104 Channel 'out' cannot send a String payload to topic 't' that is not"
                + " valid Unicode (an unpaired surrogate at index 6): UTF-8 cannot encode it without altering the"
                + " message; nothing was written (send a byte[] to send any bytes)");
        assertThat(connections.sync().zcard("t_0")).isZero();
        goodMessageStillFlows("order-\uD83D\uDE80"); // the whole emoji is fine
    }

    @Test
    void anEmptyPayloadIsAMessageLikeAnyOther(RedisTestServer redis) throws Exception {
        start(redis, "FIXED_TIME");
        sender().send("").get(WAIT.toSeconds(), TimeUnit.SECONDS);
        await().atMost(WAIT).until(() -> receiver().payloads().size() == 1);
        sender().send(new byte[0]).get(WAIT.toSeconds(), TimeUnit.SECONDS); // the same content, as a byte[]
        await().atMost(WAIT).until(() -> receiver().payloads().size() == 2);

        assertThat(receiver().payloads()).containsExactly("", "");
        await().atMost(WAIT).until(() -> "0".equals(redis.command("ZCARD", "prepare{t_0}")));
    }

    @Test
    void aMessageLargerThanMaxMessageSizeIsNacked(RedisTestServer redis, RedisConnections connections)
            throws Exception {
        start(redis, "FIXED_TIME", "max-message-size", 1024);
        Throwable reason = nackReason(sender().send("x".repeat(1025)));

        assertThat(reason).hasMessage("RMQ-2100 Channel 'out' cannot send a message of 1025 bytes to topic 't':"
                + " the most is 1024 bytes (channel attribute 'max-message-size'); nothing was written");
        assertThat(connections.sync().zcard("t_0")).isZero();
        goodMessageStillFlows("x".repeat(1024)); // the limit itself is allowed
    }

    @Test
    void theDefaultMaxMessageSizeIsOneMebibyte(RedisTestServer redis) throws Exception {
        start(redis, "FIXED_TIME");
        byte[] tooLarge = new byte[1024 * 1024 + 1];
        Throwable reason = nackReason(sender().send(tooLarge));

        assertThat(reason).hasMessageContaining("a message of 1048577 bytes").hasMessageContaining("the most is 1048576");
        goodMessageStillFlows("a".repeat(1024 * 1024));
    }

    @Test
    void aDeliveryTimeFarInThePastIsDueAtOnce(RedisTestServer redis) throws Exception {
        start(redis, "FIXED_TIME");
        goodMessageStillFlows("close:old", OutgoingRmqMetadata.builder()
                .withDeliverAt(Instant.parse("0001-01-01T00:00:00Z")).build());
        assertThat(receiver().metadata().get(0).getScore()).isEqualTo(-62135596800000.0);
    }

    @Test
    void aFixedTimeMessageWithoutDeliveryTimeIsDueAtOnce(RedisTestServer redis) throws Exception {
        start(redis, "FIXED_TIME");
        long before = System.currentTimeMillis();
        goodMessageStillFlows("close:now");
        assertThat(receiver().metadata().get(0).getScore()).isGreaterThanOrEqualTo(before);
    }

    @Test
    void aCodecThatThrowsOrReturnsNullOnSendNacksTheMessage(RedisTestServer redis) throws Exception {
        start(redis, "FIXED_TIME", "codec", BadInputBeans.FailingCodec.class.getName());

        assertThat(nackReason(sender().send("boom"))).hasMessage("RMQ-2007 Codec "
                + BadInputBeans.FailingCodec.class.getName() + " of channel 'out' failed to encode:"
                + " java.lang.IllegalStateException: cannot encode boom");
        assertThat(nackReason(sender().send("null"))).hasMessage("RMQ-2008 Codec "
                + BadInputBeans.FailingCodec.class.getName() + " of channel 'out' returned null from encode; a codec"
                + " must return a value");
        goodMessageStillFlows("close:2");
    }

    @Test
    void nonUtf8BytesAreSentAsTheyAre(RedisTestServer redis, RedisConnections connections) throws Exception {
        // the producer does not judge bytes: the consumer decides (BadIncomingContentIT)
        app = WeldApp.builder().beans(RedisRmqConnector.class, BadInputBeans.Sender.class)
                .config("mp.messaging.connector." + RMQ + ".redis-uri", redis.uri())
                .outgoing("out", RMQ, "topic", "t", "topic-type", "FIXED_TIME", "slot-amount", 1).start();
        byte[] latin1 = "café".getBytes(StandardCharsets.ISO_8859_1);
        sender().send(latin1).get(WAIT.toSeconds(), TimeUnit.SECONDS);

        assertThat(connections.binary().sync().zrange("t_0".getBytes(StandardCharsets.UTF_8), 0, -1))
                .containsExactly(latin1);
    }
}
