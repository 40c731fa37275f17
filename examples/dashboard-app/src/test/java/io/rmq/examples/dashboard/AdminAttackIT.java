package io.rmq.examples.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.topic.SlotRouter;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;

/**
 * The admin endpoints and the dashboard of the running application (started by the POM in Open Liberty),
 * attacked as a client on loopback would: unknown paths and methods, forged audit lines, bad and hostile
 * bodies, TRACE. Each test checks the answer, the server's log and Redis. The workload is the test's own
 * topic {@value #TOPIC}, whose every message dies on its first delivery.
 */
class AdminAttackIT {

    static final String TOPIC = "attack-check";
    static final String PREFIX = ExampleTopic.PREFIX;
    static final String ADMIN = "/rmq/admin/topics/" + TOPIC;
    static final Duration WAIT = Duration.ofSeconds(60);
    /** A frame of a Java stack trace, as Liberty writes it. */
    static final Pattern STACK_FRAME = Pattern.compile("(?m)^\\s+at [\\w$.]+\\(");
    /** What a header must not name: the runtime's classes and exceptions. */
    static final Pattern INTERNAL = Pattern.compile("(?i)exception|resteasy|com\\.ibm|io\\.openliberty|\\bjava\\.");

    static AdminClient client;
    static ServerLog log;
    static ExampleTopic topic;
    static TopicKeys keys;
    static TopicProducer producer;
    static TopicConsumer consumer;
    static RedisCommands<String, String> redis;

    @BeforeAll
    static void workload() throws Exception {
        topic = ExampleTopic.record(TOPIC, 2);
        client = topic.client;
        log = topic.log;
        keys = topic.keys;
        redis = topic.redis;
        producer = topic.engine.producer(keys);
        consumer = topic.engine.consumer(keys, ConsumerOptions.builder().maxRetries(0).prepareTimeout(Duration.ofSeconds(10))
                .retryBackoff(Duration.ofMillis(100)).build(), "attack-check-consumer");
        consumer.start(d -> d.rollback(new IllegalStateException("always fails")));
        consumer.request(Long.MAX_VALUE);
    }

    @AfterAll
    static void close() {
        if (consumer != null) {
            consumer.close();
        }
        if (topic != null) {
            topic.close();
        }
    }

    @Test
    void unknownPathsAndMethodsAnswerQuietly() throws Exception {
        long mark = log.mark();
        for (int i = 0; i < 10; i++) {
            for (HttpRequest request : List.of(
                    client.anonymous("/rmq/nope-" + i).GET().build(),
                    client.anonymous("/rmq/admin/nope").GET().build(),
                    client.anonymous("/rmq/admin/topics").PUT(HttpRequest.BodyPublishers.noBody()).build(),
                    client.anonymous("/rmq/admin/topics").method("DELETE", HttpRequest.BodyPublishers.noBody()).build())) {
                HttpResponse<String> response = client.send(request);
                assertThat(response.statusCode()).as("%s %s", request.method(), request.uri()).isEqualTo(401);
                assertNoInternals(response);
            }
            for (HttpRequest request : List.of(
                    client.asOps("/rmq/nope-" + i).GET().build(),
                    client.asOps("/rmq/admin/nope/deeper").GET().build(),
                    client.asOps("/rmq/admin/topics").PUT(HttpRequest.BodyPublishers.noBody()).build(),
                    client.asOps("/rmq/dashboard/nope").GET().build(),
                    client.asOps("/rmq/dashboard/").method("PATCH", HttpRequest.BodyPublishers.noBody()).build(),
                    client.asOps("/rmq/admin/topics").header("Accept", "*/*; q=x").GET().build())) {
                HttpResponse<String> response = client.send(request);
                assertThat(response.statusCode()).as("%s %s", request.method(), request.uri()).isIn(400, 404, 405);
                assertNoInternals(response);
            }
        }
        String written = fenced(mark);
        assertThat(written).doesNotContain("CWPMI2006W");
        assertThat(STACK_FRAME.matcher(written).find()).as("a stack trace in the log:%n%s", written).isFalse();
    }

