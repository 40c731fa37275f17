package io.rmq.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.spi.Connector;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.connector.RedisRmqConnector;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;
import io.rmq.tck.deployment.TckDeployment;
import io.rmq.tck.support.Inbox;
import io.rmq.tck.support.Outbox;
import io.rmq.tck.support.Received;
import io.rmq.tck.support.RedisProbe;

/**
 * The connector's metrics as an operator reads them: after a known workload, the runtime's
 * {@code /metrics} endpoint (MicroProfile Metrics, Prometheus format) shows exact counts per channel
 * and topic, and the queue gauges read from Redis.
 *
 * <p>The workload: 100 sends to a {@code RANGE_MERGE} topic, 60 distinct and 40 duplicates of pending
 * ones (60 stored, 40 merged); the consumer nacks every delivery of 3 messages ({@code max-retries=2}:
 * 9 nacks, 3 dead) and the first delivery of a fourth (1 nack); a message left in the prepare queue by a
 * consumer that died is rolled back at its deadline (1 redelivered); an admin tool counts 2 requeues
 * through the connector's hook. So 68 deliveries, 58 acks, 10 nacks.
 *
 * <p>The first test runs the workload in the container; the second reads {@code /metrics} over HTTP from
 * the client, where the server has one: on Open Liberty with {@code mpMetrics-5.1} (Weld embedded has no
 * HTTP endpoint, and skips it).
 */
