package io.rmq.engine.produce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.rmq.engine.RmqEngine;

class ProducerOptionsTest {

    @Test
    void sendsAreConfirmedByTheMasterAloneByDefault() {
        ProducerOptions defaults = ProducerOptions.defaults();

        assertThat(defaults.durable()).isFalse();
        assertThat(defaults.durableReplicas()).isZero();
        assertThat(defaults.durabilityTimeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(defaults).hasToString("ProducerOptions[durableReplicas=0]");
    }

    @Test
    void toBuilderKeepsEveryOption() {
        ProducerOptions o = ProducerOptions.builder().durableReplicas(2).durabilityTimeout(Duration.ofMillis(250)).build();

        ProducerOptions copy = o.toBuilder().build();

        assertThat(copy).isEqualTo(o).hasSameHashCodeAs(o).hasToString(o.toString());
        assertThat(copy.durable()).isTrue();
        assertThat(copy.durableReplicas()).isEqualTo(2);
        assertThat(copy.durabilityTimeout()).isEqualTo(Duration.ofMillis(250));
        assertThat(o).hasToString("ProducerOptions[durableReplicas=2, durabilityTimeout=250 ms]");
    }

    @Test
    void theTimeoutStaysWellUnderTheCommandTimeout() {
        // a send queued behind a WAIT waits for it: the client must not time it out meanwhile
        assertThat(ProducerOptions.MAX_DURABILITY_TIMEOUT).isEqualTo(Duration.ofSeconds(5))
                .isLessThan(RmqEngine.DEFAULT_COMMAND_TIMEOUT);
        ProducerOptions.builder().durabilityTimeout(Duration.ofSeconds(5)).durabilityTimeout(Duration.ofMillis(1));
    }

    @Test
    void outOfRangeValuesAreRefusedWithWhatIsAllowed() {
        assertThatIllegalArgumentException().isThrownBy(() -> ProducerOptions.builder().durableReplicas(-1))
                .withMessage("a number of replicas from 0 to 1000 is required, not -1");
        assertThatIllegalArgumentException().isThrownBy(() -> ProducerOptions.builder().durableReplicas(1001))
                .withMessage("a number of replicas from 0 to 1000 is required, not 1001");
        assertThatIllegalArgumentException().isThrownBy(() -> ProducerOptions.builder().durabilityTimeout(Duration.ZERO))
                .withMessage("a timeout from 1 to 5000 ms is required, not 0 ms");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> ProducerOptions.builder().durabilityTimeout(Duration.ofMillis(5001)))
                .withMessage("a timeout from 1 to 5000 ms is required, not 5001 ms");
    }
}
