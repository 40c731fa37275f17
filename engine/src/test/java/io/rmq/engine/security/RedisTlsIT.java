package io.rmq.engine.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.rmq.engine.RmqEngine;
import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.LogRecorder;
import io.rmq.testing.redis.SecuredRedis;
import io.rmq.testing.redis.TestCertificates;

/**
 * {@code rediss://} with certificate verification against a {@code redis-server} with TLS on, whose certificate
 * authority the test generates with {@code openssl}: the trusted CA connects; another CA, or a certificate that
 * does not name the host, fails the handshake with a clear message naming the setting.
 */
class RedisTlsIT {

    private static final Duration WAIT = Duration.ofSeconds(15);

    private static TestCertificates ca;
    private static TestCertificates otherCa;
    private static SecuredRedis redis;

    @BeforeAll
    static void tlsServer() {
        ca = TestCertificates.authority("rmq-test");
        otherCa = TestCertificates.authority("someone-else");
        redis = SecuredRedis.start();
        redis.enableTls(ca, ca.server("redis", "IP:127.0.0.1", "DNS:localhost"));
    }

    @AfterAll
    static void close() {
        if (redis != null) { // null when the prerequisites are missing
            redis.close();
            ca.close();
            otherCa.close();
        }
    }

    @Test
    void aServerSignedByTheTrustedAuthorityIsUsedOverTls() throws Exception {
        RedisAccess access = RedisAccess.builder(redis.tlsUri("localhost"))
                .trustedCertificates(ca.caCertificate()).build();
        try (RmqEngine engine = new RmqEngine(access).start()) {
            engine.ready().toCompletableFuture().get(15, TimeUnit.SECONDS);
            TopicDefinition topic = new TopicDefinition("tls", 2, TopicType.PRIORITY);
            TopicKeys keys = engine.registerTopic(topic).toCompletableFuture().get(10, TimeUnit.SECONDS);
            engine.producer(keys).sendWithPriority("over-tls".getBytes(StandardCharsets.UTF_8), 1, null)
                    .toCompletableFuture().get(10, TimeUnit.SECONDS);
            BlockingQueue<Delivery> received = new LinkedBlockingQueue<>();
            try (TopicConsumer consumer = engine.consumer(keys, ConsumerOptions.defaults(), "tls")) {
                consumer.start(received::add);
                consumer.request(1);
                Delivery d = received.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                assertThat(d).isNotNull();
                assertThat(new String(d.content(), StandardCharsets.UTF_8)).isEqualTo("over-tls");
                d.commit().toCompletableFuture().get(10, TimeUnit.SECONDS);
            }
        }
        try (RmqAdmin admin = RmqAdmin.connect(RedisAccess.builder(redis.tlsUri("127.0.0.1"))
                .trustedCertificates(ca.caCertificate()).build())) {
            assertThat(admin.topics("")).extracting(TopicDefinition::name).contains("tls");
        }
    }

    @Test
    void aCertificateFromAnotherAuthorityFailsWithAClearMessage() throws Exception {
        assertHandshakeRefused(RedisAccess.builder(redis.tlsUri("127.0.0.1"))
                .trustedCertificates(otherCa.caCertificate()).build());
    }

    @Test
    void aCertificateThatDoesNotNameTheHostFailsWithAClearMessage() throws Exception {
        try (SecuredRedis elsewhere = SecuredRedis.start()) {
            elsewhere.enableTls(ca, ca.server("elsewhere", "DNS:redis.elsewhere.test"));
            assertHandshakeRefused(RedisAccess.builder(elsewhere.tlsUri("127.0.0.1"))
                    .trustedCertificates(ca.caCertificate()).build());
        }
    }

    private static void assertHandshakeRefused(RedisAccess access) throws Exception {
        try (LogRecorder log = LogRecorder.record(EngineLogging.LOGGER_NAME);
                RmqEngine engine = new RmqEngine(access).start()) {
            assertThat(engine.firstConnectionAttempt().toCompletableFuture().get(15, TimeUnit.SECONDS)).isFalse();
            String line = log.await("about the TLS handshake", m -> m.startsWith("RMQ-0141"), 1, WAIT).get(0);
            assertThat(line).contains(access.displayUri()).contains("redis-tls-ca-file").contains("host");
            assertThat(engine.isConnected()).isFalse();
            assertThat(log.messagesContaining("RMQ-0001")).isEmpty();
        }
        assertThatThrownBy(() -> RmqAdmin.connect(access)).hasMessageStartingWith("RMQ-0331")
                .hasMessageContaining(access.displayUri());
    }
}
