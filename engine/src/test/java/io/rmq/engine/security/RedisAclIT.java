package io.rmq.engine.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.admin.AdminOperation;
import io.rmq.engine.admin.AdminProgress;
import io.rmq.engine.admin.DeadCursor;
import io.rmq.engine.admin.DeadSelection;
import io.rmq.engine.admin.RecordedOperation;
import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.produce.DurabilityException;
import io.rmq.engine.produce.ProducerOptions;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.redis.RedisAcl;
import io.rmq.engine.schedule.MissedPolicy;
import io.rmq.engine.schedule.ScheduleDefinition;
import io.rmq.engine.schedule.ScheduleTiming;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.LogRecorder;
import io.rmq.testing.redis.SecuredRedis;

/**
 * The documented minimal ACL ({@link RedisAcl}, {@code docs/security.md}) is enough for every flow of the
 * engine and the admin API, and keeps its user inside its key prefix: a restricted user created with
 * {@code ACL SETUSER} sends, consumes, acks, nacks to the dead queue, requeues, purges and pauses, and is
 * refused keys, channels and topics outside its patterns; it declares, ticks and administers recurring schedules.
 */
class RedisAclIT {

    static final String PREFIX = "shop:";
    static final String USER = "rmq-shop";
    static final String PASSWORD = "acl-secret-7f3a";
    static final Duration WAIT = Duration.ofSeconds(10);

    private SecuredRedis redis;
    private LogRecorder log;
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @BeforeEach
    void restrictedUser() {
        List<String> rules = new ArrayList<>(List.of("on", ">" + PASSWORD, "resetkeys", "resetchannels", "-@all"));
        rules.addAll(aclRules());
        createUser(rules.toArray(String[]::new));
        log = LogRecorder.record(EngineLogging.LOGGER_NAME);
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
        log.close();
        dropServer();
    }

    /** The rules under test, after {@code resetkeys resetchannels -@all}. */
    List<String> aclRules() {
        return RedisAcl.rules(PREFIX, false);
    }

    /** Starts the server(s) and creates {@link #USER} with these rules wherever the user may connect. */
    void createUser(String... rules) {
        redis = SecuredRedis.start();
        redis.aclSetUser(USER, rules);
    }

    /** Removes the user, or the server with it. */
    void dropServer() {
        redis.close();
    }

    /** The Redis URI, without credentials. */
    String uri() {
        return redis.uri();
    }

    /** Runs a command as the unrestricted {@code default} user, on the node that serves {@code key}. */
    String command(String key, String... args) {
        return redis.command(args);
    }

    /** Whether the server has a replica, so that a durable send with {@code replicas:1} is confirmed. */
    boolean replicated() {
        return false;
    }

    /** A plain Lettuce connection as {@link #USER}, closed after the test. */
    RedisClusterCommands<String, String> connectAsUser() {
        RedisClient client = RedisClient.create(access().redisUri());
        closeAfter(client::shutdown);
        return client.connect().sync();
    }

    void closeAfter(AutoCloseable closeable) {
        toClose.add(closeable);
    }

    RedisAccess access() {
        return RedisAccess.builder(uri()).username(USER).password(PASSWORD).build();
    }

