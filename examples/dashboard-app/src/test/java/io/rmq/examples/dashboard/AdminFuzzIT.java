package io.rmq.examples.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.StatefulRedisConnection;

/**
 * Random and malformed requests to the admin endpoints of the running application (started by the POM in Open
 * Liberty): bodies, paths, query strings, methods and headers, a bounded number of them from a fixed seed
 * ({@code -Drmq.fuzz.seed}, {@code -Drmq.fuzz.requests}). Asserts that none is answered with a 5xx, none logs a
 * stack trace, a refused request leaves Redis as it was, and Redis stays responsive throughout: no command run
 * during the requests took {@value #SLOW_MICROS} µs of Redis's own time or more (its slow log, with the threshold
 * set by the test: a measure of Redis, not of the test machine's scheduling of a client). The PINGs of a client
 * during the run are printed, not asserted: their latency measures the machine's load as much as Redis.
 * Its topic {@value #TOPIC} holds dead messages of its own and nothing consumes it.
 */
class AdminFuzzIT {

    static final String TOPIC = "fuzz-check";
    /** The longest a command may hold Redis, in microseconds of server time (its {@code slowlog-log-slower-than}). */
    static final long SLOW_MICROS = 25_000;
    static final Pattern STACK_FRAME = Pattern.compile("(?m)^\\s+at [\\w$.]+\\(");
    static final List<String> METHODS = List.of("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE");
    static final List<String> PATHS = List.of("/rmq/admin/topics", "/rmq/admin/topics/" + TOPIC + "/stats",
            "/rmq/admin/topics/" + TOPIC + "/dead", "/rmq/admin/topics/" + TOPIC + "/dead/requeue",
            "/rmq/admin/topics/" + TOPIC + "/dead/purge", "/rmq/admin/topics/" + TOPIC + "/pending/remove",
            "/rmq/admin/topics/" + TOPIC + "/pending/due-now", "/rmq/admin/operations", "/rmq/admin/operations/x/cancel",
            "/rmq/admin/topics/" + TOPIC + "/flow", "/rmq/admin/topics/" + TOPIC + "/flow/weights/acme",
            "/rmq/dashboard/", "/rmq/dashboard/api/rates", "/rmq/dashboard/static/dashboard.js");
    static final List<String> PIECES = List.of("{", "}", "[", "]", ",", ":", "\"all\"", "true", "false", "null", "\"members\"",
            "\"contains\"", "\"dryRun\"", "\"rate\"", "\"olderThan\"", "\"diedBefore\"", "\"membersBase64\"", "\"content\"",
            "\"\\ud800\"", "\"\\u0000\"", "\"x\\r\\ny\"", "1e999", "-1", "99999999999999999999", "0.5", "\"15m\"",
            "\"+999999999-12-31T23:59:59Z\"", "\"PT-1H\"", "\"%%%\"", "\"AP8K\"", "\"=\"", " ", "\u00e9", "\"",
            "\"keyConcurrency\"", "\"fair\"", "\"weight\"", "\"aging\"", "\"500/s\"", "\"1/0s\"", "\"burst\"");

    static ExampleTopic topic;

    @BeforeAll
    static void deadMessages() throws Exception {
        topic = ExampleTopic.record(TOPIC, 2);
        for (int i = 0; i < 20; i++) {
            topic.redis.zadd(topic.keys.slot(i % 2).dead(), System.currentTimeMillis() - 60_000, "fuzz-dead-" + i);
        }
    }

    @AfterAll
    static void close() {
        if (topic != null) {
            topic.close();
        }
    }

