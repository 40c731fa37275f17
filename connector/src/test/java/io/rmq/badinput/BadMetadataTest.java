package io.rmq.badinput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.rmq.connector.OutgoingRmqMetadata;

/**
 * The catalogue of bad outgoing metadata that the builder refuses on its own (docs/bad-input.md):
 * {@code IllegalArgumentException} RMQ-2002 naming the property, the value and what is allowed, thrown
 * where the application builds the message, so no message exists to be lost. Metadata that only the
 * channel can judge (a field of another topic type, a missing time range) is in {@link BadOutgoingMessageIT}.
 */
class BadMetadataTest {

    @Test
    void aZeroOrNegativeTimeRangeIsRefused() {
        assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withTimeRange(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("RMQ-2002 Metadata property 'timeRange' = 'PT0S' is invalid: a duration from 1 to "
                        + "253402300799999 ms is required");
        assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withTimeRange(Duration.ofSeconds(-30)))
                .hasMessageStartingWith("RMQ-2002 Metadata property 'timeRange' = 'PT-30S' is invalid");
    }

    @Test
    void aTimeRangeBeyondTheYear9999IsRefused() {
        assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withTimeRange(Duration.ofDays(4_000_000)))
                .hasMessageStartingWith("RMQ-2002 Metadata property 'timeRange' = 'PT96000000H' is invalid");
    }

    @Test
    void aNaNOrInfinitePriorityIsRefused() {
        assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withPriority(Double.NaN))
                .hasMessage("RMQ-2002 Metadata property 'priority' = 'NaN' is invalid: a finite number is required");
        assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withPriority(Double.NEGATIVE_INFINITY))
                .hasMessage("RMQ-2002 Metadata property 'priority' = '-Infinity' is invalid: a finite number is required");
    }

    @Test
    void aNegativeDelayIsRefused() {
        assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withDelay(Duration.ofMillis(-1)))
                .hasMessage("RMQ-2002 Metadata property 'delay' = 'PT-0.001S' is invalid: a duration from 0 to "
                        + "253402300799999 ms is required");
    }

    @Test
    void aDeliveryTimeFarInTheFutureIsRefused() {
        assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withDeliverAt(Instant.parse("+10000-01-01T00:00:00Z")))
                .hasMessage("RMQ-2002 Metadata property 'deliverAt' = '+10000-01-01T00:00:00Z' is invalid: a time not"
                        + " after 9999-12-31T23:59:59.999Z is required");
        assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withDeliverAt(Instant.MAX))
                .hasMessageContaining("a time representable in epoch milliseconds is required");
    }

    @Test
    void aDeliveryTimeBeyondEpochMillisecondsInThePastIsRefused() {
        // far past but representable is fine (due at once: BadOutgoingMessageIT); Instant.MIN is not
        assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withDeliverAt(Instant.MIN))
                .hasMessageContaining("'deliverAt' = '-1000000000-01-01T00:00:00Z' is invalid: a time representable"
                        + " in epoch milliseconds is required");
        assertThat(OutgoingRmqMetadata.builder().withDeliverAt(Instant.parse("0001-01-01T00:00:00Z")).build()
                .getDeliverAt()).isPresent();
    }

    @Test
    void aDeliveryTimeTogetherWithADelayIsRefused() {
        assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withDeliverAt(Instant.parse("2030-01-01T00:00:00Z"))
                .withDelay(Duration.ofMinutes(5)).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("RMQ-2003 Metadata gives both deliverAt (2030-01-01T00:00:00Z) and delay (PT5M): set one"
                        + " of them");
    }

    @Test
    void anEmptySlotBasisIsRefused() {
        // usually a missing id: it would route every such message to one slot
        assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withSlotBasis(""))
                .hasMessage("RMQ-2002 Metadata property 'slotBasis' = '' is invalid: a string of 1 to 1024 characters"
                        + " is required; leave it unset to route by the content");
    }

    @Test
    void aSlotBasisLongerThan1024CharactersIsRefusedAndNotEchoedWhole() {
        String basis = "x".repeat(5000);
        assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withSlotBasis(basis))
                .hasMessage("RMQ-2002 Metadata property 'slotBasis' = '" + "x".repeat(64) + "... (5000 characters)'"
                        + " is invalid: a string of 1 to 1024 characters is required; leave it unset to route by the"
                        + " content");
        assertThat(OutgoingRmqMetadata.builder().withSlotBasis("x".repeat(1024)).build().getSlotBasis()).isPresent();
    }

    @Test
    void aNullValueIsRefused() {
        assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withSlotBasis(null))
                .hasMessage("RMQ-2002 Metadata property 'slotBasis' = 'null' is invalid: a non-null value is required");
        assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withDeliverAt(null))
                .hasMessageStartingWith("RMQ-2002 Metadata property 'deliverAt' = 'null' is invalid");
    }
}
