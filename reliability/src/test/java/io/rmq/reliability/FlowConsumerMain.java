package io.rmq.reliability;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import io.rmq.connector.IncomingRmqMetadata;
import io.rmq.connector.RedisRmqConnector;
import io.rmq.testing.WeldApp;

/**
 * A rate-limited consumer application in a JVM of its own: SmallRye Reactive Messaging on Weld with the
 * {@code smallrye-redis-rmq} connector, {@code concurrency} copies of one incoming channel (the spec's consumer
 * count) configured with {@code rate-limit} (the argument after the spec's), each recording every message before
 * acknowledging it. The contract of {@link ConnectorConsumerMain} ({@code READY}, {@code STOPPED}, stops when its
 * standard input closes).
 */
public final class FlowConsumerMain {

    private FlowConsumerMain() {
    }

    /** The application's consumer. */
    @ApplicationScoped
    public static class Recorder {
        static volatile HistoryLog log;

        @Incoming("limited")
        public CompletionStage<Void> consume(Message<byte[]> message) {
            long start = Clocks.nowMicros();
            String[] idAndKey = Messages.parse(message.getPayload());
            int attempt = message.getMetadata(IncomingRmqMetadata.class).map(IncomingRmqMetadata::getAttempt).orElse(0);
            log.delivered(idAndKey[0], idAndKey[1], attempt, start);
            return message.ack();
        }
    }

    public static void main(String[] args) throws Exception {
        String name = args[4];
        try (HistoryLog log = HistoryLog.append(Path.of(args[3]), name + "/" + ProcessHandle.current().pid())) {
            Recorder.log = log;
            try (WeldApp app = WeldApp.builder().beans(RedisRmqConnector.class, Recorder.class)
                    .incoming("limited", "smallrye-redis-rmq", "redis-uri", args[0], "topic", args[1],
                            "topic-type", "FIXED_TIME", "slot-amount", args[2], "prepare-timeout", args[6],
                            "payload-type", "bytes", "poll-interval", 500, "retry-backoff", 0, "shutdown-timeout", 5_000,
                            "concurrency", args[8], "rate-limit", args[9])
                    .start()) {
                System.out.println("READY");
                System.out.flush();
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                while (in.readLine() != null) {
                    // runs until the test closes our input
                }
            }
        }
        System.out.println("STOPPED");
        System.out.flush();
    }
}