    @Test
    void randomAndMalformedRequestsAreRefusedQuietlyAndChangeNothing() throws Exception {
        long seed = Long.getLong("rmq.fuzz.seed", 26L);
        int requests = Integer.getInteger("rmq.fuzz.requests", 400);
        Random random = new Random(seed);
        List<Long> pingNanos = new CopyOnWriteArrayList<>();
        ScheduledExecutorService pinger = Executors.newSingleThreadScheduledExecutor();
        StatefulRedisConnection<String, String> pingConnection = topic.lettuce.connect();
        for (int i = 0; i < 50; i++) {
            pingConnection.sync().ping(); // warmed up: the first calls measure class loading, not Redis
        }
        String slowlogThreshold = topic.redis.configGet("slowlog-log-slower-than").get("slowlog-log-slower-than");
        topic.redis.configSet("slowlog-log-slower-than", String.valueOf(SLOW_MICROS));
        topic.redis.slowlogReset();
        pinger.scheduleAtFixedRate(() -> {
            long start = System.nanoTime();
            pingConnection.sync().ping();
            pingNanos.add(System.nanoTime() - start);
        }, 0, 20, TimeUnit.MILLISECONDS);
        long mark = topic.log.mark();
        List<Object> slow;
        try {
            String before = snapshot();
            for (int i = 0; i < requests; i++) {
                HttpRequest request = request(random);
                HttpResponse<String> response = topic.client.send(request);
                assertThat(response.statusCode()).as("%s %s (seed %d, request %d)", request.method(), request.uri(), seed, i)
                        .isLessThan(500);
                String after = snapshot();
                if (response.statusCode() >= 400) {
                    assertThat(after).as("Redis after a refused %s %s (seed %d, request %d)", request.method(),
                            request.uri(), seed, i).isEqualTo(before);
                }
                before = after;
            }
        } finally {
            pinger.shutdownNow();
            pinger.awaitTermination(10, TimeUnit.SECONDS);
            pingConnection.close();
            // every command of the run that held Redis SLOW_MICROS or more is in the slow log: the admin surfaces'
            // and any other (the demo traffic's), so none may be there
            slow = topic.redis.slowlogGet(-1);
            topic.redis.configSet("slowlog-log-slower-than", slowlogThreshold);
        }
        assertThat(slow).as("commands that held Redis %d µs or more", SLOW_MICROS).isEmpty();
        List<Long> sorted = pingNanos.stream().sorted().toList();
        if (!sorted.isEmpty()) {
            System.out.printf("AdminFuzzIT: %d PINGs during %d requests: median %s, 95th percentile %s, worst %s%n",
                    sorted.size(), requests, Duration.ofNanos(sorted.get(sorted.size() / 2)),
                    Duration.ofNanos(sorted.get(sorted.size() * 95 / 100)), Duration.ofNanos(sorted.get(sorted.size() - 1)));
        }
        assertThat(topic.client.post("/rmq/admin/topics/" + TOPIC + "/resume", "").statusCode()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(60))
                .until(() -> topic.log.since(mark).contains("resumed consumption on topic '" + TOPIC + "'"));
        String written = topic.log.since(mark);
        assertThat(STACK_FRAME.matcher(written).find()).as("a stack trace in the log:%n%s", written).isFalse();
    }

    /** One request: a random method, path (sometimes mangled), query, headers and body. */
    private static HttpRequest request(Random random) {
        String path = PATHS.get(random.nextInt(PATHS.size()));
        switch (random.nextInt(6)) {
            case 0 -> path = path + "/" + token(random);
            case 1 -> path = path + "?cursor=" + token(random) + "&limit=" + token(random);
            case 2 -> path = path.replace(TOPIC, token(random));
            default -> {
                // as it is
            }
        }
        String method = random.nextInt(3) == 0 ? METHODS.get(random.nextInt(METHODS.size())) : "POST";
        String body = body(random);
        HttpRequest.Builder builder = (random.nextInt(8) == 0 ? topic.client.anonymous(path) : topic.client.asOps(path))
                .method(method, method.equals("GET") || method.equals("HEAD") || method.equals("TRACE")
                        ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (random.nextInt(4) == 0) {
            builder.header("Content-Type", List.of("application/json", "text/plain", "application/xml", "*/*; q=x")
                    .get(random.nextInt(4)));
        }
        if (random.nextInt(6) == 0) {
            builder.header("Accept", List.of("text/html", "application/xml", "*/*", "x/y").get(random.nextInt(4)));
        }
        return builder.build();
    }

    /** A body that is mostly not what an endpoint accepts; now and then a dry run, which changes nothing. */
    private static String body(Random random) {
        int kind = random.nextInt(5);
        if (kind == 0) {
            StringBuilder out = new StringBuilder();
            int n = random.nextInt(40);
            for (int i = 0; i < n; i++) {
                out.append(PIECES.get(random.nextInt(PIECES.size())));
            }
            return out.toString();
        }
        if (kind == 1) {
            return "{\"" + List.of("all", "members", "contains", "olderThan", "diedBefore").get(random.nextInt(5))
                    + "\":" + PIECES.get(random.nextInt(PIECES.size())) + ",\"dryRun\":true}";
        }
        if (kind == 2) {
            byte[] bytes = new byte[random.nextInt(200)];
            random.nextBytes(bytes);
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }
        if (kind == 3) {
            return "{\"members\":[" + "\"fuzz-dead-1\",".repeat(random.nextInt(3000)) + "\"x\"],\"dryRun\":true}";
        }
        return "";
    }

    private static String token(Random random) {
        // no %2e: Liberty refuses an encoded dot itself, before any application, and logs it with a stack trace
        // (SRVE0315E, CWWWC0005I), which no application can prevent (docs/security.md)
        List<String> tokens = List.of("..", ".", "%00", "0:9223372036854775807", "-1", "x".repeat(2000), "%25ZZ",
                "a%20b", "%E2%80%A8", "1:1", "99999999999");
        return tokens.get(random.nextInt(tokens.size()));
    }

    /**
     * The fuzz topic's state in Redis: each slot's dead and store queues with their scores, its pause flags, and its
     * flow settings.
     */
    private static String snapshot() {
        List<String> out = new ArrayList<>();
        for (int slot = 0; slot < 2; slot++) {
            for (String key : List.of(topic.keys.slot(slot).dead(), topic.keys.slot(slot).store())) {
                List<ScoredValue<String>> members = topic.redis.zrangeWithScores(key, 0, -1);
                out.add(key + "=" + members);
            }
            out.add("paused" + slot + "=" + topic.redis.exists(topic.keys.slot(slot).paused()));
        }
        out.add("flow=" + new TreeMap<>(topic.redis.hgetall(topic.keys.flow())));
        return String.join("\n", out);
    }
}
