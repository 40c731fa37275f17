package io.rmq.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.junit.jupiter.api.Test;

import io.rmq.engine.settlement.BenchmarkDeliveries;
import io.rmq.engine.settlement.Delivery;

class IncomingRmqMessageTest {

    private final BenchmarkDeliveries deliveries = new BenchmarkDeliveries();
    private final Delivery delivery = deliveries.delivery(new byte[] { 1, 2 }, "42");
    private final IncomingRmqMetadata metadata = new IncomingRmqMetadata("in", "t", 3, 1, 42.0);
    private final IncomingRmqMessage message = new IncomingRmqMessage("payload", metadata, delivery, null,
            new ChannelFailures("orders", "orders", io.rmq.connector.config.FailureStrategy.RETRY, f -> { }));

    @Test
    void itsMetadataIsTheIncomingMetadataAloneAsWithMetadataOf() {
        assertThat(message.getPayload()).isEqualTo("payload");
        assertThat(message.getMetadata(IncomingRmqMetadata.class)).containsSame(metadata);
        assertThat(message.getMetadata(Object.class)).containsSame(metadata);
        assertThat(message.getMetadata(String.class)).isEmpty();
        assertThat(message.getMetadata()).containsExactly(metadata);
        assertThat(message.getMetadata()).isSameAs(message.getMetadata());
        assertThatThrownBy(() -> message.getMetadata(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void ackCommitsTheDeliveryAndALaterNackDoesNothing() {
        assertThat(message.ack()).isCompleted();
        assertThat(message.nack(new IllegalStateException("late"))).isCompleted();
        assertThat(BenchmarkDeliveries.markDelivered(delivery)).as("finished: cannot be handed over any more").isFalse();
    }

    @Test
    void nackRequiresAReasonAsMessageDoes() {
        assertThatThrownBy(() -> message.nack(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aMessageDerivedFromItAcksTheSameDelivery() {
        Message<String> derived = message.withPayload("other").addMetadata("more");
        assertThat(derived.getMetadata(IncomingRmqMetadata.class)).containsSame(metadata);
        assertThat(derived.ack(Metadata.empty())).isCompleted();
        assertThat(BenchmarkDeliveries.markDelivered(delivery)).isFalse();
    }
}
