package io.rmq.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rmq.testing.faults.FaultProxy;
import io.rmq.testing.redis.RedisProcess;

/**
 * The scenarios' {@link Load} after an outage: held up for seconds by sends that wait for their reply, it
 * must not spend the rest of its stream in a burst that meets a connection being replaced. It did: the
 * half-open scenario of {@link NetworkFaultIT} then saw no send acknowledged after the connection was
 * replaced, and when nothing had been left in Redis, no delivery either.
 */
class LoadIT {

    @Test
    void aLoadHeldUpByAnOutageKeepsSendingAfterTheReconnection(@TempDir Path dir) throws Exception {
        try (RedisProcess redis = RedisProcess.start(dir, List.of(), false); FaultProxy proxy = FaultProxy.to(redis.port());
                Scenario scenario = new Scenario("load after an outage", proxy.redisUri(), redis.uri())) {
            Load load = scenario.send(4_000, 100, 1_000);
            await().atMost(Duration.ofSeconds(30)).until(() -> load.completed() >= 500);

            proxy.silence(); // no reply comes back: every permit of the load waits, and it falls behind its schedule
            Thread.sleep(3_000);
            proxy.refuse(true);
            proxy.reset(); // the waiting sends fail; while no connection can be made, every send is refused at once
            Thread.sleep(1_000);
            assertThat(load.isDone()).as("the load spent its stream while the producer was disconnected").isFalse();
            long reopened = Clocks.nowMicros();
            proxy.refuse(false);

            load.await(2);
            assertThat(scenario.history.sends().stream().filter(s -> s.acked() && s.atMicros() > reopened).count())
                    .as("sends acknowledged after the reconnection").isPositive();
        }
    }
}
