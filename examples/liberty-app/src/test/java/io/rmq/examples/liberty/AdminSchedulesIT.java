package io.rmq.examples.liberty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;

import org.junit.jupiter.api.Test;

import io.rmq.engine.RmqEngine;
import io.rmq.engine.schedule.MissedPolicy;
import io.rmq.engine.schedule.ScheduleDefinition;
import io.rmq.engine.schedule.ScheduleTiming;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;

/**
 * The schedule endpoints of {@code io.rmq:rmq-admin-rest} in the Liberty example, over HTTP: a schedule recorded
 * through the engine in the example's Redis is listed, paused, resumed and removed, with the role, the
 * {@code X-Requested-By} guard, and the 400 and 404 answers.
 */
class AdminSchedulesIT {

    private static final String ADMIN = System.getProperty("rmq.example.url", "http://localhost:9080") + "/rmq/admin";
    private static final String OPS = basic("ops", "ops-secret");
    private static final String VIEWER = basic("viewer", "viewer-secret");
    /** The key prefix of the example, which the endpoints use too. */
    private static final String PREFIX = "rmq-liberty-example:";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Test
    void aScheduleIsListedPausedResumedAndRemoved() throws Exception {
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                .until(() -> send("GET", "/topics", OPS, true).statusCode() == 200);
        String redisUri = json(send("GET", "/topics", OPS, true)).getString("redis");
        try (RmqEngine engine = new RmqEngine(redisUri).start()) {
            engine.ready().toCompletableFuture().join();
            TopicDefinition topic = engine.registerTopic(new TopicDefinition("admin-it-schedules", 2, TopicType.PRIORITY,
                    PREFIX)).toCompletableFuture().join().topic();
            engine.schedules().define(new ScheduleDefinition("admin-it-nightly", topic,
                    "rebuild".getBytes(StandardCharsets.UTF_8), null,
                    ScheduleTiming.cron("admin-it-nightly", "30 2 * * *", "cron", "Europe/Berlin", "zone"),
                    MissedPolicy.SKIP, "5")).toCompletableFuture().join();
        }

        JsonObject listed = json(send("GET", "/schedules", OPS, true));
        assertThat(listed.getString("registry")).isEqualTo(PREFIX + "rmq:schedules");
        JsonObject nightly = listed.getJsonArray("schedules").stream().map(JsonObject.class::cast)
                .filter(s -> s.getString("name").equals("admin-it-nightly")).findFirst().orElseThrow();
        assertThat(nightly.getString("topic")).isEqualTo("admin-it-schedules");
        assertThat(nightly.getString("cron")).isEqualTo("30 2 * * *");
        assertThat(nightly.getString("zone")).isEqualTo("Europe/Berlin");
        assertThat(nightly.getString("value")).isEqualTo("5");
        assertThat(nightly.getString("payload")).isEqualTo("rebuild");
        assertThat(nightly.getBoolean("paused")).isFalse();
        assertThat(nightly.getString("nextTick")).endsWith(":30:00Z");

        assertThat(send("GET", "/schedules", VIEWER, true).statusCode()).isEqualTo(403);
        HttpResponse<String> forged = send("POST", "/schedules/admin-it-nightly/pause", OPS, false);
        assertThat(forged.statusCode()).isEqualTo(403);
        assertThat(forged.body()).contains("RMQ-0930");

        HttpResponse<String> paused = send("POST", "/schedules/admin-it-nightly/pause", OPS, true);
        assertThat(paused.statusCode()).as(paused.body()).isEqualTo(200);
        assertThat(json(paused).getBoolean("paused")).isTrue();
        assertThat(json(send("POST", "/schedules/admin-it-nightly/resume", OPS, true)).getBoolean("paused")).isFalse();

        HttpResponse<String> badName = send("POST", "/schedules/bad%20name/pause", OPS, true);
        assertThat(badName.statusCode()).isEqualTo(400);
        assertThat(json(badName).getString("message")).startsWith("RMQ-0940 'bad name' is not a schedule name");

        assertThat(send("POST", "/schedules/admin-it-nightly/remove", OPS, true).statusCode()).isEqualTo(200);
        HttpResponse<String> gone = send("POST", "/schedules/admin-it-nightly/pause", OPS, true);
        assertThat(gone.statusCode()).isEqualTo(404);
        assertThat(json(gone).getString("message")).startsWith("RMQ-0548 No schedule 'admin-it-nightly'");
        assertThat(json(send("GET", "/schedules", OPS, true)).getJsonArray("schedules").stream()
                .map(JsonObject.class::cast).map(s -> s.getString("name"))).doesNotContain("admin-it-nightly");
    }

    /** {@code asClient}: with the header {@code X-Requested-By} on a change, as a client sends it. */
    private static HttpResponse<String> send(String method, String path, String authorization, boolean asClient)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(ADMIN + path)).timeout(Duration.ofSeconds(30))
                .method(method, HttpRequest.BodyPublishers.noBody()).header("Authorization", authorization);
        if (asClient && !method.equals("GET")) {
            request.header("X-Requested-By", "AdminSchedulesIT");
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