@ExtendWith(ArquillianExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
public class MetricsIT {

    static final String TOPIC = "metered";

    @Deployment
    public static WebArchive deployment() {
        return TckDeployment.of(MetricsIT.class)
                .outgoing("metered-out", "topic", TOPIC, "topic-type", "RANGE_MERGE", "slot-amount", 1,
                        "time-range", 3000)
                .incoming("metered", "topic", TOPIC, "topic-type", "RANGE_MERGE", "slot-amount", 1,
                        "max-retries", 2, "retry-backoff", 0, "prepare-timeout", 1000, "poll-interval", 200)
                .build();
    }

    /** Sends through "metered-out". */
    @ApplicationScoped
    public static class Sender {
        @Inject
        @Channel("metered-out")
        Emitter<Object> emitter;

        public CompletableFuture<Void> send(String payload) {
            return Outbox.send(emitter, payload, null);
        }
    }

    /** Nacks every delivery of {@code poison-*} and the first of {@code flaky-*}; acks the rest. */
    @ApplicationScoped
    public static class Consumer {
        private final Inbox inbox = new Inbox();

        public Inbox inbox() {
            return inbox;
        }

        @Incoming("metered")
        public CompletionStage<Void> consume(Message<String> m) {
            Received r = inbox.record(m);
            if (r.payload().startsWith("poison-") || (r.payload().startsWith("flaky-") && r.attempt() == 1)) {
                return m.nack(new IllegalStateException("cannot process " + r.payload()));
            }
            return m.ack();
        }
    }

    @Inject
    Sender sender;

    @Inject
    Consumer consumer;

    @Inject
    RedisProbe probe;

    /** The connector, as an admin tool of the application injects it to count its requeues. */
    @Inject
    @Connector(TckDeployment.CONNECTOR)
    RedisRmqConnector connector;

    @Test
    @Order(1)
    public void aKnownWorkloadIsSentConsumedAndSettled() throws Exception {
        List<CompletableFuture<Void>> sends = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            int n = i % 60; // 60 distinct, then 40 duplicates of pending ones
            sends.add(sender.send((n < 3 ? "poison-" : n == 3 ? "flaky-" : "fine-") + n));
        }
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(Inbox.WAIT.toMillis(), TimeUnit.MILLISECONDS);
        probe.leaveInPrepareQueue(TOPIC, "abandoned", probe.redisTimeMillis() - 1);
        String keyPrefix = probe.key(""); // the deployment's key prefix
        connector.metrics().requeued(new TopicDefinition(TOPIC, 1, TopicType.RANGE_MERGE, keyPrefix), 2);

        await().atMost(Inbox.WAIT).until(() -> consumer.inbox().all().size() == 68
                && probe.dead(TOPIC).size() == 3 && probe.pending(TOPIC).isEmpty() && probe.preparing(TOPIC) == 0);
        assertThat(consumer.inbox().startingWith("poison-")).hasSize(9);
        assertThat(consumer.inbox().startingWith("flaky-")).hasSize(2);
        assertThat(consumer.inbox().startingWith("abandoned")).singleElement()
                .satisfies(r -> assertThat(r.attempt()).isEqualTo(2));
    }

    @Test
    @Order(2)
    @RunAsClient
    public void theMetricsEndpointShowsExactCountsAndTheQueueGauges() throws Exception {
        String port = System.getProperty("rmq.tck.httpPort");
        assumeTrue("liberty-managed".equals(System.getProperty("arquillian.launch")) && port != null,
                "a /metrics endpoint is served by Open Liberty (mpMetrics-5.1) only");
        URI metrics = URI.create("http://localhost:" + port + "/metrics?scope=application");
        String topic = TckDeployment.keyPrefix(MetricsIT.class.getSimpleName()) + TOPIC;
        Map<String, String> out = Map.of("topic", topic, "channel", "metered-out");
        Map<String, String> in = Map.of("topic", topic, "channel", "metered");
        Map<String, String> perTopic = Map.of("topic", topic);

        // the queue gauges are read from Redis on a scrape, at most every 5 s: wait for a fresh read
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            List<Sample> samples = scrape(metrics);
            assertThat(value(samples, "rmq_queue_dead", perTopic)).isEqualTo(3.0);
            assertThat(value(samples, "rmq_queue_pending", perTopic)).isEqualTo(0.0);
        });
        List<Sample> samples = scrape(metrics);
        Map<String, Double> expected = new TreeMap<>();
        Map<String, Double> actual = new TreeMap<>();
        BiConsumerOfExpectations expect = (name, labels, value) -> {
            expected.put(name + labels, value);
            actual.put(name + labels, valueOrNull(samples, name, labels));
        };
        expect.accept("rmq_messages_sent_total", out, 60.0);
        expect.accept("rmq_messages_merged_total", out, 40.0);
        expect.accept("rmq_messages_delivered_total", in, 68.0);
        expect.accept("rmq_messages_acked_total", in, 58.0);
        expect.accept("rmq_messages_nacked_total", in, 10.0);
        expect.accept("rmq_messages_redelivered_total", perTopic, 1.0);
        expect.accept("rmq_messages_dead_total", perTopic, 3.0);
        expect.accept("rmq_messages_requeued_total", perTopic, 2.0);
        expect.accept("rmq_processing_duration_seconds_count", in, 68.0);
        expect.accept("rmq_delivery_lateness_seconds_count", in, 68.0);
        expect.accept("rmq_queue_inflight", perTopic, 0.0);
        expect.accept("rmq_queue_due", perTopic, 0.0);
        expect.accept("rmq_queue_oldest_due_age_seconds", perTopic, 0.0);
        // all at once, with every rmq_ line served, so that one run shows every difference
        assertThat(actual).as("the rmq_ samples of /metrics: " + samples.stream()
                .filter(x -> x.name().startsWith("rmq_")).toList()).isEqualTo(expected);
    }

    @FunctionalInterface
    private interface BiConsumerOfExpectations {
        void accept(String name, Map<String, String> labels, double value);
    }

    /** One line of the Prometheus text format: {@code name{label="value",...} number}. */
    record Sample(String name, Map<String, String> labels, double value) {
    }

    private static final Pattern LINE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)\\})?\\s+(\\S+)");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private static List<Sample> scrape(URI uri) throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET " + uri).isEqualTo(200);
        List<Sample> samples = new ArrayList<>();
        for (String line : response.body().split("\n")) {
            Matcher m = LINE.matcher(line);
            if (line.startsWith("#") || !m.find()) {
                continue;
            }
            Map<String, String> labels = new TreeMap<>();
            if (m.group(2) != null) {
                Matcher l = LABEL.matcher(m.group(2));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(3))));
        }
        return samples;
    }

    /** The value of the one sample named {@code name} whose labels include {@code labels}. */
    private static double value(List<Sample> samples, String name, Map<String, String> labels) {
        Double value = valueOrNull(samples, name, labels);
        assertThat(value).as(name + " " + labels + " among the rmq_ samples "
                + samples.stream().filter(s -> s.name().startsWith("rmq_")).toList()).isNotNull();
        return value;
    }

    /** The value of the one sample named {@code name} whose labels include {@code labels}; {@code null} if not exactly one. */
    private static Double valueOrNull(List<Sample> samples, String name, Map<String, String> labels) {
        List<Sample> matching = samples.stream()
                .filter(s -> s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet())
                        && (labels.containsKey("channel") || !s.labels().containsKey("channel")))
                .toList();
        return matching.size() == 1 ? matching.get(0).value() : null;
    }
}
