package io.rmq.examples.liberty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

import org.junit.jupiter.api.Test;

/**
 * The smoke test of the Liberty example: the build starts the application in Open Liberty (with its
 * embedded Redis), and this test uses it as the README says, over HTTP.
 */
class LibertyExampleIT {

    private static final String BASE = System.getProperty("rmq.example.url", "http://localhost:9080");
    private static final Pattern PAYLOAD = Pattern.compile("\"payload\":\"([^\"]*)\"");
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** The slot-amount of the topic price-refresh (META-INF/microprofile-config.properties). */
    private static final int PRICE_REFRESH_SLOTS = 4;

    private static final Pattern SCORE = Pattern.compile("\"score\"\\s*:\\s*([-0-9.eE+]+)");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Test
    void theThreeStoriesWorkOverHttp() throws Exception {
        assertThat(call("DELETE", "/api/received", null).statusCode()).isEqualTo(204);

        // a. five price changes of one product: one refresh, 3 s after the first
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> sent = call("POST", "/api/prices/sku-smoke", null);
            assertThat(sent.statusCode()).as(sent.body()).isEqualTo(202);
            assertThat(sent.body()).contains("refresh-price:sku-smoke");
        }

        // b. the worker is busy with the first task while three more are queued: highest priority next
        assertThat(call("POST", "/api/tasks?priority=1", "first task").statusCode()).isEqualTo(202);
        await().atMost(WAIT).until(() -> received().contains("first task"));
        assertThat(call("POST", "/api/tasks?priority=10", "low").statusCode()).isEqualTo(202);
        assertThat(call("POST", "/api/tasks?priority=90", "high").statusCode()).isEqualTo(202);
        assertThat(call("POST", "/api/tasks?priority=50", "middle").statusCode()).isEqualTo(202);
        assertThat(call("POST", "/api/tasks", "no priority").statusCode()).isEqualTo(400);

        // c. an order time-out in 2 s, and one in 1 s whose order is paid at once: cancelled, never delivered
        HttpResponse<String> scheduled = call("POST", "/api/orders/order-smoke/timeout?delayMs=2000", null);
        assertThat(scheduled.statusCode()).as(scheduled.body()).isEqualTo(202);
        assertThat(call("POST", "/api/orders/order-paid/timeout?delayMs=1000", null).statusCode()).isEqualTo(202);
        HttpResponse<String> paid = call("POST", "/api/orders/order-paid/paid", null);
        assertThat(paid.statusCode()).as(paid.body()).isEqualTo(200);
        assertThat(paid.body()).contains("\"cancelled\":true");
        HttpResponse<String> paidAgain = call("POST", "/api/orders/order-paid/paid", null);
        assertThat(paidAgain.body()).as("nothing left to cancel").contains("\"cancelled\":false");

        await().atMost(WAIT).until(() -> received().containsAll(
                List.of("refresh-price:sku-smoke", "first task", "high", "middle", "low", "close-unpaid:order-smoke")));
        // A request for another product of the same slot, sent now, is due 3 s from now: any request of the
        // five above left unmerged was due earlier in that slot, so it would arrive before this one.
        String later = skuInTheSlotOf("sku-smoke");
        assertThat(call("POST", "/api/prices/" + later, null).statusCode()).isEqualTo(202);
        await().atMost(WAIT).until(() -> received().contains("refresh-price:" + later));
        List<String> received = received();
        assertThat(received).filteredOn(p -> p.equals("refresh-price:sku-smoke")).as("merged into one refresh").hasSize(1);
        assertThat(received).as("the paid order's time-out, due a second before the other one").doesNotContain("close-unpaid:order-paid");
        assertThat(received).filteredOn(p -> List.of("first task", "high", "middle", "low").contains(p))
                .as("highest pending priority first").containsExactly("first task", "high", "middle", "low");
    }

    @Test
    void theHealthEndpointsShowTheConnectorsCheckUpWithItsEightChannels() throws Exception {
        for (String endpoint : List.of("/health/ready", "/health/live", "/health/started")) {
            await().atMost(WAIT).untilAsserted(() -> {
                HttpResponse<String> health = call("GET", endpoint, null);
                assertThat(health.statusCode()).as(endpoint + ": " + health.body()).isEqualTo(200);
                String body = health.body().replaceAll("\"\\s*:\\s*", "\":"); // compact or pretty-printed
                assertThat(body).as(endpoint).contains("\"smallrye-redis-rmq\"");
                for (String channel : List.of("price-refresh", "tasks", "order-timeouts", "stock-reports")) {
                    assertThat(body).as(endpoint).contains("\"" + channel + "\":\"incoming, topic " + channel + ", UP\"")
                            .contains("\"" + channel + "-out\":\"outgoing, topic " + channel + ", UP\"");
                }
            });
        }
    }

    @Test
    void theStockReportScheduleSendsOneReportATick() throws Exception {
        // every 10 s (META-INF/microprofile-config.properties): two reports, for two consecutive ticks
        await().atMost(Duration.ofSeconds(45)).until(() -> reportTicks().size() >= 2);
        List<Long> ticks = reportTicks();
        assertThat(ticks).doesNotHaveDuplicates().allSatisfy(t -> assertThat(t % 10_000).isZero());
        assertThat(ticks.get(1) - ticks.get(0)).as("consecutive ticks").isEqualTo(10_000);

        HttpResponse<String> asked = call("POST", "/api/reports", null);
        assertThat(asked.statusCode()).as(asked.body()).isEqualTo(202);
        await().atMost(WAIT).until(() -> received().contains("stock report (asked for)"));
    }

    /** The ticks of the scheduled stock reports received so far, oldest first. */
    private List<Long> reportTicks() throws IOException, InterruptedException {
        HttpResponse<String> response = call("GET", "/api/received", null);
        assertThat(response.statusCode()).isEqualTo(200);
        List<Long> ticks = new ArrayList<>();
        Matcher each = Pattern.compile("\\{[^{}]*\\}").matcher(response.body());
        while (each.find()) {
            String received = each.group();
            Matcher score = SCORE.matcher(received);
            if (received.matches("(?s).*\"payload\"\\s*:\\s*\"stock report\".*") && score.find()) {
                ticks.add((long) Double.parseDouble(score.group(1)));
            }
        }
        return ticks;
    }

    /** Another product whose refresh requests go to the same slot as those of {@code sku}. */
    private static String skuInTheSlotOf(String sku) {
        for (int i = 1; ; i++) {
            String other = sku + "-later-" + i;
            if (slot(other) == slot(sku)) {
                return other;
            }
        }
    }

    /** The documented routing: {@code CRC32(UTF-8 bytes of the slot basis) mod slot-amount}; the product is the basis. */
    private static long slot(String sku) {
        CRC32 crc = new CRC32();
        crc.update(sku.getBytes(StandardCharsets.UTF_8));
        return crc.getValue() % PRICE_REFRESH_SLOTS;
    }

    private List<String> received() throws IOException, InterruptedException {
        HttpResponse<String> response = call("GET", "/api/received", null);
        assertThat(response.statusCode()).isEqualTo(200);
        List<String> payloads = new ArrayList<>();
        Matcher m = PAYLOAD.matcher(response.body());
        while (m.find()) {
            payloads.add(m.group(1));
        }
        return payloads;
    }

    private HttpResponse<String> call(String method, String path, String body) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(BASE + path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "text/plain")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
