package io.rmq.examples.liberty;

import static io.rmq.examples.liberty.TopicState.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.StringReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.rmq.engine.topic.SlotRouter;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.examples.story.OrderTimeouts;

/**
 * The admin endpoints of {@code io.rmq:rmq-admin-rest} in the Liberty example, over HTTP, as an
 * operator uses them: the build starts the example in Open Liberty (its server.xml maps the user
 * {@code ops} to the role {@code rmq-admin}, {@code viewer} to none), this test builds known states in
 * the example's Redis through the engine (messages sent, some dead, a paused topic) on topics of its
 * own, and checks each answer's JSON and Redis afterwards. The Redis is the one the endpoints report.
 */
class AdminRestIT {

    private static final String BASE = System.getProperty("rmq.example.url", "http://localhost:9080");
    private static final String ADMIN = BASE + "/rmq/admin";
    /** The users of src/main/liberty/config/server.xml. */
    private static final String OPS = basic("ops", "ops-secret");
    private static final String VIEWER = basic("viewer", "viewer-secret");
    /** The key prefix of the example (META-INF/microprofile-config.properties), which the endpoints use too. */
    private static final String PREFIX = "rmq-liberty-example:";
    private static final Duration WAIT = Duration.ofSeconds(30);

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private static String redisUri;
    private static TopicState state;
    private static RedisClient redisClient;
    private static StatefulRedisConnection<byte[], byte[]> binary;
    private static RedisCommands<String, String> redis;

    @BeforeAll
    static void connectToTheExamplesRedis() throws Exception {
        Files.deleteIfExists(configOverride()); // left over by an interrupted run
        // the server reports the application started a moment before its context root answers; on a loaded
        // machine the first request can fall in between, and a removed override takes a configuration update
        await().atMost(WAIT).ignoreExceptions().until(() -> call("GET", "/topics", OPS, null).statusCode() == 200);
        HttpResponse<String> topics = call("GET", "/topics", OPS, null);
        assertThat(topics.statusCode()).as(topics.body()).isEqualTo(200);
        redisUri = json(topics).getString("redis");
        state = new TopicState(redisUri);
        redisClient = RedisClient.create(redisUri);
        binary = redisClient.connect(ByteArrayCodec.INSTANCE);
        redis = redisClient.connect().sync();
    }

    @AfterAll
    static void close() {
        if (state != null) {
            state.close();
        }
        if (redisClient != null) {
            redisClient.shutdown();
        }
    }

    @Test
    void aChangeWithoutTheClientHeaderIsRefusedAsPossiblyCrossSite() throws Exception {
        // what a form of another site can make a logged-in browser send: credentials, a plain body, no custom header
        HttpResponse<String> forged = send("POST", ADMIN + "/topics/tasks/pause", OPS, "{}", false);
        assertThat(forged.statusCode()).isEqualTo(403);
        assertThat(forged.body()).contains("RMQ-0930").contains("X-Requested-By");
        assertThat(stats("tasks").getJsonObject("totals").getBoolean("paused")).as("nothing changed").isFalse();
        assertThat(send("GET", ADMIN + "/topics", OPS, null, false).statusCode()).as("reads need no header").isEqualTo(200);
    }

    @Test
    void onlyTheRoleRmqAdminGetsIn() throws Exception {
        HttpResponse<String> anonymous = call("GET", "/topics", null, null);
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.headers().firstValue("WWW-Authenticate")).get().asString().startsWith("Basic");
        assertThat(call("GET", "/topics", basic("ops", "wrong"), null).statusCode()).isEqualTo(401);
        assertThat(call("POST", "/topics/tasks/pause", null, null).statusCode()).isEqualTo(401);

        assertThat(call("GET", "/topics", VIEWER, null).statusCode()).as("logged in, not in the role").isEqualTo(403);
        assertThat(call("POST", "/topics/tasks/pause", VIEWER, null).statusCode()).isEqualTo(403);
        assertThat(stats("tasks").getJsonObject("totals").getBoolean("paused")).as("nothing changed").isFalse();

