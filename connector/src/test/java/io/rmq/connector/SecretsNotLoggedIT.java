package io.rmq.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.testing.SecuredRedis;
import io.rmq.testing.WeldApp;
import io.rmq.testing.ZooKeeperTestServer;

/**
 * No secret in any log line or exception text: the secured scenarios (a password in the URI, one in
 * {@code redis-password}, ZooKeeper digest credentials, wrong passwords both ways, a configuration error
 * around a password, the admin API refused) run through the connector on SmallRye and Weld, with every log
 * record (message, parameters, stack traces) of every logger down to debug ({@code FINE}; the connector's own
 * at every level) and everything written to standard output and error captured; none of it may contain a
 * password.
 *
 * <p>Below debug, Lettuce's protocol trace ({@code io.lettuce.core.protocol} at {@code FINEST}/TRACE) dumps
 * the bytes on the wire, the {@code AUTH} of the handshake included, as it dumps every message: it is left out
 * here and {@code docs/security.md} warns against it.
 */
class SecretsNotLoggedIT {

    private static final String RMQ = RedisRmqConnector.CONNECTOR_NAME;
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String REDIS_PASSWORD = "RedisPw-4d1e9b";
    private static final String WRONG_IN_URI = "WrongUriPw-77a0c3";
    private static final String WRONG_ATTRIBUTE = "WrongAttrPw-19f2e8";
    private static final String ZOOKEEPER_PASSWORD = "ZkPw-a8c4d0";
    private static final String WRONG_ZOOKEEPER_PASSWORD = "WrongZkPw-2e6b71";
    private static final List<String> SECRETS = List.of(REDIS_PASSWORD, WRONG_IN_URI, WRONG_ATTRIBUTE,
            ZOOKEEPER_PASSWORD, WRONG_ZOOKEEPER_PASSWORD);

    private final Capture capture = new Capture();
    private SecuredRedis redis;
    private ZooKeeperTestServer zooKeeper;

    @BeforeEach
    void start() {
        redis = SecuredRedis.start();
        redis.requirePassword(REDIS_PASSWORD);
        zooKeeper = ZooKeeperTestServer.startRequiringAuthentication();
        capture.start();
    }

    @AfterEach
    void stop() {
        capture.stop();
        zooKeeper.close();
        redis.close();
    }

    @Test
    void noPasswordAppearsInAnythingLoggedOrThrown() throws Exception {
        String host = "127.0.0.1:" + redis.port();

        // a password in the URI, and ZooKeeper digest credentials: messages flow
        try (WeldApp app = app("redis://:" + REDIS_PASSWORD + "@" + host, "in-uri")
                .incoming("in", RMQ, "topic", "in-uri", "topic-type", "PRIORITY", "slot-amount", 2,
                        "poll-interval", 200, "zookeeper-connect", zooKeeper.connectString(),
                        "zookeeper-session-timeout", ZooKeeperTestServer.MAX_SESSION_TIMEOUT_MS,
                        "zookeeper-username", "workers", "zookeeper-password", ZOOKEEPER_PASSWORD,
                        "zookeeper-rebalance-delay", 0)
                .start()) {
            sendAndReceive(app, "with-uri-password");
        }

        // the wrong ZooKeeper password: the topic's znodes belong to the right one, so ZooKeeper says NoAuth
        try (WeldApp app = app("redis://:" + REDIS_PASSWORD + "@" + host, "in-uri")
                .incoming("in", RMQ, "topic", "in-uri", "topic-type", "PRIORITY", "slot-amount", 2,
                        "poll-interval", 200, "zookeeper-connect", zooKeeper.connectString(),
                        "zookeeper-session-timeout", ZooKeeperTestServer.MAX_SESSION_TIMEOUT_MS,
                        "zookeeper-username", "workers", "zookeeper-password", WRONG_ZOOKEEPER_PASSWORD)
                .start()) {
            await().atMost(WAIT).until(() -> capture.count("RMQ-0240") > 0);
        }

        // the password as an attribute
        try (WeldApp app = app("redis://" + host, "in-attribute")
                .config("mp.messaging.connector." + RMQ + ".redis-password", REDIS_PASSWORD)
                .incoming("in", RMQ, "topic", "in-attribute", "topic-type", "PRIORITY", "slot-amount", 1,
                        "poll-interval", 200)
                .start()) {
            sendAndReceive(app, "with-attribute-password");
        }

        // wrong passwords, in the URI and as an attribute: refused, said clearly, retried
        int refusedBefore = capture.count("RMQ-0140");
        try (WeldApp app = app("redis://:" + WRONG_IN_URI + "@" + host, "wrong-uri").start()) {
            await().atMost(WAIT).until(() -> capture.count("RMQ-0140") > refusedBefore);
        }
        int refusedAfterUri = capture.count("RMQ-0140");
        try (WeldApp app = app("redis://" + host, "wrong-attribute")
                .config("mp.messaging.connector." + RMQ + ".redis-password", WRONG_ATTRIBUTE).start()) {
            await().atMost(WAIT).until(() -> capture.count("RMQ-0140") > refusedAfterUri);
        }

        // a configuration error that involves a password
        capture.thrown(catchThrowable(() -> app("redis://:" + REDIS_PASSWORD + "@" + host, "both")
                .config("mp.messaging.connector." + RMQ + ".redis-password", WRONG_ATTRIBUTE).start().close()));

        // the admin API, refused
        capture.thrown(catchThrowable(() -> RmqAdmin.connect(RedisAccess.builder("redis://" + host)
                .password(WRONG_ATTRIBUTE).build()).close()));
        capture.thrown(catchThrowable(() -> RmqAdmin.connect("redis://user:" + WRONG_IN_URI + "@" + host).close()));

        capture.stop();
        String everything = capture.text();
        assertThat(everything).contains("RMQ-0001", "RMQ-0140", "RMQ-0240", "RMQ-0330", "RMQ-0202", "redis-password");
        for (String secret : SECRETS) {
            assertThat(everything).as("captured output mentions the secret " + secret).doesNotContain(secret);
        }
    }

