package io.rmq.engine.consume;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.rmq.engine.coordination.CoordinationOptions;

class ConsumerOptionsTest {

    @Test
    void coordinationIsOffByDefault() {
        assertThat(ConsumerOptions.defaults().coordination()).isEmpty();
        assertThat(ConsumerOptions.defaults().toString()).contains("coordination=none");
    }

    @Test
    void toBuilderKeepsEveryOption() {
        CoordinationOptions coordination = CoordinationOptions.builder("zk:2181").root("/x").build();
        ConsumerOptions o = ConsumerOptions.builder().maxRetries(3).prepareTimeout(Duration.ofSeconds(4)).batchSize(5)
                .retryBackoff(Duration.ofMillis(6)).retryBackoffMax(Duration.ofMillis(7)).pollInterval(Duration.ofMillis(80))
                .shutdownTimeout(Duration.ofMillis(9)).coordination(coordination).build();

        ConsumerOptions copy = o.toBuilder().build();

        assertThat(copy.maxRetries()).isEqualTo(3);
        assertThat(copy.prepareTimeout()).isEqualTo(Duration.ofSeconds(4));
        assertThat(copy.batchSize()).isEqualTo(5);
        assertThat(copy.retryBackoff()).isEqualTo(Duration.ofMillis(6));
        assertThat(copy.retryBackoffMax()).isEqualTo(Duration.ofMillis(7));
        assertThat(copy.pollInterval()).isEqualTo(Duration.ofMillis(80));
        assertThat(copy.shutdownTimeout()).isEqualTo(Duration.ofMillis(9));
        assertThat(copy.coordination()).contains(coordination);
        assertThat(copy).hasToString(o.toString());
        assertThat(o.toBuilder().coordination(null).build().coordination()).isEmpty();
    }
}
