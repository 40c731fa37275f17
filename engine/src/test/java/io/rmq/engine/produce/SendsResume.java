package io.rmq.engine.produce;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;

/** For tests that break a connection: waits until a producer's sends succeed again. */
public final class SendsResume {

    private SendsResume() {
    }

    /**
     * Sends {@code after-0}, {@code after-1}, ... with priority 1 until one is confirmed stored, failing when
     * none is within {@code within}.
     *
     * @return the content of the first confirmed send
     */
    public static String awaitStored(TopicProducer producer, Duration within) {
        int[] attempt = {0};
        Awaitility.await("a send confirmed stored again").atMost(within).pollInterval(Duration.ofMillis(200))
                .ignoreExceptions().until(() -> producer.sendWithPriority(
                        ("after-" + attempt[0]++).getBytes(StandardCharsets.UTF_8), 1, null)
                        .toCompletableFuture().get(30, TimeUnit.SECONDS).stored());
        return "after-" + (attempt[0] - 1);
    }
}