    private static WeldApp.Builder app(String redisUri, String topic) {
        return WeldApp.builder().beans(RedisRmqConnector.class, ConnectorBeans.Sender.class,
                ConnectorBeans.PayloadReceiver.class)
                .config("mp.messaging.connector." + RMQ + ".redis-uri", redisUri)
                .outgoing("out", RMQ, "topic", topic, "topic-type", "PRIORITY", "priority", 1,
                        "slot-amount", topic.startsWith("in-uri") ? 2 : 1);
    }

    private static void sendAndReceive(WeldApp app, String payload) throws Exception {
        app.get(ConnectorBeans.Sender.class).send(payload, null).toCompletableFuture().get(20, TimeUnit.SECONDS);
        ConnectorBeans.PayloadReceiver receiver = app.get(ConnectorBeans.PayloadReceiver.class);
        await().atMost(WAIT).until(() -> receiver.payloads().contains(payload));
    }

    /** Every log record of every logger, every stack trace thrown at the test, and standard output and error. */
    private static final class Capture extends Handler {
        private final Formatter formatter = new SimpleFormatter();
        private final StringBuffer text = new StringBuffer();
        private static final Logger RMQ_LOGGER = Logger.getLogger("io.rmq");
        private final Logger root = Logger.getLogger("");
        private final List<Level> rootLevel = new ArrayList<>();
        private PrintStream out;
        private PrintStream err;

        void start() {
            setLevel(Level.ALL);
            rootLevel.add(root.getLevel());
            rootLevel.add(RMQ_LOGGER.getLevel());
            root.setLevel(Level.FINE);
            RMQ_LOGGER.setLevel(Level.ALL);
            root.addHandler(this);
            out = System.out;
            err = System.err;
            System.setOut(tee(out));
            System.setErr(tee(err));
        }

        private PrintStream tee(PrintStream original) {
            return new PrintStream(new OutputStream() {
                @Override
                public void write(int b) {
                    original.write(b);
                    text.append((char) b);
                }

                @Override
                public void write(byte[] b, int off, int len) {
                    original.write(b, off, len);
                    text.append(new String(b, off, len, StandardCharsets.UTF_8));
                }
            }, true, StandardCharsets.UTF_8);
        }

        void stop() {
            if (out == null) {
                return;
            }
            root.removeHandler(this);
            root.setLevel(rootLevel.get(0));
            RMQ_LOGGER.setLevel(rootLevel.get(1));
            System.setOut(out);
            System.setErr(err);
            out = null;
        }

        void thrown(Throwable t) {
            if (t != null) {
                StringWriter w = new StringWriter();
                t.printStackTrace(new PrintWriter(w));
                text.append(w);
            }
        }

        int count(String id) {
            String s = text.toString();
            int n = 0;
            for (int i = s.indexOf(id); i >= 0; i = s.indexOf(id, i + 1)) {
                n++;
            }
            return n;
        }

        String text() {
            return text.toString();
        }

        @Override
        public void publish(LogRecord record) {
            text.append(formatter.format(record)).append(' ').append(String.valueOf(record.getMessage()));
            if (record.getParameters() != null) {
                for (Object p : record.getParameters()) {
                    text.append(' ').append(p);
                }
            }
            text.append('\n');
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