    @Test
    void sendConsumeAckNackAndAdministerWithTheMinimalAcl() throws Exception {
        RmqEngine engine = open(new RmqEngine(access()).start());
        engine.ready().toCompletableFuture().get(10, TimeUnit.SECONDS);
        TopicDefinition topic = new TopicDefinition("orders", 4, TopicType.FIXED_TIME, PREFIX);
        TopicKeys keys = engine.registerTopic(topic).toCompletableFuture().get(10, TimeUnit.SECONDS);
        TopicProducer producer = engine.producer(keys);
        for (int i = 0; i < 10; i++) {
            producer.sendAt(bytes("order-" + i), Instant.now(), "order-" + i).toCompletableFuture().get(10, TimeUnit.SECONDS);
        }

        BlockingQueue<Delivery> received = new LinkedBlockingQueue<>();
        TopicConsumer consumer = engine.consumer(keys, ConsumerOptions.builder().maxRetries(0).build(), "acl-consumer");
        toClose.add(0, consumer);
        consumer.start(received::add);
        consumer.request(100);
        for (int i = 0; i < 10; i++) {
            Delivery d = received.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(d).as("delivery %d", i).isNotNull();
            if (text(d).equals("order-3")) {
                d.rollback(new IllegalStateException("nacked on purpose")).toCompletableFuture().get(10, TimeUnit.SECONDS);
            } else {
                d.commit().toCompletableFuture().get(10, TimeUnit.SECONDS);
            }
        }

        // a message sent later is woken through the restricted wake channel and consumed
        producer.sendAt(bytes("late"), Instant.now(), "late").toCompletableFuture().get(10, TimeUnit.SECONDS);
        Delivery late = received.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(late).isNotNull();
        late.commit().toCompletableFuture().get(10, TimeUnit.SECONDS);

        try (RmqAdmin admin = RmqAdmin.connect(access())) {
            assertThat(admin.topics(PREFIX)).extracting(TopicDefinition::name).containsExactly("orders");
            await().atMost(WAIT).until(() -> admin.stats(topic).inFlight() == 0 && admin.stats(topic).dead() == 1);
            assertThat(admin.dead(topic, DeadCursor.START, 10).messages()).hasSize(1);
            admin.pause(topic);
            assertThat(admin.stats(topic).paused()).isTrue();
            admin.resume(topic);
            assertThat(admin.requeueDead(topic, DeadSelection.all(), 1000)).isEqualTo(1);
            Delivery requeued = received.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(requeued).isNotNull();
            assertThat(text(requeued)).isEqualTo("order-3");
            requeued.rollback(new IllegalStateException("dead again")).toCompletableFuture().get(10, TimeUnit.SECONDS);
            await().atMost(WAIT).until(() -> admin.stats(topic).dead() == 1);
            AdminProgress progress = new AdminProgress();
            try (RecordedOperation recorded = admin.recordOperation(PREFIX, new AdminOperation("acl-op", "ops",
                    "purging dead messages", "orders", "selection: all", Instant.now(), 0, false), progress)) {
                assertThat(admin.operations(PREFIX)).extracting(AdminOperation::id).containsExactly("acl-op");
                assertThat(admin.cancelOperation(PREFIX, "acl-op")).isPresent();
                assertThat(admin.operations(PREFIX)).extracting(AdminOperation::stopping).containsExactly(true);
            }
            assertThat(admin.operations(PREFIX)).isEmpty();
            assertThat(admin.purgeDead(topic, DeadSelection.all())).isEqualTo(1);
            assertThat(admin.removePending(topic, bytes("nothing"), "nothing")).isFalse();
        }

        // the user may not run CONFIG GET: said once, not a failure
        log.await("saying the eviction policy could not be checked", m -> m.startsWith("RMQ-0143"), 1, WAIT);
        assertThat(log.messagesContaining("RMQ-0143")).hasSize(1);
        assertThat(log.messagesContaining("RMQ-0142")).isEmpty();
    }

    @Test
    void aUserCreatedWithTheListOfAnEarlierVersionStillConsumes() throws Exception {
        redis.aclSetUser(USER, "-zremrangebyrank"); // the minimal ACL before pop.lua removed popped members by rank
        RmqEngine engine = open(new RmqEngine(access()).start());
        engine.ready().toCompletableFuture().get(10, TimeUnit.SECONDS);
        TopicKeys keys = engine.registerTopic(new TopicDefinition("older", 1, TopicType.FIXED_TIME, PREFIX))
                .toCompletableFuture().get(10, TimeUnit.SECONDS);
        TopicProducer producer = engine.producer(keys);
        for (int i = 0; i < 10; i++) {
            producer.sendAt(bytes("job-" + i), Instant.now(), null).toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        BlockingQueue<Delivery> received = new LinkedBlockingQueue<>();
        TopicConsumer consumer = engine.consumer(keys, ConsumerOptions.builder().build(), "older-consumer");
        toClose.add(0, consumer);
        consumer.start(received::add);
        consumer.request(100);
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            Delivery d = received.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(d).as("delivery %d", i).isNotNull();
            texts.add(text(d));
            d.commit();
        }
        assertThat(texts).containsExactlyInAnyOrderElementsOf(IntStream.range(0, 10).mapToObj(i -> "job-" + i).toList());
        await().atMost(WAIT).until(() -> "0".equals(command(keys.slot(0).store(), "ZCARD", keys.slot(0).store()).trim())
                && "0".equals(command(keys.slot(0).prepare(), "ZCARD", keys.slot(0).prepare()).trim()));
        assertThat(command(keys.slot(0).store(), "ACL", "LOG")).as("pop.lua was refused ZREMRANGEBYRANK and removed by name")
                .contains("zremrangebyrank");
    }

