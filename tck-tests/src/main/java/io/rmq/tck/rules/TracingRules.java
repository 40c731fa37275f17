package io.rmq.tck.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Destroyed;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

import io.rmq.tck.support.Inbox;
import io.rmq.tck.support.Outbox;
import io.rmq.tck.support.Received;
import io.rmq.tck.support.RedisProbe;
import io.rmq.testing.otlp.OtlpReceiver;
import io.rmq.testing.otlp.ReceivedLink;
import io.rmq.testing.otlp.ReceivedSpan;

/**
 * Tracing through the runtime's own OpenTelemetry, checked on what its OTLP exporter sends (to an {@link OtlpReceiver}
 * in the application's JVM, see {@link TracingConfigSource}): a send and its delivery are one trace joined through
 * Redis; a delivery that merged 50 sends links each of them and counts them; a retried message's second delivery
 * links the first; a channel pair with {@code tracing-enabled=false} stores nothing in Redis and exports no span.
 *
 * <p>A contract rule class: the contract suite runs it on Open Liberty with {@code mpTelemetry-2.1}
 * ({@code io.rmq.tck.TracingIT}; not on its Weld embedded container, which has no OpenTelemetry: the connector's own
 * {@code TracingIT} covers Weld), the Quarkus example on Quarkus with {@code quarkus-opentelemetry}
 * ({@code TracingContractIT}); {@link #CHANNELS} are its channels, and its beans (the nested classes) are part of the
 * application under test. Spans are told apart by topic and by what each test makes unique: the body size of its
 * message, its merged-send count, its retry.
 */
public abstract class TracingRules {

    static final String TRACED = "traced";
    static final String UNTRACED = "untraced";
    /** Merged sends kept and linked per message: above the 50 of the merge test, so that every send is linked. */
    static final int MAX_LINKS = 64;

    /** The channels of these rules: a traced pair and a pair with tracing off, RANGE_MERGE topics of one slot. */
    public static final ContractChannels CHANNELS = ContractChannels.declare()
            .outgoing(TRACED + "-out", topic(TRACED, "time-range", 1500, "tracing-max-links", MAX_LINKS))
            .incoming(TRACED, topic(TRACED, "retry-backoff", 0, "poll-interval", 200, "tracing-max-links", MAX_LINKS))
            .outgoing(UNTRACED + "-out", topic(UNTRACED, "time-range", 1000, "tracing-enabled", false))
            .incoming(UNTRACED, topic(UNTRACED, "retry-backoff", 0, "poll-interval", 200, "tracing-enabled", false));

