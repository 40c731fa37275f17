package io.rmq.tck.client;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;

/**
 * Reads a MicroProfile Health endpoint of the Open Liberty server over HTTP, as an orchestrator's
 * probe would. Runs on the test client only (it is not part of the deployments).
 */
public final class HealthEndpoint {

    /** The system property with the Liberty server's HTTP port, set by the {@code liberty-managed} execution only. */
    public static final String HTTP_PORT_PROPERTY = "rmq.tck.httpPort";

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /**
     * One check in an answer.
     *
     * @param httpStatus the HTTP status of the whole answer (200 when every check is UP, 503 otherwise)
     * @param status     the check's status, {@code UP} or {@code DOWN}
     * @param data       the check's data, values as text
     */
    public record Check(int httpStatus, String status, Map<String, String> data) {
    }

    private HealthEndpoint() {
    }

    /** The Liberty server's HTTP port, when the suite runs against Liberty. */
    public static Optional<Integer> libertyHttpPort() {
        return Optional.ofNullable(System.getProperty(HTTP_PORT_PROPERTY)).map(Integer::valueOf);
    }

    /**
     * GETs {@code http://localhost:<port><path>} (such as {@code /health/ready}) and returns the check named
     * {@code name}, if the answer has one.
     */
    public static Optional<Check> check(int port, String path, String name) {
        HttpResponse<String> response;
        try {
            response = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                    .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException("GET " + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during GET " + path, e);
        }
        JsonObject answer;
        try (JsonReader reader = Json.createReader(new StringReader(response.body()))) {
            answer = reader.readObject();
        }
        return answer.getJsonArray("checks").stream()
                .map(JsonValue::asJsonObject)
                .filter(check -> name.equals(check.getString("name")))
                .findFirst()
                .map(check -> new Check(response.statusCode(), check.getString("status"), data(check)));
    }

    private static Map<String, String> data(JsonObject check) {
        JsonObject data = check.getJsonObject("data");
        if (data == null) {
            return Map.of();
        }
        return data.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
                e -> e.getValue().getValueType() == JsonValue.ValueType.STRING
                        ? check.getJsonObject("data").getString(e.getKey()) : e.getValue().toString()));
    }
}
