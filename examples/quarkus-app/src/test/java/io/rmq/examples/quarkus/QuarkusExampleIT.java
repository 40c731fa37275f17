package io.rmq.examples.quarkus;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
    /** How long the worker of the example takes per task (TaskBoard). */
    private static final long WORK_MILLIS = 1_000;
    /** How late a scheduled delivery may be on a busy CI machine; the connector aims at milliseconds. */

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
    void priceChangesSentWhileARefreshIsPendingMergeIntoIt() {
        priceChanged("sku-warm-up"); // the first send of a fresh application is slow: not part of what is measured

        // Sends up to 20 changes of one product, and stops early on a machine too slow to send them all well
        // before the first one's refresh is due: whether a change sent at its due time merges depends on the race.
        long beforeFirst = System.currentTimeMillis();
        List<Long> storedAt = new ArrayList<>();
        do {
            priceChanged("sku-merge");
            storedAt.add(System.currentTimeMillis()); // Redis stored or merged it before it answered
        } while (storedAt.size() < 20 && System.currentTimeMillis() < beforeFirst + PRICE_REFRESH_RANGE_MS - 1_000);
        long afterFirst = storedAt.get(0);

        Delivery refresh = await().atMost(WAIT).until(() -> received("refresh-price:sku-merge"), l -> !l.isEmpty()).get(0);
        long due = refresh.score().longValue();
        assertThat(refresh.channel()).isEqualTo("price-refresh");
        assertThat(due).as("due its time range after the first change, not after the last")
                .isBetween(beforeFirst + PRICE_REFRESH_RANGE_MS, afterFirst + PRICE_REFRESH_RANGE_MS);
        assertThat(refresh.receivedAt().toEpochMilli()).as("not before its due time").isGreaterThanOrEqualTo(due);

        // A request for another product of the same slot, sent now, is due a time range from now: a change left
        // unmerged was due earlier in that slot, so it would arrive before this one.
        String later = skuInTheSlotOf("sku-merge");
        priceChanged(later);
        await().atMost(WAIT).until(() -> !received("refresh-price:" + later).isEmpty());
        // Nothing is popped before it is due: every change stored before the refresh was due merged into it.
        long merged = storedAt.stream().filter(t -> t < due).count();
        assertThat(merged).as("changes stored while the refresh was pending").isGreaterThanOrEqualTo(5);
        assertThat(received("refresh-price:sku-merge")).as(storedAt.size() + " changes, " + merged + " of them merged")
                .hasSizeBetween(1, 1 + storedAt.size() - (int) merged);
    }

    @Test
    void theWorkerTakesTheHighestPendingPriorityNext() {
        queueTask("first task", 1);
        Delivery first = await().atMost(WAIT).until(() -> received("first task"), l -> !l.isEmpty()).get(0);
        // the worker works on it for a second; meanwhile these are queued, in this order
        Map<String, Double> priorities = new LinkedHashMap<>();
        priorities.put("low", 10.0);
        priorities.put("high", 90.0);
        priorities.put("middle", 50.0);
        Map<String, Long> storedAt = new HashMap<>();
        priorities.forEach((task, priority) -> {
            queueTask(task, priority);
            storedAt.put(task, System.currentTimeMillis()); // Redis stored it before it answered
        });
        given().body("no priority").when().post("/api/tasks").then().statusCode(400).body(containsString("priority"));

        List<Delivery> taken = await().atMost(WAIT).until(
                () -> received().stream().filter(d -> priorities.containsKey(d.payload())).toList(), l -> l.size() == priorities.size());
        // The worker takes its next task once the previous one is done, at least WORK_MILLIS after it was received:
        // every task stored by then and not taken yet was pending, and none of them may have a higher priority than
        // the task it takes (which may have been stored a little later). Queued within a second, as on any machine
        // but a very busy one, all three are pending at the first choice: high, then middle, then low.
        long freeAt = first.receivedAt().toEpochMilli() + WORK_MILLIS;
        Set<String> done = new HashSet<>();
        int choices = 0;
        for (Delivery next : taken) {
            long free = freeAt;
            List<String> pending = priorities.keySet().stream()
                    .filter(t -> !done.contains(t) && storedAt.get(t) < free).toList();
            if (!pending.isEmpty()) {
                double highest = pending.stream().mapToDouble(priorities::get).max().orElseThrow();
                assertThat(priorities.get(next.payload())).as(next.payload() + ", taken when " + pending + " were pending")
                        .isGreaterThanOrEqualTo(highest);
                choices += pending.size() > 1 ? 1 : 0;
            }
            assertThat(next.score().doubleValue()).isEqualTo(priorities.get(next.payload()));
            done.add(next.payload());
            freeAt = next.receivedAt().toEpochMilli() + WORK_MILLIS;
        }
        assertThat(choices).as("times the worker chose among several pending tasks (queued within a second)").isPositive();
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
        // how late it came is printed, not asserted: that a consumer wakes for a due time rather than on its
        // safety poll is shown by TopicConsumerIT with a 10-minute poll interval
        System.out.println("Order time-out delivered " + (timeout.receivedAt().toEpochMilli() - due) + " ms after its due time");
        assertThat(timeout.attempt()).isEqualTo(1);
    }

    @Test
    void aPaidOrdersTimeOutIsCancelledAndNeverDelivered() {
        given().when().post("/api/orders/order-it-paid/timeout?delayMs=1000").then().statusCode(202);
        given().when().post("/api/orders/order-it-unpaid/timeout?delayMs=1500").then().statusCode(202);
        given().when().post("/api/orders/order-it-paid/paid")
                .then().statusCode(200).body("cancelled", equalTo(true)).body("inFlight", equalTo(false));
        given().when().post("/api/orders/order-it-paid/paid").then().statusCode(200).body("cancelled", equalTo(false));

        // the unpaid order's time-out is due half a second after the paid one's would have been
        await().atMost(WAIT).until(() -> received("close-unpaid:order-it-unpaid"), l -> !l.isEmpty());
        assertThat(received("close-unpaid:order-it-paid")).as("the paid order's time-out").isEmpty();
    }

    @Test
    void theStockReportScheduleSendsOneReportATick() {
        // every 10 s (application.properties): two reports, for two consecutive ticks
        List<Long> ticks = await().atMost(Duration.ofSeconds(45))
                .until(() -> received("stock report").stream().map(d -> d.score().longValue()).toList(), l -> l.size() >= 2);
        assertThat(ticks).doesNotHaveDuplicates().allSatisfy(t -> assertThat(t % 10_000).isZero());
        assertThat(ticks.get(1) - ticks.get(0)).as("consecutive ticks").isEqualTo(10_000);

        given().when().post("/api/reports").then().statusCode(202).body("topic", equalTo("stock-reports"));
        await().atMost(WAIT).until(() -> received("stock report (asked for)"), l -> !l.isEmpty());
    }

    @Test
    void theHomePageShowsHowToTryIt() {
        given().when().get("/").then().statusCode(200).body(containsString("/api/received"));
    }

    private static void priceChanged(String sku) {
        given().when().post("/api/prices/" + sku)
                .then().statusCode(202).body("payload", equalTo("refresh-price:" + sku));
    }

    private static void queueTask(String task, double priority) {
        given().body(task).when().post("/api/tasks?priority=" + priority)
                .then().statusCode(202).body("payload", equalTo(task));
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
