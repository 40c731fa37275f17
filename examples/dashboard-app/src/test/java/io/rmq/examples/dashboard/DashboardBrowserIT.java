package io.rmq.examples.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.schedule.MissedPolicy;
import io.rmq.engine.schedule.ScheduleDefinition;
import io.rmq.engine.schedule.ScheduleRunner;
import io.rmq.engine.schedule.ScheduleTiming;
import io.rmq.engine.topic.SlotKeys;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.Invariant;
import io.rmq.testing.Prerequisites;

/**
 * The dashboard of the running application (started by the POM in Open Liberty) in a real headless
 * Chromium, checked as a person would: the numbers shown equal Redis's, a requeue clicked on a dead
 * message brings it back and it is delivered, a pause clicked stops deliveries and a resume restarts
 * them; the flow panel shows the topic's flow settings as Redis holds them and changes them after a confirmation
 * (a bad value is refused and changes nothing); a schedule recorded through the engine is listed with its timing and its last and next tick as Redis
 * has them, and pausing and resuming it from the page changes its state in Redis (no tick while paused, ticks
 * again once resumed). The workload is the test's own topic {@value #TOPIC}, under the demo's key prefix, consumed by
 * a consumer in this JVM; the demo traffic runs beside it. Writes a screenshot to target/dashboard.png.
 *
 * <p>Needs Debian's {@code chromium} and {@code chromium-driver} packages (.ci/run installs them); without
 * them it is skipped, saying so, or fails when {@code RMQ_TESTS_REQUIRE_ALL=true} (.ci/run sets it).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardBrowserIT {

    static final String TOPIC = "browser-check";
    static final String PREFIX = "rmq-dashboard-demo:";
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final String USER = "ops";
    static final String PASSWORD = "ops-secret";
    static final Duration WAIT = Duration.ofSeconds(60);

    static String url;
    static String redisUri;
    static RmqEngine engine;
    static TopicKeys keys;
    static TopicProducer producer;
    static TopicConsumer consumer;
    static RedisClient lettuce;
    static StatefulRedisConnection<String, String> connection;
    static RedisCommands<String, String> redis;
    static WebDriver browser;
    static Path profile;
    /** Messages the cause of whose failure is fixed: delivered from now on without failing. */
    static final Set<String> fixed = ConcurrentHashMap.newKeySet();
    static final Set<String> delivered = ConcurrentHashMap.newKeySet();
    static final String SCHEDULE = "browser-report";
    static final String REPORT = "browser report";
    /** Deliveries of the schedule's ticks. */
    static final AtomicInteger reports = new AtomicInteger();
    static ScheduleRunner ticker;

    @BeforeAll
    static void workloadAndBrowser() throws Exception {
        Prerequisites.executables("The browser test", "Debian: apt-get install chromium chromium-driver, as .ci/run does",
                CHROMIUM, CHROMEDRIVER);
        url = System.getProperty("rmq.example.url", "http://localhost:9080");
        redisUri = adminTopics().getString("redis");
        engine = new RmqEngine(redisUri).start();
        engine.ready().toCompletableFuture().get();
        keys = engine.registerTopic(new TopicDefinition(TOPIC, 4, TopicType.FIXED_TIME, PREFIX)).toCompletableFuture().get();
        producer = engine.producer(keys);
        consumer = engine.consumer(keys, ConsumerOptions.builder().maxRetries(0).prepareTimeout(Duration.ofSeconds(10))
                .retryBackoff(Duration.ofMillis(100)).build(), "browser-check-consumer");
        consumer.start(d -> {
            String text = new String(d.content(), StandardCharsets.UTF_8);
            if (text.startsWith("poison") && !fixed.contains(text)) {
                d.rollback(new IllegalStateException("card declined for " + text));
            } else {
                delivered.add(text);
                if (text.equals(REPORT)) {
                    reports.incrementAndGet();
                }
                d.commit();
            }
        });
        consumer.request(Long.MAX_VALUE);
        lettuce = RedisClient.create(redisUri);
        connection = lettuce.connect();
        redis = connection.sync();

        // the known workload: three dead messages, twenty-five pending for an hour
        for (String poison : List.of("poison-1", "poison-2", "poison-3")) {
            producer.sendAt(bytes(poison), Instant.now(), poison).toCompletableFuture().get();
        }
        for (int i = 0; i < 25; i++) {
            producer.sendAt(bytes("later-" + i), Instant.now().plus(Duration.ofHours(1)), null).toCompletableFuture().get();
        }
        eventually().until(() -> sum(SlotKeys::dead) == 3);

        browser = chromium();
        browser.get(url.replace("http://", "http://" + USER + ":" + PASSWORD + "@") + "/rmq/dashboard/");
    }

    @AfterAll
    static void close() throws IOException {
        if (browser != null) {
            browser.quit();
        }
        if (ticker != null) {
            ticker.close();
        }
        if (consumer != null) {
            consumer.close();
        }
        if (engine != null) {
            engine.close();
        }
        if (connection != null) {
            connection.close();
            lettuce.shutdown();
        }
        if (profile != null) {
            try (var files = Files.walk(profile)) {
                files.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    @Order(1)
    void theNumbersShownAreRedissNumbers() {
        eventually().untilAsserted(() -> {
            assertThat(shown("pending")).as("pending").isEqualTo(sum(SlotKeys::store));
            assertThat(shown("dead")).as("dead").isEqualTo(sum(SlotKeys::dead));
            assertThat(shown("inFlight")).as("in flight").isEqualTo(sum(SlotKeys::prepare));
            assertThat(shown("due")).as("due now").isEqualTo(dueInRedis());
            assertThat(shown("slotAmount")).isEqualTo(4);
        });
        assertThat(shown("pending")).isEqualTo(25);
        assertThat(shown("dead")).isEqualTo(3);
        assertThat(cell("paused").getText()).isEqualTo("running");
        // the other topics are the demo's, with their live traffic
        assertThat(browser.findElements(By.cssSelector("#topics-table tr[data-topic]"))).hasSizeGreaterThanOrEqualTo(4);
    }

    @Test
    @Order(2)
    void aRequeueClickedOnADeadMessageDeliversIt() {
        click(() -> row().findElement(By.cssSelector("a.topic-link")));
        eventually().until(() -> browser.findElements(By.cssSelector("#dead-table tbody tr")).size() == 3);
        By poisonRow = By.cssSelector("#dead-table tbody tr[data-content='poison-2']");
        eventually().untilAsserted(() -> {
            WebElement poison = browser.findElement(poisonRow);
            assertThat(poison.findElement(By.cssSelector("td[data-field=lastFailure]")).getText())
                    .isEqualTo("java.lang.IllegalStateException: card declined for poison-2");
            assertThat(poison.findElement(By.cssSelector("td[data-field=deliveries]")).getText()).isEqualTo("1");
        });
        fixed.add("poison-2"); // the cause is fixed, then the operator requeues

        click(() -> browser.findElement(poisonRow).findElement(By.xpath(".//button[text()='Requeue']")));
        assertThat(confirmText()).startsWith("Requeue 1 dead message of topic 'browser-check'");
        click(() -> browser.findElement(By.id("confirm-ok")));

        eventually().until(() -> delivered.contains("poison-2"));
        assertThat(redis.zscore(keys.slot(slotOf("poison-2")).dead(), "poison-2")).isNull();
        eventually().untilAsserted(() -> {
            assertThat(shown("dead")).isEqualTo(2).isEqualTo(sum(SlotKeys::dead));
            assertThat(browser.findElements(By.cssSelector("#dead-table tbody tr"))).hasSize(2);
        });
    }

    @Test
    @Order(3)
    void aPauseClickedStopsDeliveriesAndAResumeRestartsThem() throws Exception {
        click(() -> row().findElement(By.xpath(".//button[text()='Pause']")));
        assertThat(confirmText()).startsWith("Pause consumption of topic 'browser-check' (4 slots)");
        click(() -> browser.findElement(By.id("confirm-ok")));
        eventually().until(() -> cell("paused").getText().equals("paused"));
        for (int slot = 0; slot < 4; slot++) {
            assertThat(redis.exists(keys.slot(slot).paused())).as("slot %d paused in Redis", slot).isEqualTo(1L);
        }

        for (int i = 0; i < 5; i++) {
            producer.sendAt(bytes("while-paused-" + i), Instant.now(), null).toCompletableFuture().get();
        }
        Invariant.holdsFor(Duration.ofSeconds(3), "nothing delivered while paused",
                () -> delivered.stream().noneMatch(m -> m.startsWith("while-paused")));
        eventually().untilAsserted(() -> assertThat(shown("due")).isEqualTo(5).isEqualTo(dueInRedis()));

        click(() -> row().findElement(By.xpath(".//button[text()='Resume']")));
        assertThat(confirmText()).startsWith("Resume consumption of topic 'browser-check'");
        click(() -> browser.findElement(By.id("confirm-ok")));
        eventually().until(() -> delivered.stream().filter(m -> m.startsWith("while-paused")).count() == 5);
        eventually().until(() -> cell("paused").getText().equals("running"));
    }

    @Test
    @Order(4)
    void aScheduleShowsItsTicksAndIsPausedAndResumedFromThePage() throws Exception {
        ScheduleDefinition report = new ScheduleDefinition(SCHEDULE, keys.topic(), bytes(REPORT), null,
                ScheduleTiming.every(SCHEDULE, "PT2S", "every"), MissedPolicy.SKIP, null);
        engine.schedules().define(report).toCompletableFuture().get();
        String state = keys.scheduleState(report.slot(), SCHEDULE);
        ticker = engine.runSchedules(PREFIX, Set.of(TOPIC));
        try {
            eventually().until(() -> reports.get() >= 1);
            eventually().untilAsserted(() -> {
                assertThat(scheduleCell("topic").getText()).isEqualTo(TOPIC);
                assertThat(scheduleCell("timing").getText()).isEqualTo("every PT2S");
                assertThat(scheduleCell("missed").getText()).isEqualTo("skip");
                assertThat(scheduleCell("paused").getText()).isEqualTo("running");
                // the last tick recorded in Redis, and the next one an interval later, as the browser writes times
                long last = Long.parseLong(redis.hget(state, "last"));
                assertThat(scheduleCell("lastTick").getText()).isEqualTo(localTime(last));
                assertThat(scheduleCell("nextTick").getText()).isEqualTo(localTime(last + 2_000));
            });

            click(() -> scheduleRow().findElement(By.xpath(".//button[text()='Pause']")));
            assertThat(confirmText()).startsWith("Pause schedule '" + SCHEDULE + "' of topic '" + TOPIC + "'?");
            click(() -> browser.findElement(By.id("confirm-ok")));
            eventually().until(() -> "1".equals(redis.hget(state, "paused")));
            eventually().untilAsserted(() -> {
                assertThat(scheduleCell("paused").getText()).isEqualTo("paused");
                assertThat(scheduleCell("nextTick").getText()).isEqualTo("–");
                assertThat(scheduleCell("lastTick").getText()).isEqualTo(localTime(Long.parseLong(redis.hget(state, "last"))));
                assertThat(scheduleRow().findElement(By.xpath(".//button[text()='Resume']")).isDisplayed()).isTrue();
            });
            String lastWhilePaused = redis.hget(state, "last");
            int reportsWhilePaused = reports.get();
            Invariant.holdsFor(Duration.ofSeconds(5), "no tick recorded or sent while paused",
                    () -> lastWhilePaused.equals(redis.hget(state, "last")) && reports.get() == reportsWhilePaused);

            click(() -> scheduleRow().findElement(By.xpath(".//button[text()='Resume']")));
            assertThat(confirmText()).startsWith("Resume schedule '" + SCHEDULE + "' of topic '" + TOPIC + "'?");
            click(() -> browser.findElement(By.id("confirm-ok")));
            eventually().until(() -> !"1".equals(redis.hget(state, "paused")));
            eventually().until(() -> reports.get() > reportsWhilePaused);
            eventually().untilAsserted(() -> {
                assertThat(scheduleCell("paused").getText()).isEqualTo("running");
                long last = Long.parseLong(redis.hget(state, "last"));
                assertThat(last).isGreaterThan(Long.parseLong(lastWhilePaused));
                assertThat(scheduleCell("lastTick").getText()).isEqualTo(localTime(last));
            });
        } finally {
            ticker.close();
            engine.schedules().remove(PREFIX, SCHEDULE, Instant.now()).toCompletableFuture().get();
        }
    }

    @Test
    @Order(5)
    void flowSettingsAreShownAndChangedFromThePageAfterAConfirmation() {
        String flow = keys.flow();
        redis.del(flow);
        try {
            click(() -> row().findElement(By.cssSelector("a.topic-link")));
            eventually().until(() -> flowValue("rate").equals("none") && flowValue("effective").equals("unlimited"));

            browser.findElement(By.id("flow-rate")).sendKeys("500/s");
            browser.findElement(By.id("flow-burst")).sendKeys("50");
            browser.findElement(By.id("flow-key-concurrency")).sendKeys("2");
            browser.findElement(By.id("flow-aging")).sendKeys("1/10s");
            new Select(browser.findElement(By.id("flow-fair"))).selectByValue("on");
            click(() -> browser.findElement(By.id("flow-apply")));
            assertThat(confirmText()).isEqualTo("Change the flow settings of topic '" + TOPIC + "' (rate limit 500/s,"
                    + " burst 50, key concurrency 2, priority aging 1/10s, fair share on)?");
            click(() -> browser.findElement(By.id("confirm-ok")));
            eventually().untilAsserted(() -> {
                assertThat(redis.hgetall(flow)).containsEntry("rate", "500").containsEntry("burst", "50")
                        .containsEntry("key.conc", "2").containsEntry("fair", "on").containsEntry("aging.pace", "0.0001");
                assertThat(flowValue("rate")).isEqualTo("500/s, burst 50");
                assertThat(flowValue("effective")).isEqualTo("500/s");
                assertThat(flowValue("key")).isEqualTo("concurrency 2");
                assertThat(flowValue("fair")).isEqualTo("on");
                assertThat(flowValue("aging")).startsWith("1/10s");
                assertThat(browser.findElement(By.id("flow-gen")).getText()).isEqualTo(redis.hget(flow, "gen"));
            });

            browser.findElement(By.id("flow-tenant")).sendKeys("acme");
            browser.findElement(By.id("flow-weight")).sendKeys("3");
            click(() -> browser.findElement(By.id("flow-weight-set")));
            assertThat(confirmText()).isEqualTo("Set the weight of tenant 'acme' on topic '" + TOPIC + "' to 3?");
            click(() -> browser.findElement(By.id("confirm-ok")));
            eventually().untilAsserted(() -> {
                assertThat(redis.hget(flow, "w:acme")).isEqualTo("3");
                assertThat(flowValue("weights")).isEqualTo("acme 3, others 1");
            });

            String gen = redis.hget(flow, "gen");
            browser.findElement(By.id("flow-key-rate")).sendKeys("fast");
            click(() -> browser.findElement(By.id("flow-apply")));
            click(() -> browser.findElement(By.id("confirm-ok")));
            eventually().until(() -> flowError().startsWith("Not changed: RMQ-0675 Flow setting 'key.rate' cannot be 'fast'"));
            assertThat(redis.hget(flow, "gen")).isEqualTo(gen);
            // the page's next refresh leaves the answer to the change on show
            String refreshedAt = browser.findElement(By.id("refreshed")).getAttribute("data-at");
            eventually().until(() -> !Objects.equals(browser.findElement(By.id("refreshed")).getAttribute("data-at"), refreshedAt));
            assertThat(flowError()).startsWith("Not changed: RMQ-0675");
            browser.findElement(By.id("flow-key-rate")).clear();

            click(() -> browser.findElement(By.cssSelector("#flow-table tr[data-setting=rate]"))
                    .findElement(By.xpath(".//button[text()='Remove']")));
            assertThat(confirmText()).isEqualTo("Remove the rate limit of topic '" + TOPIC + "' (rate limit removed)?");
            click(() -> browser.findElement(By.id("confirm-ok")));
            eventually().untilAsserted(() -> {
                assertThat(redis.hexists(flow, "rate")).isFalse();
                assertThat(flowValue("rate")).isEqualTo("none");
            });
            click(() -> browser.findElement(By.cssSelector("#flow-table tr[data-setting=weights]"))
                    .findElement(By.xpath(".//button[text()='Remove acme']")));
            click(() -> browser.findElement(By.id("confirm-ok")));
            eventually().until(() -> !redis.hexists(flow, "w:acme") && flowValue("weights").equals("others 1"));
        } finally {
            redis.del(flow);
        }
    }

    @Test
    @Order(6)
    void ratesAndAScreenshot() throws Exception {
        // the rates come from two samples of the counters in Redis, cluster-wide
        eventually().until(() -> !browser.findElement(By.cssSelector("#rates-now td[data-field=rate-sent]")).getText()
                .equals("–"));
        click(() -> browser.findElement(By.linkText("emails")));
        eventually().until(() -> browser.findElement(By.id("detail-topic")).getText().equals("emails")
                && !browser.findElements(By.cssSelector("#dead-table tbody tr")).isEmpty());
        eventually().until(() -> browser.findElement(By.cssSelector("#lateness table")) != null);
        Path screenshot = Path.of(System.getProperty("rmq.example.screenshot", "target/dashboard.png"));
        Files.createDirectories(screenshot.getParent());
        Files.write(screenshot, ((ChromeDriver) browser).getScreenshotAs(OutputType.BYTES));
        assertThat(Files.size(screenshot)).isGreaterThan(10_000);
    }

    /** Waits for what a refresh of the page shows; an element not there yet (re-rendered meanwhile) is waited for too. */
    private static org.awaitility.core.ConditionFactory eventually() {
        return await().atMost(WAIT).ignoreExceptions();
    }

    // ---- the page ----------------------------------------------------------------------------------------

    /**
     * Clicks what {@code find} finds. The page re-renders its tables every refresh, so an element found a moment
     * ago may be gone by the click (a stale element, which the browser did not click): it is found again and
     * clicked again until one click lands.
     */
    private static void click(java.util.function.Supplier<WebElement> find) {
        eventually().until(() -> {
            try {
                find.get().click();
                return true;
            } catch (StaleElementReferenceException rerendered) {
                return false;
            }
        });
    }

    private static WebElement row() {
        return browser.findElement(By.cssSelector("#topics-table tr[data-topic='" + TOPIC + "']"));
    }

    private static WebElement cell(String field) {
        return row().findElement(By.cssSelector("td[data-field='" + field + "']"));
    }

    /** The number a person reads in the topic's row. */
    private static long shown(String field) {
        return Long.parseLong(cell(field).getText().replace(",", ""));
    }

    /** What the flow panel shows for {@code setting}. */
    private static String flowValue(String setting) {
        return browser.findElement(By.cssSelector("#flow-table tr[data-setting='" + setting + "'] td[data-field=value]"))
                .getText();
    }

    private static WebElement scheduleRow() {
        return browser.findElement(By.cssSelector("#schedules-table tr[data-schedule='" + SCHEDULE + "']"));
    }

    private static WebElement scheduleCell(String field) {
        return scheduleRow().findElement(By.cssSelector("td[data-field='" + field + "']"));
    }

    /** A time as the page writes it: the browser's {@code toLocaleString()} of the instant. */
    private static String localTime(long epochMillis) {
        return (String) ((JavascriptExecutor) browser).executeScript("return new Date(arguments[0]).toLocaleString();",
                epochMillis);
    }

    private static String flowError() {
        return browser.findElement(By.id("flow-error")).getText();
    }

    private static String confirmText() {
        eventually().until(() -> browser.findElement(By.id("confirm")).isDisplayed());
        return browser.findElement(By.id("confirm-text")).getText();
    }

    // ---- Redis, read with plain commands --------------------------------------------------------------------

    private static long sum(java.util.function.Function<SlotKeys, String> key) {
        long sum = 0;
        for (int slot = 0; slot < 4; slot++) {
            sum += redis.zcard(key.apply(keys.slot(slot)));
        }
        return sum;
    }

    private static long dueInRedis() {
        long now = Long.parseLong(redis.time().get(0)) * 1000;
        long due = 0;
        for (int slot = 0; slot < 4; slot++) {
            due += redis.zcount(keys.slot(slot).store(), io.lettuce.core.Range.create(Double.NEGATIVE_INFINITY, (double) now + 999));
        }
        return due;
    }

    private static int slotOf(String member) {
        return io.rmq.engine.topic.SlotRouter.slotOf(member, bytes(member), 4);
    }

    // ---- set-up ------------------------------------------------------------------------------------------

    private static WebDriver chromium() throws IOException {
        profile = Files.createTempDirectory("rmq-dashboard-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--window-size=1440,2200", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }

    /** The admin endpoints' topic list (which names the Redis the application uses), once the application answers. */
    private static JsonObject adminTopics() {
        HttpClient http = HttpClient.newHttpClient();
        String auth = Base64.getEncoder().encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(URI.create(url + "/rmq/admin/topics"))
                .header("Authorization", "Basic " + auth).build();
        String[] body = new String[1];
        await().atMost(Duration.ofMinutes(2)).ignoreExceptions().until(() -> {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            body[0] = response.body();
            return response.statusCode() == 200;
        });
        return Json.createReader(new StringReader(body[0])).readObject();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