    @Test
    void auditLinesCannotBeForged() throws Exception {
        long mark = log.mark();
        String forged = "zz'\r\n[11/28/26, 1:00:00:000 UTC] 0000004a io.rmq.admin.rest I RMQ-0951 RMQ admin: "
                + "user 'mallory' resumed consumption on topic 'orders': its slot";
        assertThat(client.post(ADMIN + "/dead/purge", "{\"contains\":" + quoted(forged) + "}").statusCode()).isEqualTo(200);
        assertThat(client.post(ADMIN + "/dead/purge", "{\"contains\":\"" + "y".repeat(1_000_000) + "\"}").statusCode())
                .isLessThan(500);
        String written = fenced(mark);
        for (String line : written.split("[\r\n]")) {
            if (line.contains("RMQ-0951")) {
                assertThat(line).contains("user 'ops'");
            }
            assertThat(line.length()).as("a log line's length").isLessThan(2048);
        }
    }

    @Test
    void tenantNamesCannotForgeAuditLinesOrKeys() throws Exception {
        String flow = keys.flow();
        long mark = log.mark();
        for (String tenant : List.of("zz%0D%0A%5B11%2F28%2F26%5D%20RMQ-0951%20user%20'mallory'", "%00", "x".repeat(201))) {
            HttpResponse<String> refused = client.send(client.asOps(ADMIN + "/flow/weights/" + tenant)
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"weight\":2}")).build());
            assertThat(refused.statusCode()).as(tenant).isEqualTo(400);
            assertNoInternals(refused);
        }
        assertThat(redis.exists(flow)).isZero();

        HttpResponse<String> set = client.send(client.asOps(ADMIN + "/flow/weights/acme%7D%7B'%22%25x%C3%A9")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"weight\":2}")).build());
        try {
            assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
            assertThat(redis.hkeys(flow)).contains("w:acme}{'\"%x\u00e9");
            await().atMost(WAIT).until(() -> log.since(mark).contains("user 'ops' set a tenant's weight on topic '" + TOPIC));
            for (String line : fenced(mark).split("[\r\n]")) {
                if (line.contains("RMQ-0951")) {
                    assertThat(line).contains("user 'ops'");
                }
                assertThat(line).doesNotContain("mallory");
            }
        } finally {
            redis.del(flow);
        }
    }

    @Test
    void duplicateMembersCountOnce() throws Exception {
        dead("dup-1");
        long mark = log.mark();
        HttpResponse<String> response = client.post(ADMIN + "/dead/purge", "{\"members\":[\"dup-1\",\"dup-1\",\"dup-1\"]}");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(AdminClient.json(response.body()).getJsonNumber("count").longValue()).isEqualTo(1);
        assertThat(AdminClient.json(response.body()).getString("selection")).isEqualTo("1 member");
        assertThat(fenced(mark)).contains("user 'ops' purged dead messages on topic '" + TOPIC + "': 1 ");
    }

    @Test
    void aChangeIsAuditedWhenItStartsAndWhenItEnds() throws Exception {
        dead("slow-1", "slow-2", "slow-3");
        long mark = log.mark();
        CompletableFuture<HttpResponse<String>> requeue = postAsync(ADMIN + "/dead/requeue",
                "{\"members\":[\"slow-1\",\"slow-2\",\"slow-3\"],\"rate\":1}");
        await().atMost(WAIT).until(() -> log.since(mark).contains("user 'ops' started requeuing dead messages on topic '"
                + TOPIC + "'"));
        assertThat(requeue).as("audited before it ends").isNotDone();
        assertThat(requeue.get().statusCode()).isEqualTo(200);
        await().atMost(WAIT).until(() -> log.since(mark).contains("user 'ops' requeued dead messages on topic '"
                + TOPIC + "': 3 "));
    }

    @Test
    void topicNamesAURLPathCannotCarryAreRefusedAndNeverListed() throws Exception {
        assertThatThrownBy(() -> new TopicDefinition("..", 1, TopicType.FIXED_TIME, PREFIX))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TopicDefinition(".", 1, TopicType.FIXED_TIME, PREFIX))
                .isInstanceOf(IllegalArgumentException.class);
        String registry = TopicKeys.registryKey(PREFIX);
        redis.hset(registry, Map.of("..", "FIXED_TIME:1", ".", "FIXED_TIME:1"));
        try {
            JsonObject topics = client.topics();
            List<String> names = topics.getJsonArray("topics").stream()
                    .map(t -> t.asJsonObject().getString("name")).toList();
            assertThat(names).contains(TOPIC).doesNotContain(".", "..");
            for (String name : names) {
                assertThat(client.get("/rmq/admin/topics/" + name + "/stats").statusCode()).as(name).isEqualTo(200);
            }
        } finally {
            redis.hdel(registry, "..", ".");
        }
    }

    @Test
    void traceIsRefusedEverywhere() throws Exception {
        for (String path : List.of("/rmq/dashboard/", "/rmq/dashboard/api/config", "/rmq/admin/topics", "/")) {
            HttpResponse<String> response = client.send(client.asOps(path).header("Cookie", "session=cookie-secret")
                    .method("TRACE", HttpRequest.BodyPublishers.noBody()).build());
            assertThat(response.statusCode()).as("TRACE %s", path).isNotEqualTo(200);
            assertThat(response.body()).as("TRACE %s", path).doesNotContain("cookie-secret").doesNotContain("Basic ");
        }
    }

    @Test
    void badInputsAnswer400AndLogNoStackTrace() throws Exception {
        long mark = log.mark();
        assertBad(client.post(ADMIN + "/dead/purge", "{\"diedBefore\":\"+999999999-12-31T23:59:59Z\",\"dryRun\":true}"));
        assertBad(client.post(ADMIN + "/dead/requeue", "{\"all\":true,\"dryRun\":true,\"rate\":" + "9".repeat(1_000_000) + "}"));
        assertBad(client.post(ADMIN + "/dead/requeue", "{\"all\":true,\"dryRun\":true,\"rate\":" + "9".repeat(20_000) + "}"));
        assertBad(client.post(ADMIN + "/dead/purge", "[".repeat(500_000)));
        assertBad(client.post(ADMIN + "/dead/purge", "{\"members\":" + "[".repeat(20_000) + "]".repeat(20_000) + "}"));
        assertBad(client.get(ADMIN + "/dead?cursor=0:9223372036854775807"));
        assertBad(client.get(ADMIN + "/dead?cursor=1:9007199254740993"));
        String written = fenced(mark);
        assertThat(STACK_FRAME.matcher(written).find()).as("a stack trace in the log:%n%s", written).isFalse();
    }

    @Test
    void jsonIsReadStrictly() throws Exception {
        dead("strict-1");
        String slotDead = keys.slot(slotOf("strict-1")).dead();
        assertBad(client.post(ADMIN + "/dead/purge", "{\"members\":[\"strict-1\"],\"dryRun\":true,\"dryRun\":false}"));
        assertBad(client.post(ADMIN + "/dead/purge", "{\"members\":[\"strict-1\"],\"dryRun\":true} {\"dryRun\":false}"));
        assertBad(client.post(ADMIN + "/dead/purge", "{\"members\":[\"strict-1\"],\"dryRun\":true} trailing"));
        assertThat(redis.zscore(slotDead, "strict-1")).as("still dead").isNotNull();
    }

    @Test
    void loneSurrogatesAreRefused() throws Exception {
        assertBad(client.post(ADMIN + "/dead/purge", "{\"contains\":\"a*b\\ud800c\",\"dryRun\":true}"));
        assertBad(client.post(ADMIN + "/dead/purge", "{\"members\":[\"x\\udc00\"],\"dryRun\":true}"));
        assertBad(client.post(ADMIN + "/pending/remove", "{\"content\":\"\\ud800\"}"));
    }

    @Test
    void aLongRequeueIsListedAndCanBeCancelled() throws Exception {
        List<String> members = List.of("cancel-1", "cancel-2", "cancel-3", "cancel-4", "cancel-5", "cancel-6");
        dead(members.toArray(String[]::new));
        long mark = log.mark();
        CompletableFuture<HttpResponse<String>> requeue = postAsync(ADMIN + "/dead/requeue",
                "{\"members\":" + Json.createArrayBuilder(members).build() + ",\"rate\":1}");
        String[] id = new String[1];
        await().atMost(WAIT).until(() -> {
            List<JsonObject> listed = AdminClient.json(client.get("/rmq/admin/operations").body()).getJsonArray("operations")
                    .getValuesAs(JsonObject.class);
            listed.stream().filter(o -> o.getString("topic").equals(TOPIC)).findFirst().ifPresent(o -> id[0] = o.getString("id"));
            return id[0] != null;
        });
        HttpResponse<String> cancelled = client.post("/rmq/admin/operations/" + id[0] + "/cancel", "");
        assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(200);
        HttpResponse<String> answer = requeue.get();
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(AdminClient.json(answer.body()).getJsonNumber("count").longValue()).isLessThan(members.size());
        await().atMost(WAIT).until(() -> log.since(mark).contains("user 'ops' stopped requeuing dead messages on topic '"
                + TOPIC + "'"));
        assertThat(AdminClient.json(client.get("/rmq/admin/operations").body()).getJsonArray("operations").toString())
                .doesNotContain(id[0]);
        assertThat(client.post("/rmq/admin/operations/" + id[0] + "/cancel", "").statusCode()).isEqualTo(404);
    }

    @Test
    void theRateBoundsAllRequeuesOfATopicTogether() throws Exception {
        dead("rate-1", "rate-2", "rate-3", "rate-4", "rate-5", "rate-6");
        long started = System.nanoTime();
        CompletableFuture<HttpResponse<String>> first = postAsync(ADMIN + "/dead/requeue",
                "{\"members\":[\"rate-1\",\"rate-2\",\"rate-3\"],\"rate\":2}");
        CompletableFuture<HttpResponse<String>> second = postAsync(ADMIN + "/dead/requeue",
                "{\"members\":[\"rate-4\",\"rate-5\",\"rate-6\"],\"rate\":2}");
        assertThat(first.get().statusCode()).isEqualTo(200);
        assertThat(second.get().statusCode()).isEqualTo(200);
        // 6 messages at 2/s for both together, the first second's 2 at once: at least 2 s (each on its own pacer: 0.5 s)
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(1900));
    }

    @Test
    void answersAreNotCachedAndABasicLoginLeavesNoSessionCookie() throws Exception {
        for (HttpResponse<String> response : List.of(client.get("/rmq/admin/topics"), client.get(ADMIN + "/stats"),
                client.get("/rmq/admin/topics/no-such-topic/stats"), client.get("/rmq/dashboard/api/config"))) {
            assertThat(response.headers().firstValue("Cache-Control")).as(response.uri().toString()).hasValue("no-store");
            assertThat(response.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
            assertThat(response.headers().allValues("Set-Cookie")).as("cookies of %s", response.uri()).isEmpty();
        }
    }

    // ---- helpers -------------------------------------------------------------------------------------------

    /** Refused with 400 (or 413 for a body over the bound), saying nothing of scripts or classes. */
    private static void assertBad(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isIn(400, 413);
        assertThat(response.body()).doesNotContain("user_script").doesNotContain("Exception");
        assertThat(response.body().length()).as("the answer's length").isLessThan(2048);
        assertNoInternals(response);
    }

    private static void assertNoInternals(HttpResponse<String> response) {
        response.headers().map().forEach((name, values) -> values.forEach(value -> assertThat(INTERNAL.matcher(name + ": "
                + value).find()).as("header %s: %s", name, value).isFalse()));
    }

    /**
     * What the log holds after {@code mark} once the requests before have been handled: an audited change (a
     * resume of the test's topic) is made and waited for in the log, so what they logged is there too.
     */
    private static String fenced(long mark) throws Exception {
        assertThat(client.post(ADMIN + "/resume", "").statusCode()).isEqualTo(200);
        await().atMost(WAIT).until(() -> log.since(mark).contains("resumed consumption on topic '" + TOPIC + "'"));
        return log.since(mark);
    }

    private static CompletableFuture<HttpResponse<String>> postAsync(String path, String body) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return client.post(path, body);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** Sends {@code contents} due now and waits until each is dead. */
    private static void dead(String... contents) throws Exception {
        for (String content : contents) {
            producer.sendAt(content.getBytes(StandardCharsets.UTF_8), Instant.now(), null).toCompletableFuture().get();
        }
        await().atMost(WAIT).until(() -> List.of(contents).stream()
                .allMatch(c -> redis.zscore(keys.slot(slotOf(c)).dead(), c) != null));
    }

    private static int slotOf(String member) {
        return SlotRouter.slotOf(null, member.getBytes(StandardCharsets.UTF_8), 2);
    }

    private static String quoted(String text) {
        return Json.createValue(text).toString();
    }
}
