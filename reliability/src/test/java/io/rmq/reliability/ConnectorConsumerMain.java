package io.rmq.reliability;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import io.rmq.connector.IncomingRmqMetadata;
import io.rmq.connector.RedisRmqConnector;
import io.rmq.testing.WeldApp;

/**
 * A consumer application as users write it, in a JVM of its own: SmallRye Reactive Messaging on Weld
 * with the {@code smallrye-redis-rmq} connector, and an {@code @Incoming} method that records each
 * message before acknowledging it. The same contract as {@link ConsumerMain} (arguments, {@code READY},
 * {@code STOPPED}, stops gracefully when its standard input closes), without coordination.
 */
public final class ConnectorConsumerMain {

    private ConnectorConsumerMain() {
    }

    /** The application's consumer. */
    @ApplicationScoped
    public static class Recorder {
        static volatile HistoryLog log;
        static volatile long processingNanos;

        @Incoming("faults")
        public CompletionStage<Void> consume(Message<byte[]> message) {
            long start = Clocks.nowMicros();
            LockSupport.parkNanos(processingNanos);
            String[] idAndKey = Messages.parse(message.getPayload());
            int attempt = message.getMetadata(IncomingRmqMetadata.class).map(IncomingRmqMetadata::getAttempt).orElse(0);
            log.delivered(idAndKey[0], idAndKey[1], attempt, start);
            return message.ack();
        }
    }

    public static void main(String[] args) throws Exception {
        String name = args[4];
        Recorder.processingNanos = TimeUnit.MICROSECONDS.toNanos(Long.parseLong(args[7]));
        try (HistoryLog log = HistoryLog.append(Path.of(args[3]), name + "/" + ProcessHandle.current().pid())) {
            Recorder.log = log;
            try (WeldApp app = WeldApp.builder().beans(RedisRmqConnector.class, Recorder.class)
                    .incoming("faults", "smallrye-redis-rmq", "redis-uri", args[0], "topic", args[1],
                            "topic-type", "FIXED_TIME", "slot-amount", args[2], "prepare-timeout", args[6],
                            "payload-type", "bytes", "poll-interval", 500, "retry-backoff", 0, "shutdown-timeout", 5_000,
                            "concurrency", 2)
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