    @Test
    void schedulesAreDeclaredTickedAndAdministeredWithTheMinimalAcl() throws Exception {
        RmqEngine engine = open(new RmqEngine(access()).start());
        engine.ready().toCompletableFuture().get(10, TimeUnit.SECONDS);
        TopicKeys keys = engine.registerTopic(new TopicDefinition("beats", 2, TopicType.FIXED_TIME, PREFIX))
                .toCompletableFuture().get(10, TimeUnit.SECONDS);
        engine.schedules().define(new ScheduleDefinition("beat", keys.topic(), bytes("beat"), null,
                ScheduleTiming.every("beat", "PT1S", "every"), MissedPolicy.SKIP, null)).toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        BlockingQueue<Delivery> received = new LinkedBlockingQueue<>();
        TopicConsumer consumer = engine.consumer(keys, ConsumerOptions.builder().build(), "acl-beats");
        toClose.add(0, consumer);
        consumer.start(received::add);
        consumer.request(100);
        toClose.add(0, engine.runSchedules(PREFIX, java.util.Set.of("beats")));

        Delivery tick = received.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(tick).as("a tick's message").isNotNull();
        assertThat(text(tick)).isEqualTo("beat");
        tick.commit().toCompletableFuture().get(10, TimeUnit.SECONDS);
        try (RmqAdmin admin = RmqAdmin.connect(access())) {
            assertThat(admin.schedules(PREFIX)).extracting(s -> s.definition().name()).containsExactly("beat");
            assertThat(admin.pauseSchedule(PREFIX, "beat").paused()).isTrue();
            assertThat(admin.resumeSchedule(PREFIX, "beat").paused()).isFalse();
            admin.removeSchedule(PREFIX, "beat");
            assertThat(admin.schedules(PREFIX)).isEmpty();
        }
    }

