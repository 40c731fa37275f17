package io.rmq.examples.quarkus;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/**
 * The example as users run it: Quarkus starts the packaged application ({@code target/quarkus-app},
 * built by {@code quarkus:build} in {@code package}) in a process of its own, which starts its own
 * embedded Redis, and these tests use its REST API as docs/quarkus.md shows. Each test uses payloads of
 * its own, as they share the application and its list of received messages.
 */
@QuarkusIntegrationTest
class QuarkusExampleIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    /** The channel price-refresh-out's time-range (application.properties). */
    private static final long PRICE_REFRESH_RANGE_MS = 3_000;
    /** The slot-amount of the topic price-refresh (application.properties). */
    private static final int PRICE_REFRESH_SLOTS = 4;
    /** How late a scheduled delivery may be on a busy CI machine; the connector aims at milliseconds. */
    private static final long LATENESS_BOUND_MS = 2_000;

    /** One entry of {@code GET /api/received}. */
    record Delivery(String channel, String payload, int attempt, Number score, Instant receivedAt) {

        @SuppressWarnings("unchecked")
        static Delivery of(Object json) {
            Map<String, Object> m = (Map<String, Object>) json;
            return new Delivery((String) m.get("channel"), (String) m.get("payload"), ((Number) m.get("attempt")).intValue(),
                    (Number) m.get("score"), Instant.parse((String) m.get("receivedAt")));
        }
    }

    @Test
    void manyPriceChangesOfAProductAreRefreshedOnceAfterTheFirstChange() {
        long beforeFirst = System.currentTimeMillis();
        priceChanged("sku-merge");
        long afterFirst = System.currentTimeMillis();
        for (int i = 1; i < 20; i++) {
            priceChanged("sku-merge");
        }

        Delivery refresh = await().atMost(WAIT).until(() -> received("refresh-price:sku-merge"), l -> !l.isEmpty()).get(0);
        assertThat(refresh.channel()).isEqualTo("price-refresh");
        assertThat(refresh.score().longValue()).as("due its time range after the first change, not after the last")
                .isBetween(beforeFirst + PRICE_REFRESH_RANGE_MS, afterFirst + PRICE_REFRESH_RANGE_MS);
        assertThat(refresh.receivedAt().toEpochMilli()).as("not before its due time").isGreaterThanOrEqualTo(refresh.score().longValue());

        // A request for another product of the same slot, sent now, is due a time range from now: any of the 20
        // requests left unmerged was due earlier in that slot, so it would arrive before this one.
        String later = skuInTheSlotOf("sku-merge");
        priceChanged(later);
        await().atMost(WAIT).until(() -> !received("refresh-price:" + later).isEmpty());
        assertThat(received("refresh-price:sku-merge")).as("20 changes, one refresh").hasSize(1);
    }

    @Test
    void theWorkerTakesTheHighestPendingPriorityNext() {
        queueTask("first task", 1).statusCode(202);
        // the worker takes a second per task: the tasks queued now wait for it
        await().atMost(WAIT).until(() -> !received("first task").isEmpty());
        queueTask("low", 10).statusCode(202);
        queueTask("high", 90).statusCode(202);
        queueTask("middle", 50).statusCode(202);
        queueTask("escalated", 5).statusCode(202);
        queueTask("escalated", 95).statusCode(202).body(containsString("\"payload\":\"escalated\""));
        given().body("no priority").when().post("/api/tasks").then().statusCode(400).body(containsString("priority"));

        List<String> tasks = List.of("first task", "escalated", "high", "middle", "low");
        List<Delivery> taken = await().atMost(WAIT).until(
                () -> received().stream().filter(d -> tasks.contains(d.payload())).toList(), l -> l.size() >= tasks.size());
        assertThat(taken).extracting(Delivery::payload).as("highest pending priority first; a pending task queued again merges")
                .containsExactlyElementsOf(tasks);
        assertThat(taken).extracting(d -> d.score().doubleValue()).containsExactly(1.0, 95.0, 90.0, 50.0, 10.0);
    }

    @Test
    void anOrderTimeOutIsDeliveredAtItsTimeAndNotBefore() {
        long before = System.currentTimeMillis();
        given().when().post("/api/orders/order-it-1/timeout?delayMs=2000")
                .then().statusCode(202).body("payload", equalTo("close-unpaid:order-it-1")).body("topic", equalTo("order-timeouts"));
        long after = System.currentTimeMillis();
        given().when().post("/api/orders/order-it-2/timeout?delayMs=-1").then().statusCode(400);

        Delivery timeout = await().atMost(WAIT).until(() -> received("close-unpaid:order-it-1"), l -> !l.isEmpty()).get(0);
        long due = timeout.score().longValue();
        assertThat(due).as("the due time it was sent with").isBetween(before + 2_000, after + 2_000);
        assertThat(timeout.receivedAt().toEpochMilli()).as("not before its due time").isGreaterThanOrEqualTo(due);
        assertThat(timeout.receivedAt().toEpochMilli() - due).as("lateness in ms").isLessThan(LATENESS_BOUND_MS);
        assertThat(timeout.attempt()).isEqualTo(1);
    }

    @Test
    void theHomePageShowsHowToTryIt() {
        given().when().get("/").then().statusCode(200).body(containsString("/api/received"));
    }

    private static void priceChanged(String sku) {
        given().when().post("/api/prices/" + sku)
                .then().statusCode(202).body("payload", equalTo("refresh-price:" + sku));
    }

    private static io.restassured.response.ValidatableResponse queueTask(String task, double priority) {
        return given().body(task).when().post("/api/tasks?priority=" + priority).then();
    }

    private static List<Delivery> received() {
        List<Object> all = given().when().get("/api/received").then().statusCode(200).extract().jsonPath().getList("$");
        return all.stream().map(Delivery::of).toList();
    }

    private static List<Delivery> received(String payload) {
        return received().stream().filter(d -> d.payload().equals(payload)).toList();
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
}