    private static Object[] topic(String topic, Object... more) {
        Object[] base = {"topic", topic, "topic-type", "RANGE_MERGE", "slot-amount", 1};
        Object[] all = new Object[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    /** Sends to both topics. */
    @ApplicationScoped
    public static class TracedSender {
        @Inject
        @Channel(TRACED + "-out")
        Emitter<Object> traced;

        @Inject
        @Channel(UNTRACED + "-out")
        Emitter<Object> untraced;

        /** Sends every payload to the traced topic and waits until Redis stored or merged each. */
        public void sendTraced(String... payloads) {
            sendAll(traced, payloads);
        }

        /** Sends every payload to the topic whose channels do not trace, and waits. */
        public void sendUntraced(String... payloads) {
            sendAll(untraced, payloads);
        }

        private static void sendAll(Emitter<Object> emitter, String... payloads) {
            List<CompletableFuture<Void>> sends = new ArrayList<>();
            for (String payload : payloads) {
                sends.add(Outbox.send(emitter, payload, null));
            }
            try {
                CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new))
                        .get(Inbox.WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                throw new AssertionError("the sends were not all acked", e);
            }
        }
    }

    /** Nacks the first delivery of {@code flaky-*}, acks the rest; records everything. */
    @ApplicationScoped
    public static class TracedConsumer {
        private final Inbox inbox = new Inbox();

        public Inbox inbox() {
            return inbox;
        }

        @Incoming(TRACED)
        public CompletionStage<Void> traced(Message<String> message) {
            Received r = inbox.record(message);
            if (r.payload().startsWith("flaky-") && r.attempt() == 1) {
                return message.nack(new IllegalStateException("the first delivery of " + r.payload() + " fails"));
            }
            return message.ack();
        }

        @Incoming(UNTRACED)
        public CompletionStage<Void> untraced(Message<String> message) {
            inbox.record(message);
            return message.ack();
        }
    }

    /** Stops the receiver when the application stops (an application server keeps running after it). */
    @ApplicationScoped
    public static class ReceiverLifecycle {
        void stop(@Observes @Destroyed(ApplicationScoped.class) Object event) {
            TracingConfigSource.closeReceiver();
        }
    }

    @Inject
    TracedSender sender;

    @Inject
    TracedConsumer consumer;

    @Inject
    RedisProbe probe;

    @Test
    public void aSendAndItsDeliveryAreOneTraceJoinedThroughRedis() {
        String payload = "one trace, joined through Redis";
        sender.sendTraced(payload);
        assertThat(probe.redis().hexists(traceKey(TRACED), payload))
                .as("the send's context, stored beside the pending message").isTrue();

        ReceivedSpan process = awaitSpans(processOf(TRACED).and(bodySize(payload)), 1).get(0);
        ReceivedSpan send = awaitSpans(s -> s.spanId().equals(process.parentSpanId()), 1).get(0);
        assertThat(send.name()).isEqualTo("send " + TRACED);
        assertThat(send.kind()).isEqualTo("PRODUCER");
        assertThat(send.stringAttribute("messaging.system")).isEqualTo("redis-rmq");
        assertThat(send.stringAttribute("messaging.destination.name")).isEqualTo(TRACED);
        assertThat(send.stringAttribute("messaging.operation.type")).isEqualTo("send");
        assertThat(send.longAttribute("rmq.slot")).isZero();
        assertThat(process.name()).isEqualTo("process " + TRACED);
        assertThat(process.kind()).isEqualTo("CONSUMER");
        assertThat(process.traceId()).as("one trace").isEqualTo(send.traceId());
        assertThat(process.longAttribute("rmq.attempt")).isEqualTo(1);
        assertThat(process.longAttribute("rmq.merged_sends")).isEqualTo(1);
        assertThat(process.stringAttribute("rmq.outcome")).isEqualTo("ack");
        await().atMost(Inbox.WAIT).until(() -> !probe.redis().hexists(traceKey(TRACED), payload));
    }

    @Test
    public void aDeliveryThatMerged50SendsLinksEachOfThem() {
        String[] fifty = new String[50];
        java.util.Arrays.fill(fifty, "sent fifty times");
        sender.sendTraced(fifty);

        ReceivedSpan process = awaitSpans(processOf(TRACED).and(s -> Long.valueOf(50).equals(s.longAttribute("rmq.merged_sends"))), 1).get(0);
        assertThat(process.root()).as("a merged delivery starts a trace of its own").isTrue();
        assertThat(process.links()).hasSize(50).allMatch(l -> "send".equals(l.attribute("rmq.link")));
        Set<String> linked = process.links().stream().map(ReceivedLink::spanId).collect(Collectors.toSet());
        assertThat(linked).as("50 distinct sends").hasSize(50);
        List<ReceivedSpan> sends = awaitSpans(s -> linked.contains(s.spanId()), 50);
        assertThat(sends).allSatisfy(s -> {
            assertThat(s.name()).isEqualTo("send " + TRACED);
            assertThat(s.kind()).isEqualTo("PRODUCER");
        });
        assertThat(sends).filteredOn(s -> Boolean.TRUE.equals(s.attribute("rmq.merged"))).hasSize(49);
    }

    @Test
    public void aRetriedMessageLinksItsPreviousAttempt() {
        sender.sendTraced("flaky-once");
        consumer.inbox().awaitMatching(r -> r.payload().equals("flaky-once") && r.attempt() == 2, 1);

        ReceivedSpan second = awaitSpans(processOf(TRACED).and(bodySize("flaky-once"))
                .and(s -> Long.valueOf(2).equals(s.longAttribute("rmq.attempt"))), 1).get(0);
        List<ReceivedLink> previous = second.linksWith("rmq.link", "previous-attempt");
        assertThat(previous).hasSize(1);
        ReceivedSpan first = awaitSpans(s -> s.spanId().equals(previous.get(0).spanId()), 1).get(0);
        assertThat(first.longAttribute("rmq.attempt")).isEqualTo(1);
        assertThat(first.stringAttribute("rmq.outcome")).isEqualTo("retry");
        assertThat(first.status()).isEqualTo("ERROR");
        assertThat(second.stringAttribute("rmq.outcome")).isEqualTo("ack");
        assertThat(second.parentSpanId()).as("both attempts are the send's children").isEqualTo(first.parentSpanId())
                .isNotEmpty();
        await().atMost(Inbox.WAIT).until(() -> !probe.redis().hexists(traceKey(TRACED), "flaky-once"));
    }

    @Test
    public void withTracingOffNothingIsStoredInRedisAndNoSpanIsExported() {
        sender.sendUntraced("quiet", "quiet");
        assertThat(probe.pending(UNTRACED)).as("merged, pending").hasSize(1);
        assertThat(probe.redis().exists(traceKey(UNTRACED))).isZero();
        consumer.inbox().awaitStartingWith("quiet", 1);
        // a traced message sent after it: once its spans are exported, the untraced ones would have been too
        sender.sendTraced("after the quiet one");
        awaitSpans(processOf(TRACED).and(bodySize("after the quiet one")), 1);
        assertThat(probe.redis().exists(traceKey(UNTRACED))).isZero();
        assertThat(TracingConfigSource.receiver()
                .spans(s -> UNTRACED.equals(s.stringAttribute("messaging.destination.name")))).isEmpty();
    }

    private String traceKey(String topic) {
        return "trace{" + probe.storeKey(topic, 0) + "}";
    }

    private static List<ReceivedSpan> awaitSpans(Predicate<ReceivedSpan> filter, int count) {
        return TracingConfigSource.receiver().awaitSpans(filter, count);
    }

    private static Predicate<ReceivedSpan> processOf(String topic) {
        return s -> s.name().equals("process " + topic);
    }

    private static Predicate<ReceivedSpan> bodySize(String payload) {
        long size = payload.getBytes(StandardCharsets.UTF_8).length;
        return s -> Long.valueOf(size).equals(s.longAttribute("messaging.message.body.size"));
    }
}