        assertThat(call("GET", "/topics", OPS, null).statusCode()).isEqualTo(200);
        // the example's own application (/api) serves every resource of the WAR, the admin resource too: not there
        HttpResponse<String> elsewhere = send("GET", BASE + "/api/admin/topics", OPS, null);
        assertThat(elsewhere.statusCode()).isEqualTo(404);
        assertThat(json(elsewhere).getString("message")).startsWith("RMQ-0916 ");
    }

    @Test
    void topicsAndStatsPerSlotAndInTotal() throws Exception {
        TopicKeys keys = state.register(new TopicDefinition("admin-it-stats", 4, TopicType.FIXED_TIME, PREFIX));
        state.killed(keys, "order already closed", List.of(utf8("close:dead"))); // first: its consumer takes all that is due
        int deadSlot = SlotRouter.slotOf(null, utf8("close:dead"), 4);
        int laterSlot = state.sendAt(keys, utf8("close:later"), Instant.now().plus(Duration.ofHours(1)), "later").slot();
        int dueSlot = state.sendAt(keys, utf8("close:due"), Instant.now().minusSeconds(5), "due").slot();

        JsonObject topics = json(call("GET", "/topics", OPS, null));
        assertThat(topics.getString("redis")).startsWith("redis://127.0.0.1:");
        assertThat(topics.getString("keyPrefix")).isEqualTo(PREFIX);
        assertThat(topics.getString("registry")).isEqualTo(PREFIX + "rmq:topics");
        assertThat(topics.getJsonArray("topics")).contains(
                Json.createObjectBuilder().add("name", "admin-it-stats").add("type", "FIXED_TIME").add("slotAmount", 4).build(),
                Json.createObjectBuilder().add("name", "tasks").add("type", "PRIORITY").add("slotAmount", 1).build());

        JsonObject stats = stats("admin-it-stats");
        assertThat(stats.getString("type")).isEqualTo("FIXED_TIME");
        assertThat(stats.getInt("slotAmount")).isEqualTo(4);
        JsonObject totals = stats.getJsonObject("totals");
        assertThat(totals.getInt("pending")).isEqualTo(2);
        assertThat(totals.getInt("due")).isEqualTo(1);
        assertThat(totals.getJsonNumber("oldestDueAgeMillis").longValue()).as("due 5 s ago").isBetween(4_000L, 60_000L);
        assertThat(totals.getInt("inFlight")).isZero();
        assertThat(totals.getInt("dead")).isEqualTo(1);
        assertThat(totals.getBoolean("paused")).isFalse();
        for (int slot = 0; slot < 4; slot++) {
            JsonObject s = stats.getJsonArray("slots").getJsonObject(slot);
            assertThat(s.getInt("slot")).isEqualTo(slot);
            assertThat(s.getJsonNumber("pending").longValue()).as("slot %d pending", slot).isEqualTo(redis.zcard(keys.slot(slot).store()));
            assertThat(s.getJsonNumber("dead").longValue()).as("slot %d dead", slot).isEqualTo(redis.zcard(keys.slot(slot).dead()));
            assertThat(s.getInt("due")).isEqualTo(slot == dueSlot ? 1 : 0);
            assertThat(s.get("owner")).as("no serial consumption").isEqualTo(JsonValue.NULL);
        }
        assertThat(redis.zcard(keys.slot(laterSlot).store())).isPositive();
        assertThat(redis.zcard(keys.slot(deadSlot).dead())).isEqualTo(1);
    }

    @Test
    void deadMessagesArePagedRequeuedAndPurged() throws Exception {
        TopicKeys keys = state.register(new TopicDefinition("admin-it-dead", 4, TopicType.FIXED_TIME, PREFIX));
        byte[] blob = {'b', 'l', 'o', 'b', 0, (byte) 0xfe};
        List<byte[]> contents = List.of(utf8("close:1001"), utf8("close:1002"), utf8("close:1003"), blob);
        state.killed(keys, "order is already closed", contents);
        String blob64 = Base64.getEncoder().encodeToString(blob);

        // paging: two at a time, following "next" until it is null
        List<JsonObject> listed = new ArrayList<>();
        String cursor = "0:0";
        while (cursor != null) {
            JsonObject page = json(call("GET", "/topics/admin-it-dead/dead?limit=2&cursor=" + cursor, OPS, null));
            assertThat(page.getString("cursor")).isEqualTo(cursor);
            assertThat(page.getJsonArray("messages").size()).isLessThanOrEqualTo(2);
            page.getJsonArray("messages").forEach(m -> listed.add(m.asJsonObject()));
            cursor = page.isNull("next") ? null : page.getString("next");
        }
        assertThat(listed).hasSize(4);
        assertThat(listed).extracting(m -> m.getString("contentBase64")).containsExactlyInAnyOrderElementsOf(
                contents.stream().map(c -> Base64.getEncoder().encodeToString(c)).toList());
        for (JsonObject m : listed) {
            byte[] content = Base64.getDecoder().decode(m.getString("contentBase64"));
            assertThat(m.getInt("slot")).isEqualTo(SlotRouter.slotOf(null, content, 4));
            assertThat(m.getInt("deliveries")).isEqualTo(1);
            assertThat(m.getString("lastFailure")).isEqualTo("java.lang.IllegalStateException: order is already closed");
            assertThat(Instant.parse(m.getString("diedAt"))).isBefore(Instant.now().plusSeconds(60));
            if (m.getString("contentBase64").equals(blob64)) {
                assertThat(m.get("content")).as("not UTF-8").isEqualTo(JsonValue.NULL);
            } else {
                assertThat(utf8(m.getString("content"))).isEqualTo(content);
            }
        }

        // requeue: the dry run counts and changes nothing; the binary member goes back to its store queue
        JsonObject dry = json(call("POST", "/topics/admin-it-dead/dead/requeue", OPS, "{\"contains\":\"close:\",\"dryRun\":true}"));
        assertThat(dry.getString("action")).isEqualTo("requeue");
        assertThat(dry.getString("selection")).isEqualTo("content contains 'close:'");
        assertThat(dry.getBoolean("dryRun")).isTrue();
        assertThat(dry.getInt("count")).isEqualTo(3);
        assertThat(dry.getInt("ratePerSecond")).isEqualTo(100);
        assertThat(deadCount(keys)).isEqualTo(4);

        JsonObject requeued = json(call("POST", "/topics/admin-it-dead/dead/requeue", OPS,
                "{\"membersBase64\":[\"" + blob64 + "\"],\"rate\":10}"));
        assertThat(requeued.getInt("count")).isEqualTo(1);
        assertThat(requeued.getString("selection")).isEqualTo("1 member");
        assertThat(requeued.getInt("ratePerSecond")).isEqualTo(10);
        int blobSlot = SlotRouter.slotOf(null, blob, 4);
        assertThat(binary.sync().zscore(utf8(keys.slot(blobSlot).dead()), blob)).as("left the dead queue").isNull();
        assertThat(binary.sync().zscore(utf8(keys.slot(blobSlot).store()), blob)).as("pending again").isNotNull();
        assertThat(deadCount(keys)).isEqualTo(3);

        // purge: dry run, then by content, then by age
        JsonObject dryPurge = json(call("POST", "/topics/admin-it-dead/dead/purge", OPS, "{\"all\":true,\"dryRun\":true}"));
        assertThat(dryPurge.getInt("count")).isEqualTo(3);
        assertThat(dryPurge.get("ratePerSecond")).isEqualTo(JsonValue.NULL);
        assertThat(deadCount(keys)).isEqualTo(3);
        assertThat(json(call("POST", "/topics/admin-it-dead/dead/purge", OPS, "{\"members\":[\"close:1002\"]}")).getInt("count"))
                .isEqualTo(1);
        int slot1002 = SlotRouter.slotOf(null, utf8("close:1002"), 4);
        assertThat(redis.zscore(keys.slot(slot1002).dead(), "close:1002")).isNull();
        assertThat(json(call("POST", "/topics/admin-it-dead/dead/purge", OPS, "{\"diedBefore\":\"2020-01-01T00:00:00Z\"}"))
                .getInt("count")).as("none died that early").isZero();
        assertThat(json(call("POST", "/topics/admin-it-dead/dead/purge", OPS, "{\"olderThan\":\"0s\"}")).getInt("count"))
                .isEqualTo(2);
        assertThat(deadCount(keys)).isZero();
        assertThat(json(call("GET", "/topics/admin-it-dead/dead", OPS, null)).getJsonArray("messages")).isEmpty();
    }

    @Test
    void aPendingMessageIsMadeDueOrRemoved() throws Exception {
        TopicKeys keys = state.register(new TopicDefinition("admin-it-pending", 4, TopicType.FIXED_TIME, PREFIX));
        Instant later = Instant.now().plus(Duration.ofHours(2));
        int slot2002 = state.sendAt(keys, utf8("close:2002"), later, "2002").slot();
        int slot2003 = state.sendAt(keys, utf8("close:2003"), later, "2003").slot();

        JsonObject due = json(call("POST", "/topics/admin-it-pending/pending/due-now", OPS,
                "{\"content\":\"close:2003\",\"slotBasis\":\"2003\"}"));
        assertThat(due).isEqualTo(Json.createObjectBuilder().add("topic", "admin-it-pending").add("action", "due-now")
                .add("slot", slot2003).add("pending", true).build());
        long redisNowMillis = Long.parseLong(redis.time().get(0)) * 1000;
        assertThat(redis.zscore(keys.slot(slot2003).store(), "close:2003")).as("due now (Redis clock)")
                .isLessThanOrEqualTo(redisNowMillis + 1000.0);
        assertThat(stats("admin-it-pending").getJsonObject("totals").getInt("due")).isEqualTo(1);

        String base64 = Base64.getEncoder().encodeToString(utf8("close:2002"));
        JsonObject removed = json(call("POST", "/topics/admin-it-pending/pending/remove", OPS,
                "{\"contentBase64\":\"" + base64 + "\",\"slotBasis\":\"2002\"}"));
        assertThat(removed.getInt("slot")).isEqualTo(slot2002);
        assertThat(removed.getBoolean("pending")).isTrue();
        assertThat(redis.zscore(keys.slot(slot2002).store(), "close:2002")).isNull();

        JsonObject again = json(call("POST", "/topics/admin-it-pending/pending/remove", OPS,
                "{\"content\":\"close:2002\",\"slotBasis\":\"2002\"}"));
        assertThat(again.getBoolean("pending")).as("nothing left to remove").isFalse();
        assertThat(stats("admin-it-pending").getJsonObject("totals").getInt("pending")).isEqualTo(1);
    }

    @Test
    void pauseHoldsTheExamplesConsumersAndResumeLetsThemGo() throws Exception {
        TopicKeys keys = new TopicKeys(new TopicDefinition(OrderTimeouts.TOPIC, 4, TopicType.FIXED_TIME, PREFIX));
        try {
            JsonObject paused = json(call("POST", "/topics/order-timeouts/pause", OPS, null));
            assertThat(paused).isEqualTo(Json.createObjectBuilder().add("topic", "order-timeouts").add("slots", 4)
                    .add("paused", true).build());
            for (int slot = 0; slot < 4; slot++) {
                assertThat(redis.exists(keys.slot(slot).paused())).as("slot %d paused", slot).isEqualTo(1);
            }
            // due at once, but nobody may pop it while the topic is paused
            assertThat(send("POST", BASE + "/api/orders/admin-paused/timeout?delayMs=0", null, null).statusCode()).isEqualTo(202);
            int slot = SlotRouter.slotOf("admin-paused", utf8("close-unpaid:admin-paused"), 4);
            JsonObject stats = stats("order-timeouts");
            assertThat(stats.getJsonObject("totals").getBoolean("paused")).isTrue();
            assertThat(stats.getJsonObject("totals").getInt("pausedSlots")).isEqualTo(4);
            assertThat(stats.getJsonArray("slots").getJsonObject(slot).getInt("due")).isEqualTo(1);
            assertThat(redis.zscore(keys.slot(slot).store(), "close-unpaid:admin-paused")).isNotNull();

            JsonObject resumed = json(call("POST", "/topics/order-timeouts/resume", OPS, null));
            assertThat(resumed.getBoolean("paused")).isFalse();
            assertThat(redis.exists(keys.slot(0).paused(), keys.slot(1).paused(), keys.slot(2).paused(), keys.slot(3).paused()))
                    .isZero();
            await().atMost(WAIT).until(() -> send("GET", BASE + "/api/received", null, null).body()
                    .contains("\"payload\":\"close-unpaid:admin-paused\""));
        } finally {
            call("POST", "/topics/order-timeouts/resume", OPS, null);
        }
    }

    @Test
    void errorsAreAnsweredWithJson() throws Exception {
        HttpResponse<String> unknown = call("GET", "/topics/no-such-topic/stats", OPS, null);
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.headers().firstValue("Content-Type")).get().asString().startsWith("application/json");
        JsonObject error = json(unknown);
        assertThat(error.getInt("status")).isEqualTo(404);
        assertThat(error.getString("error")).isEqualTo("Not Found");
        assertThat(error.getString("message")).startsWith("RMQ-0312 Topic 'no-such-topic' is not recorded in hash '"
                + PREFIX + "rmq:topics'").contains("tasks");
        assertThat(call("POST", "/topics/no-such-topic/dead/purge", OPS, "{\"all\":true}").statusCode()).isEqualTo(404);

        assertBadRequest(call("GET", "/topics/tasks/dead?limit=0", OPS, null), "RMQ-0910 'limit' must be a whole number");
        assertBadRequest(call("GET", "/topics/tasks/dead?cursor=1:0", OPS, null), "RMQ-0911 'cursor' must be <slot>:<offset>");
        assertBadRequest(call("POST", "/topics/tasks/dead/purge", OPS, "{\"all\":true,\"dryrun\":true}"),
                "RMQ-0903 Unknown member 'dryrun'");
        assertBadRequest(call("POST", "/topics/tasks/dead/requeue", OPS, "{\"all\":true,\"olderThan\":\"1h\"}"),
                "RMQ-0905 Give exactly one selection");
        assertBadRequest(call("POST", "/topics/tasks/dead/requeue", OPS, "{\"all\":true,\"rate\":0}"),
                "RMQ-0910 'rate' must be a whole number from 1");
        assertBadRequest(call("POST", "/topics/tasks/pending/remove", OPS, "{\"contentBase64\":\"%%\"}"),
                "RMQ-0907 'contentBase64' must be Base64");
        assertBadRequest(call("POST", "/topics/tasks/pending/due-now", OPS, "not json"),
                "RMQ-0902 The request body must be a JSON object");
    }

    /**
     * The endpoints read their configuration on every request: a server.xml variable (a dynamic
     * MicroProfile Config source on Liberty, above microprofile-config.properties) turns them off, or
     * points them at a Redis that is not there, without a restart.
     */
    @Test
    void offOrUnreachableThroughTheConfigurationWithoutARestart() throws Exception {
        Path override = configOverride();
        try {
            writeOverride(override, "rmq.admin.enabled", "false");
            await().atMost(WAIT).until(() -> call("GET", "/topics", OPS, null).statusCode() == 404);
            HttpResponse<String> off = call("GET", "/topics", null, null);
            assertThat(off.statusCode()).as("off before anyone is asked to log in").isEqualTo(404);
            assertThat(json(off).getString("message"))
                    .isEqualTo("RMQ-0901 The RMQ admin endpoints are off; set rmq.admin.enabled=true to turn them on");

            int closedPort;
            try (ServerSocket socket = new ServerSocket(0)) {
                closedPort = socket.getLocalPort();
            }
            writeOverride(override, "rmq.admin.redis-uri", "redis://admin:s3cret@127.0.0.1:" + closedPort);
            await().atMost(WAIT).until(() -> call("GET", "/topics", OPS, null).statusCode() == 503);
            JsonObject unreachable = json(call("GET", "/topics/tasks/stats", OPS, null));
            assertThat(unreachable.getInt("status")).isEqualTo(503);
            assertThat(unreachable.getString("message"))
                    .startsWith("RMQ-0313 Cannot reach Redis at redis://***@127.0.0.1:" + closedPort + ": ")
                    .doesNotContain("s3cret");
        } finally {
            Files.deleteIfExists(override);
        }
        await().atMost(WAIT).until(() -> call("GET", "/topics", OPS, null).statusCode() == 200);
        assertThat(json(call("GET", "/topics", OPS, null)).getString("redis")).isEqualTo(redisUri);
    }

    private static void assertBadRequest(HttpResponse<String> response, String messageStart) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        JsonObject error = json(response);
        assertThat(error.getInt("status")).isEqualTo(400);
        assertThat(error.getString("message")).startsWith(messageStart);
    }

    private static JsonObject stats(String topic) throws IOException, InterruptedException {
        return json(call("GET", "/topics/" + topic + "/stats", OPS, null));
    }

    private static long deadCount(TopicKeys keys) {
        long dead = 0;
        for (int slot = 0; slot < keys.topic().slotAmount(); slot++) {
            dead += redis.zcard(keys.slot(slot).dead());
        }
        return dead;
    }

    /** A configuration drop-in of the test's server, read by Liberty while it runs. */
    private static Path configOverride() {
        String serverDir = System.getProperty("rmq.example.serverDir");
        assertThat(serverDir).as("system property rmq.example.serverDir (set by the build)").isNotNull();
        return Path.of(serverDir, "configDropins", "overrides", "admin-rest-it.xml");
    }

    private static void writeOverride(Path file, String variable, String value) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "<server>\n  <variable name=\"" + variable + "\" value=\"" + value + "\"/>\n</server>\n");
    }

    private static HttpResponse<String> call(String method, String path, String authorization, String body)
            throws IOException, InterruptedException {
        return send(method, ADMIN + path, authorization, body);
    }

    private static HttpResponse<String> send(String method, String url, String authorization, String body)
            throws IOException, InterruptedException {
        return send(method, url, authorization, body, true);
    }

    /** {@code asClient}: with the header {@code X-Requested-By} on a request that changes something, as a client sends it. */
    private static HttpResponse<String> send(String method, String url, String authorization, String body, boolean asClient)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        if (asClient && !method.equals("GET")) {
            request.header("X-Requested-By", "AdminRestIT");
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonObject json(HttpResponse<String> response) {
        try (JsonReader reader = Json.createReader(new StringReader(response.body()))) {
            return reader.readObject();
        } catch (RuntimeException e) {
            throw new AssertionError("not a JSON object (" + response.statusCode() + "): " + response.body(), e);
        }
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
