package io.rmq.examples.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.json.JsonObject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.rmq.engine.admin.AdminOperation;
import io.rmq.engine.admin.AdminProgress;
import io.rmq.engine.admin.DeadSelection;
import io.rmq.engine.admin.RecordedOperation;
import io.rmq.engine.admin.RmqAdmin;

/**
 * The requeues and purges under way, against the running application (started by the POM in Open Liberty): one
 * whose client went away stops, a long one is answered with whitespace before its JSON, one run by another process
 * (as the command-line tool runs them) is listed and cancelled through the endpoints, and a one-call change that
 * fails is audited. Each test has its own topic, whose dead messages it writes itself; nothing consumes them.
 */
class AdminOperationsIT {

    static final Duration WAIT = Duration.ofSeconds(60);

    static ExampleTopic abandoned;
    static ExampleTopic patient;
    static ExampleTopic elsewhere;
    static ExampleTopic failing;

    @BeforeAll
    static void topics() throws Exception {
        abandoned = ExampleTopic.record("abandon-check", 1);
        patient = ExampleTopic.record("patient-check", 1);
        elsewhere = ExampleTopic.record("elsewhere-check", 1);
        failing = ExampleTopic.record("failing-check", 1);
    }

    @AfterAll
    static void close() {
        for (ExampleTopic topic : new ExampleTopic[] {abandoned, patient, elsewhere, failing}) {
            if (topic != null) {
                topic.close();
            }
        }
    }

    @Test
    void aRequeueWhoseClientWentAwayStops() throws Exception {
        deadMessages(abandoned, 40);
        long mark = abandoned.log.mark();
        URI base = URI.create(abandoned.client.url());
        String body = "{\"all\":true,\"rate\":2}";
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout((int) WAIT.toMillis());
            OutputStream out = socket.getOutputStream();
            out.write(("POST /rmq/admin/topics/abandon-check/dead/requeue HTTP/1.1\r\nHost: " + base.getAuthority()
                    + "\r\nAuthorization: " + AdminClient.basic(AdminClient.USER, AdminClient.PASSWORD)
                    + "\r\nX-Requested-By: rmq-test\r\nContent-Type: application/json\r\nContent-Length: "
                    + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            byte[] status = socket.getInputStream().readNBytes(12);
            assertThat(new String(status, StandardCharsets.US_ASCII)).as("committed after its grace").isEqualTo("HTTP/1.1 200");
        } // the client goes away, the requeue still has 36 or more messages to move at 2/s
        await().atMost(WAIT).until(() -> abandoned.log.since(mark).contains("user 'ops' stopped requeuing dead messages on topic "
                + "'abandon-check'"));
        String audit = abandoned.log.since(mark);
        assertThat(audit).contains("its client went away");
        Matcher moved = Pattern.compile("topic 'abandon-check': (\\d+) moved").matcher(audit);
        assertThat(moved.find()).as(audit).isTrue();
        long requeued = Long.parseLong(moved.group(1));
        assertThat(requeued).as("moved before it stopped").isLessThan(40);
        assertThat(abandoned.redis.zcard(abandoned.keys.slot(0).dead())).as("ended: nothing moves any more")
                .isEqualTo(40 - requeued);
        assertThat(operations(abandoned)).noneMatch(o -> o.getString("topic").equals("abandon-check"));
    }

    @Test
    void aLongRequeueIsAnsweredWithWhitespaceBeforeItsJson() throws Exception {
        deadMessages(patient, 5);
        HttpResponse<String> answer = patient.client.post("/rmq/admin/topics/patient-check/dead/requeue",
                "{\"all\":true,\"rate\":1}"); // the first at once, then 1 per second: about 4 s, well beyond the 1 s grace
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(answer.body()).startsWith(" ");
        assertThat(AdminClient.json(answer.body()).getJsonNumber("count").longValue()).isEqualTo(5);
    }

    @Test
    void aRequeueOfAnotherProcessIsListedAndCancelledThroughTheEndpoints() throws Exception {
        deadMessages(elsewhere, 30);
        String redisUri = elsewhere.client.topics().getString("redis");
        try (RmqAdmin tool = RmqAdmin.connect(redisUri)) { // as the command-line tool runs a requeue
            var topic = tool.topic("elsewhere-check", ExampleTopic.PREFIX);
            AdminProgress progress = new AdminProgress();
            CompletableFuture<Long> requeue = CompletableFuture.supplyAsync(() -> {
                try (RecordedOperation recorded = tool.recordOperation(ExampleTopic.PREFIX, new AdminOperation("cli-op-1",
                        "cli:tester", "requeuing dead messages", "elsewhere-check", "selection: all, at most 1/s",
                        Instant.now(), 0, false), progress)) {
                    return tool.requeueDead(topic, DeadSelection.all(), 1, progress);
                }
            });
            await().atMost(WAIT).until(() -> operations(elsewhere).stream().anyMatch(o -> o.getString("id").equals("cli-op-1")
                    && o.getString("user").equals("cli:tester")));
            HttpResponse<String> cancelled = elsewhere.client.post("/rmq/admin/operations/cli-op-1/cancel", "");
            assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(200);
            assertThat(AdminClient.json(cancelled.body()).getBoolean("stopping")).isTrue();
            assertThat(requeue.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isLessThan(30);
            assertThat(progress.stopped()).isTrue();
            assertThat(operations(elsewhere)).noneMatch(o -> o.getString("id").equals("cli-op-1"));
        }
    }

    @Test
    void aOneCallChangeThatFailsIsAudited() throws Exception {
        String paused = failing.keys.slot(0).paused();
        failing.redis.hset(paused, "not", "a flag"); // a resume then fails in Redis: WRONGTYPE
        String store = failing.keys.slot(0).store();
        failing.redis.set(store, "not a queue"); // so does a removal of a pending message
        try {
            long mark = failing.log.mark();
            assertThat(failing.client.post("/rmq/admin/topics/failing-check/resume", "").statusCode()).isEqualTo(502);
            assertThat(failing.client.post("/rmq/admin/topics/failing-check/pending/remove", "{\"content\":\"x\"}")
                    .statusCode()).isEqualTo(502);
            await().atMost(WAIT).until(() -> failing.log.since(mark).contains("removed a pending message on topic 'failing-check'"));
            String audit = failing.log.since(mark);
            assertThat(audit).contains("RMQ-0956 RMQ admin: user 'ops' stopped resumed consumption on topic 'failing-check': "
                    + "its slot, outcome unknown");
            assertThat(audit).contains("RMQ-0956 RMQ admin: user 'ops' stopped removed a pending message on topic "
                    + "'failing-check': slot 0, outcome unknown");
            assertThat(audit).doesNotContain("RMQ-0951 RMQ admin: user 'ops' resumed consumption on topic 'failing-check'");
        } finally {
            failing.redis.del(paused, store);
        }
    }

    private static List<JsonObject> operations(ExampleTopic topic) throws Exception {
        HttpResponse<String> listed = topic.client.get("/rmq/admin/operations");
        assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
        return AdminClient.json(listed.body()).getJsonArray("operations").getValuesAs(JsonObject.class);
    }

    /** {@code n} dead messages in slot 0 of {@code topic}, died a minute ago. */
    private static void deadMessages(ExampleTopic topic, int n) {
        for (int i = 0; i < n; i++) {
            topic.redis.zadd(topic.keys.slot(0).dead(), System.currentTimeMillis() - 60_000, topic.keys.topic().name() + "-" + i);
        }
    }
}
