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
import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;

/**
 * The flow endpoints of {@code io.rmq:rmq-admin-rest} in the Liberty example, over HTTP: a topic's flow settings
 * read, changed in part, a tenant's weight set and removed, with the role, the {@code X-Requested-By} guard, and
 * the 400 and 404 answers that change nothing.
 */
class AdminFlowIT {

    private static final String ADMIN = System.getProperty("rmq.example.url", "http://localhost:9080") + "/rmq/admin";
    private static final String OPS = basic("ops", "ops-secret");
    private static final String VIEWER = basic("viewer", "viewer-secret");
    /** The key prefix of the example, which the endpoints use too. */
    private static final String PREFIX = "rmq-liberty-example:";
    private static final String FLOW = "/topics/admin-it-flow/flow";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Test
    void flowSettingsAreShownAndChangedLive() throws Exception {
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                .until(() -> send("GET", "/topics", OPS, true, "").statusCode() == 200);
        String redisUri = json(send("GET", "/topics", OPS, true, "")).getString("redis");
        TopicDefinition topic;
        try (RmqEngine engine = new RmqEngine(redisUri).start()) {
            engine.ready().toCompletableFuture().join();
            topic = engine.registerTopic(new TopicDefinition("admin-it-flow", 2, TopicType.PRIORITY, PREFIX))
                    .toCompletableFuture().join().topic();
        }
        try (RmqAdmin admin = RmqAdmin.connect(redisUri)) {
            admin.flow(topic).removeRate();
        }
        long gen = json(send("GET", FLOW, OPS, true, "")).getJsonNumber("gen").longValue();

        HttpResponse<String> changed = send("PUT", FLOW, OPS, true,
                "{\"rate\":\"500/s\",\"burst\":50,\"keyConcurrency\":2,\"fair\":true,\"aging\":\"1/10s\"}");
        assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
        JsonObject after = json(changed);
        assertThat(after.getJsonNumber("gen").longValue()).isEqualTo(gen + 1);
        assertThat(after.getString("rateText")).isEqualTo("500/s");
        assertThat(after.getInt("burst")).isEqualTo(50);
        assertThat(after.getInt("keyConcurrency")).isEqualTo(2);
        assertThat(after.getString("fair")).isEqualTo("on");
        assertThat(after.getString("aging")).isEqualTo("1/10s");

        JsonObject partial = json(send("PUT", FLOW, OPS, true, "{\"rate\":\"20/s\",\"keyConcurrency\":null}"));
        assertThat(partial.getString("rateText")).isEqualTo("20/s");
        assertThat(partial.getInt("burst")).as("untouched").isEqualTo(50);
        assertThat(partial.isNull("keyConcurrency")).isTrue();

        HttpResponse<String> weighted = send("PUT", FLOW + "/weights/acme", OPS, true, "{\"weight\":3}");
        assertThat(weighted.statusCode()).as(weighted.body()).isEqualTo(200);
        assertThat(json(weighted).getJsonObject("weights").getJsonNumber("acme").doubleValue()).isEqualTo(3);
        assertThat(json(send("DELETE", FLOW + "/weights/acme", OPS, true, "")).getJsonObject("weights")).isEmpty();

        long before = json(send("GET", FLOW, OPS, true, "")).getJsonNumber("gen").longValue();
        HttpResponse<String> bad = send("PUT", FLOW, OPS, true, "{\"rate\":\"1/s\",\"keyConcurrency\":0}");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(json(bad).getString("message")).startsWith("RMQ-0910 'keyConcurrency'");
        HttpResponse<String> badValue = send("PUT", FLOW, OPS, true, "{\"adaptiveThreshold\":2}");
        assertThat(json(badValue).getString("message")).startsWith("RMQ-0675 Flow setting 'a.threshold' cannot be '2'");
        assertThat(send("PUT", FLOW + "/weights/acme", OPS, true, "{\"weight\":0}").statusCode()).isEqualTo(400);
        assertThat(send("PUT", FLOW, OPS, true, "{}").statusCode()).isEqualTo(400);
        assertThat(json(send("GET", FLOW, OPS, true, "")).getJsonNumber("gen").longValue()).as("nothing changed")
                .isEqualTo(before);

        assertThat(send("GET", "/topics/no-such-topic/flow", OPS, true, "").statusCode()).isEqualTo(404);
        assertThat(send("GET", FLOW, VIEWER, true, "").statusCode()).isEqualTo(403);
        HttpResponse<String> forged = send("PUT", FLOW, OPS, false, "{\"rate\":\"1/s\"}");
        assertThat(forged.statusCode()).isEqualTo(403);
        assertThat(forged.body()).contains("RMQ-0930");
        assertThat(json(send("GET", FLOW, OPS, true, "")).getString("rateText")).isEqualTo("20/s");
    }

    /** {@code asClient}: with the header {@code X-Requested-By} on a change, as a client sends it. */
    private static HttpResponse<String> send(String method, String path, String authorization, boolean asClient,
            String body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(ADMIN + path)).timeout(Duration.ofSeconds(30))
                .method(method, body.isEmpty() ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .header("Authorization", authorization);
        if (asClient && !method.equals("GET")) {
            request.header("X-Requested-By", "AdminFlowIT");
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
