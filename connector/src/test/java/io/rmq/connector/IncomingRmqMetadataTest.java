package io.rmq.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class IncomingRmqMetadataTest {

    @Test
    void gettersReturnTheConstructorArguments() {
        IncomingRmqMetadata metadata = new IncomingRmqMetadata("prices-in", "prices", 3, 1, 1.7e12);

        assertThat(metadata.getChannel()).isEqualTo("prices-in");
        assertThat(metadata.getTopic()).isEqualTo("prices");
        assertThat(metadata.getSlot()).isEqualTo(3);
        assertThat(metadata.getAttempt()).isEqualTo(1);
        assertThat(metadata.getScore()).isEqualTo(1.7e12);
        assertThat(metadata).hasToString(
                "IncomingRmqMetadata[channel=prices-in, topic=prices, slot=3, attempt=1, score=1.7E12]");
    }

    @Test
    void equalWhenEveryFieldIsEqual() {
        IncomingRmqMetadata metadata = new IncomingRmqMetadata("c", "t", 0, 2, -4.5);

        assertThat(metadata).isEqualTo(new IncomingRmqMetadata("c", "t", 0, 2, -4.5))
                .hasSameHashCodeAs(new IncomingRmqMetadata("c", "t", 0, 2, -4.5))
                .isNotEqualTo(new IncomingRmqMetadata("d", "t", 0, 2, -4.5))
                .isNotEqualTo(new IncomingRmqMetadata("c", "u", 0, 2, -4.5))
                .isNotEqualTo(new IncomingRmqMetadata("c", "t", 1, 2, -4.5))
                .isNotEqualTo(new IncomingRmqMetadata("c", "t", 0, 3, -4.5))
                .isNotEqualTo(new IncomingRmqMetadata("c", "t", 0, 2, -4.0))
                .isNotEqualTo(new IncomingRmqMetadata("c", "t", 0, 2, -4.5, "k"))
                .isNotEqualTo(null);
    }

    @Test
    void theFlowKeyIsShownWhenTheChannelLimitsKeys() {
        IncomingRmqMetadata keyed = new IncomingRmqMetadata("c", "t", 0, 1, 2, "order-7");

        assertThat(keyed.getFlowKey()).contains("order-7");
        assertThat(keyed).hasToString("IncomingRmqMetadata[channel=c, topic=t, slot=0, attempt=1, score=2.0, flowKey=order-7]")
                .isEqualTo(new IncomingRmqMetadata("c", "t", 0, 1, 2, "order-7"));
        assertThat(new IncomingRmqMetadata("c", "t", 0, 1, 2).getFlowKey()).isEmpty();
    }

    @Test
    void argumentsAreChecked() {
        assertThatThrownBy(() -> new IncomingRmqMetadata(null, "t", 0, 1, 0)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new IncomingRmqMetadata("c", null, 0, 1, 0)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new IncomingRmqMetadata("c", "t", -1, 1, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("slot");
        assertThatThrownBy(() -> new IncomingRmqMetadata("c", "t", 0, 0, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("attempt");
    }
}
