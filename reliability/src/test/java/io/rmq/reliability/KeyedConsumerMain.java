package io.rmq.reliability;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import io.rmq.connector.IncomingRmqMetadata;
import io.rmq.connector.RedisRmqConnector;
import io.rmq.testing.WeldApp;

/**
 * {@link ConnectorConsumerMain} with limits per key: SmallRye Reactive Messaging on Weld, two consumers of the
 * channel ({@code concurrency=2}) with {@code key-concurrency} set to the {@code consumers} argument, each message
 * processed for a random time up to the processing argument (µs), recorded, then acknowledged. The same contract
 * ({@code READY}, {@code STOPPED}, stops when its standard input closes).
 */
public final class KeyedConsumerMain {

    private KeyedConsumerMain() {
    }

    /** The application's consumer. */
    @ApplicationScoped
    public static class Recorder {
        static volatile HistoryLog log;
        static volatile long processingNanos;

        @Incoming("keyed")
        public CompletionStage<Void> consume(Message<byte[]> message) {
            long start = Clocks.nowMicros();
            LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(processingNanos + 1));
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
                    .incoming("keyed", "smallrye-redis-rmq", "redis-uri", args[0], "topic", args[1],
                            "topic-type", "FIXED_TIME", "slot-amount", args[2], "prepare-timeout", args[6],
                            "payload-type", "bytes", "poll-interval", 500, "retry-backoff", 0, "shutdown-timeout", 5_000,
                            "concurrency", 2, "key-concurrency", args[8])
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
