package io.rmq.connector;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rmq.testing.WeldApp;
import io.rmq.testing.redis.IdleCost;
import io.rmq.testing.redis.RedisProcess;

/**
 * What an idle incoming channel costs Redis: a channel with default settings on an empty 16-slot topic, in
 * SmallRye Reactive Messaging on Weld, against a {@code redis-server} of the test's own; see
 * {@link IdleCost}. Asserts at most one command per second; prints {@code IDLE COST ...}.
 */
class IdleChannelCostIT {

    private static final int SLOTS = 16;
    private static final Duration SETTLE = Duration.ofSeconds(12);
    private static final Duration WINDOW = Duration.ofSeconds(60);

    /** Acks whatever arrives on the channel "idle" (nothing does). */
    @ApplicationScoped
    public static class Receiver {
        @Incoming("idle")
        public CompletionStage<Void> consume(Message<String> message) {
            return message.ack();
        }
    }

    @Test
    void anIdleChannelCostsAtMostOneCommandPerSecond(@TempDir Path dir) throws Exception {
        String rmq = RedisRmqConnector.CONNECTOR_NAME;
        try (RedisProcess redis = RedisProcess.start(dir, List.of(), false);
                WeldApp app = WeldApp.builder().beans(RedisRmqConnector.class, Receiver.class)
                        .config("mp.messaging.connector." + rmq + ".redis-uri", "redis://" + redis.address())
                        .incoming("idle", rmq, "topic", "idle", "topic-type", "FIXED_TIME", "slot-amount", SLOTS)
                        .start()) {
            double perSecond = IdleCost.measure(redis, SETTLE, WINDOW, "connector channel, " + SLOTS + " slots");
            assertThat(perSecond).isLessThanOrEqualTo(1.0);
        }
    }
}
