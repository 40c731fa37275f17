package io.rmq.examples.dashboard;

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

/**
 * Plain HTTP requests to the running example, as a client of the admin endpoints or an attacker would
 * send them: with or without the credentials of a user, any method, any body. Thread-safe.
 */
final class AdminClient {

    static final String USER = "ops";
    static final String PASSWORD = "ops-secret";

    private final String url;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    AdminClient(String url) {
        this.url = url;
    }

    String url() {
        return url;
    }

    static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** A request of the admin user, carrying the cross-site header. */
    HttpRequest.Builder asOps(String path) {
        return HttpRequest.newBuilder(URI.create(url + path)).timeout(Duration.ofSeconds(60))
                .header("Authorization", basic(USER, PASSWORD)).header("X-Requested-By", "rmq-test");
    }

    /** A request without credentials. */
    HttpRequest.Builder anonymous(String path) {
        return HttpRequest.newBuilder(URI.create(url + path)).timeout(Duration.ofSeconds(60));
    }

    HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** A POST of the admin user with {@code body}. */
    HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        return send(asOps(path).POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    /** A GET of the admin user. */
    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send(asOps(path).GET().build());
    }

    /** The topic list, once the application answers (it may still be starting). */
    JsonObject topics() {
        String[] body = new String[1];
        await().atMost(Duration.ofMinutes(2)).ignoreExceptions().until(() -> {
            HttpResponse<String> response = get("/rmq/admin/topics");
            body[0] = response.body();
            return response.statusCode() == 200;
        });
        return json(body[0]);
    }

    static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }
}