    @Test
    void rateLimitedConsumersAndALiveLimitWorkWithTheMinimalAcl() throws Exception {
        RmqEngine engine = open(new RmqEngine(access()).start());
        engine.ready().toCompletableFuture().get(10, TimeUnit.SECONDS);
        TopicDefinition topic = new TopicDefinition("limited", 2, TopicType.PRIORITY, PREFIX);
        TopicKeys keys = engine.registerTopic(topic).toCompletableFuture().get(10, TimeUnit.SECONDS);
        TopicProducer producer = engine.producer(keys);
        for (int i = 0; i < 5; i++) {
            producer.sendWithPriority(bytes("m" + i), 1, "m" + i).toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        BlockingQueue<Delivery> received = new LinkedBlockingQueue<>();
        TopicConsumer consumer = engine.consumer(keys, ConsumerOptions.builder()
                .rateLimit(new io.rmq.engine.consume.flow.FlowLimit(100, 0))
                .adaptiveSlowDown(io.rmq.engine.consume.flow.AdaptiveSlowDown.defaults()).build(), "acl-limited");
        toClose.add(0, consumer);
        consumer.start(received::add);
        consumer.request(100);
        for (int i = 0; i < 5; i++) {
            Delivery d = received.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(d).as("delivery %d", i).isNotNull();
            d.commit().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        try (RmqAdmin admin = RmqAdmin.connect(access())) {
            admin.setRateLimit(topic, 50, 0);
        }
        await().atMost(WAIT).until(() -> consumer.flowSettings().rate().orElse(0.0) == 50.0);
        assertThat(log.messagesContaining("RMQ-0600")).isEmpty();
    }

    @Test
    void durableSendsRunTheirWaitWithTheMinimalAcl() throws Exception {
        RmqEngine engine = open(new RmqEngine(access()).start());
        engine.ready().toCompletableFuture().get(10, TimeUnit.SECONDS);
        TopicKeys keys = engine.registerTopic(new TopicDefinition("audit", 2, TopicType.PRIORITY, PREFIX))
                .toCompletableFuture().get(10, TimeUnit.SECONDS);
        TopicProducer durable = engine.producer(keys,
                ProducerOptions.builder().durableReplicas(1).durabilityTimeout(Duration.ofMillis(200)).build());

        if (replicated()) {
            // WAIT is allowed: the replica confirms the send
            durable.sendWithPriority(bytes("entry"), 1, "entry").toCompletableFuture().get(10, TimeUnit.SECONDS);
            return;
        }
        // WAIT is allowed: with no replica attached it answers 0, and the send fails for want of replicas, not NOPERM
        assertThatThrownBy(() -> durable.sendWithPriority(bytes("entry"), 1, "entry").toCompletableFuture().join())
                .isInstanceOf(CompletionException.class).cause()
                .isInstanceOf(DurabilityException.class).hasMessageStartingWith("RMQ-0370");
    }

    @Test
    void theUserIsRefusedKeysChannelsAndTopicsOutsideItsPatterns() throws Exception {
        command("other:secret", "SET", "other:secret", "x");
        RedisClusterCommands<String, String> c = connectAsUser();
        assertThatThrownBy(() -> c.get("other:secret")).isInstanceOf(RedisCommandExecutionException.class)
                .hasMessageStartingWith("NOPERM");
        assertThatThrownBy(() -> c.zadd("other_0", 1, "m")).hasMessageStartingWith("NOPERM");
        assertThatThrownBy(() -> c.zadd("prepare{other_0}", 1, "m")).hasMessageStartingWith("NOPERM");
        assertThatThrownBy(() -> c.keys("*")).hasMessageStartingWith("NOPERM");
        assertThatThrownBy(() -> c.flushall()).hasMessageStartingWith("NOPERM");
        // EVAL itself is refused on one server; on a cluster the script's GET is
        assertThatThrownBy(() -> c.eval("return redis.call('GET', KEYS[1])",
                io.lettuce.core.ScriptOutputType.VALUE, "shop:x")).hasMessageMatching("(NOPERM|ERR The user executing the script can't run).*");
        assertThatThrownBy(() -> c.del("other:secret")).hasMessageStartingWith("NOPERM");
        assertThatThrownBy(() -> c.publish("rmq:wake:other:orders", "0:0")).hasMessageStartingWith("NOPERM");
        assertThat(c.publish("rmq:wake:shop:orders", "0:0")).isZero();
        refusedOnOtherShardedChannels(c);

        // the engine with this user cannot use a topic of another prefix
        RmqEngine engine = open(new RmqEngine(access()).start());
        engine.ready().toCompletableFuture().get(10, TimeUnit.SECONDS);
        TopicDefinition foreign = new TopicDefinition("orders", 1, TopicType.PRIORITY, "other:");
        assertThatThrownBy(() -> engine.registerTopic(foreign).toCompletableFuture().join())
                .isInstanceOf(CompletionException.class).hasMessageContaining("NOPERM");
        assertThat(command("other:rmq:topics", "EXISTS", "other:rmq:topics")).isEqualTo("0");
        assertThat(command("other:secret", "GET", "other:secret")).isEqualTo("x");
    }

    /** On a cluster: the sharded wake channels of another prefix are refused. Nothing to check on one server. */
    void refusedOnOtherShardedChannels(RedisClusterCommands<String, String> c) {
    }

    RmqEngine open(RmqEngine engine) {
        toClose.add(engine);
        return engine;
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String text(Delivery d) {
        return new String(d.content(), StandardCharsets.UTF_8);
    }
}
