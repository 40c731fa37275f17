package io.rmq.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OutgoingRmqMetadataTest {

    private static final Instant AT = Instant.parse("2030-01-02T03:04:05.678Z");

    /** Between them, these two set every field (delivery time and delay, expiry time and time to live exclude each other). */
    private static final OutgoingRmqMetadata WITH_DELIVER_AT = OutgoingRmqMetadata.builder()
            .withPriority(7.5).withDeliverAt(AT).withTimeRange(Duration.ofSeconds(30)).withSlotBasis("sku-1")
            .withFlowKey("sku-1").withExpiresAt(AT.plusSeconds(60)).withTenant("acme").build();
    private static final OutgoingRmqMetadata WITH_DELAY = OutgoingRmqMetadata.builder()
            .withPriority(-1).withDelay(Duration.ofMinutes(15)).withTimeRange(Duration.ofMillis(1))
            .withSlotBasis("s").withTimeToLive(Duration.ofHours(1)).build();

    @Test
    void nothingIsSetByDefault() {
        OutgoingRmqMetadata metadata = OutgoingRmqMetadata.builder().build();

        assertThat(metadata.getPriority()).isEmpty();
        assertThat(metadata.getDeliverAt()).isEmpty();
        assertThat(metadata.getDelay()).isEmpty();
        assertThat(metadata.getTimeRange()).isEmpty();
        assertThat(metadata.getSlotBasis()).isEmpty();
        assertThat(metadata).hasToString("OutgoingRmqMetadata[]").isEqualTo(OutgoingRmqMetadata.builder().build());
    }

    @Test
    void gettersReturnWhatWasSet() {
        assertThat(WITH_DELIVER_AT.getPriority()).hasValue(7.5);
        assertThat(WITH_DELIVER_AT.getDeliverAt()).contains(AT);
        assertThat(WITH_DELIVER_AT.getDelay()).isEmpty();
        assertThat(WITH_DELIVER_AT.getTimeRange()).contains(Duration.ofSeconds(30));
        assertThat(WITH_DELIVER_AT.getSlotBasis()).contains("sku-1");
        assertThat(WITH_DELAY.getDelay()).contains(Duration.ofMinutes(15));
        assertThat(WITH_DELAY.getDeliverAt()).isEmpty();
    }

    @Test
    void toBuilderRoundTripsEveryField() throws IllegalAccessException {
        for (OutgoingRmqMetadata original : List.of(WITH_DELIVER_AT, WITH_DELAY)) {
            OutgoingRmqMetadata copy = original.toBuilder().build();

            assertThat(copy).isNotSameAs(original).isEqualTo(original).hasSameHashCodeAs(original)
                    .hasToString(original.toString());
            for (Field field : instanceFields()) {
                assertThat(field.get(copy)).as(field.getName()).isEqualTo(field.get(original));
            }
        }
    }

    /** Fails when a field is added that the two samples above (and so the round trip) do not cover. */
    @Test
    void theSamplesSetEveryField() throws IllegalAccessException {
        Set<String> set = new HashSet<>();
        for (Field field : instanceFields()) {
            if (field.get(WITH_DELIVER_AT) != null || field.get(WITH_DELAY) != null) {
                set.add(field.getName());
            }
        }
        assertThat(set).containsExactlyInAnyOrderElementsOf(instanceFields().stream().map(Field::getName).toList());
    }

    @Test
    void everyFieldTakesPartInEqualsHashCodeAndToString() {
        OutgoingRmqMetadata base = WITH_DELIVER_AT;
        List<OutgoingRmqMetadata> variants = List.of(
                base.toBuilder().withPriority(8).build(),
                base.toBuilder().withDeliverAt(AT.plusMillis(1)).build(),
                base.toBuilder().withTimeRange(Duration.ofSeconds(31)).build(),
                base.toBuilder().withSlotBasis("sku-2").withFlowKey("sku-2").build(),
                base.toBuilder().withExpiresAt(AT).build(),
                WITH_DELAY.toBuilder().withDelay(Duration.ofMinutes(16)).build(),
                WITH_DELAY.toBuilder().withTimeToLive(Duration.ofMinutes(61)).build(),
                WITH_DELAY.toBuilder().withFlowKey("s").build());

        for (OutgoingRmqMetadata variant : variants.subList(0, 5)) {
            assertThat(variant).isNotEqualTo(base).doesNotHaveToString(base.toString());
            assertThat(variant.hashCode()).isNotEqualTo(base.hashCode());
        }
        for (OutgoingRmqMetadata variant : variants.subList(5, 8)) {
            assertThat(variant).isNotEqualTo(WITH_DELAY).doesNotHaveToString(WITH_DELAY.toString());
        }
        assertThat(base).isNotEqualTo(null).isNotEqualTo("x");
    }

    @Test
    void toStringNamesTheFieldsThatAreSet() {
        assertThat(WITH_DELIVER_AT).hasToString("OutgoingRmqMetadata[priority=7.5, deliverAt=2030-01-02T03:04:05.678Z, "
                + "timeRange=PT30S, slotBasis=sku-1, flowKey=sku-1, expiresAt=2030-01-02T03:05:05.678Z, tenant=acme]");
        assertThat(WITH_DELAY).hasToString("OutgoingRmqMetadata[priority=-1.0, delay=PT15M, timeRange=PT0.001S, "
                + "slotBasis=s, timeToLive=PT1H]");
    }

    @Test
    void changingACopyLeavesTheOriginalAlone() {
        OutgoingRmqMetadata.Builder builder = WITH_DELIVER_AT.toBuilder();
        builder.withPriority(100).withSlotBasis("other");

        assertThat(WITH_DELIVER_AT.getPriority()).hasValue(7.5);
        assertThat(WITH_DELIVER_AT.getSlotBasis()).contains("sku-1");
    }

    @Test
    void aDeliveryTimeAndADelayExcludeEachOther() {
        OutgoingRmqMetadata.Builder builder = OutgoingRmqMetadata.builder().withDeliverAt(AT)
                .withDelay(Duration.ofSeconds(1));

        assertThatThrownBy(builder::build).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("RMQ-2003 ").hasMessageContaining("deliverAt").hasMessageContaining("delay");
        assertThatThrownBy(() -> WITH_DELIVER_AT.toBuilder().withDelay(Duration.ZERO).build())
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void anExpiryTimeAndATimeToLiveExcludeEachOther() {
        OutgoingRmqMetadata.Builder builder = OutgoingRmqMetadata.builder().withExpiresAt(AT)
                .withTimeToLive(Duration.ofSeconds(1));

        assertThatThrownBy(builder::build).isInstanceOf(IllegalStateException.class)
                .hasMessage("RMQ-2320 Metadata gives both expiresAt (2030-01-02T03:04:05.678Z) and timeToLive (PT1S): "
                        + "set one of them");
    }

    @Test
    void aTimeToLiveMustBeAtLeastOneMillisecondAndAnExpiryTimeFitInEpochMilliseconds() {
        for (Duration bad : List.of(Duration.ZERO, Duration.ofNanos(999_999), Duration.ofMillis(-5))) {
            assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withTimeToLive(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("RMQ-2002 Metadata property 'timeToLive' = '" + bad
                            + "' is invalid: a duration from 1 to 253402300799999 ms is required");
        }
        assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withExpiresAt(Instant.MAX))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'expiresAt'")
                .hasMessageContaining("epoch milliseconds");
        assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withExpiresAt(OutgoingRmqMetadata.MAX_DELIVER_AT.plusMillis(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not after 9999-12-31T23:59:59.999Z");
        assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withExpiresAt(null))
                .hasMessage("RMQ-2002 Metadata property 'expiresAt' = 'null' is invalid: a non-null value is required");
    }

    @ParameterizedTest
    @ValueSource(doubles = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY})
    void aPriorityMustBeFinite(double priority) {
        assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withPriority(priority))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("RMQ-2002 Metadata property 'priority' = '" + priority
                        + "' is invalid: a finite number is required");
    }

    @Test
    void aTimeRangeMustBeAtLeastOneMillisecond() {
        for (Duration bad : List.of(Duration.ZERO, Duration.ofNanos(999_999), Duration.ofMillis(-5))) {
            assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withTimeRange(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("RMQ-2002 Metadata property 'timeRange' = '" + bad
                            + "' is invalid: a duration from 1 to 253402300799999 ms is required");
        }
        assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withTimeRange(Duration.ofSeconds(Long.MAX_VALUE)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fit in a long of milliseconds");
    }

    @Test
    void aDelayMustNotBeNegative() {
        assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withDelay(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a duration from 0 to 253402300799999 ms is required");
        assertThat(OutgoingRmqMetadata.builder().withDelay(Duration.ZERO).build().getDelay()).contains(Duration.ZERO);
    }

    @Test
    void aDeliveryTimeMustFitInEpochMilliseconds() {
        assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withDeliverAt(Instant.MAX))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("epoch milliseconds");
        Instant past = Instant.EPOCH.minusSeconds(1);
        assertThat(OutgoingRmqMetadata.builder().withDeliverAt(past).build().getDeliverAt()).contains(past);
    }

    @Test
    void aFlowKeyIsTheSlotBasisAndADifferentSlotBasisIsRefused() {
        OutgoingRmqMetadata keyed = OutgoingRmqMetadata.builder().withFlowKey("order-7").build();

        assertThat(keyed.getFlowKey()).contains("order-7");
        assertThat(keyed.getSlotBasis()).as("routes by its key").contains("order-7");
        assertThat(OutgoingRmqMetadata.builder().withSlotBasis("order-7").build().getFlowKey()).isEmpty();
        assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withSlotBasis("customer-1").withFlowKey("order-7").build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("RMQ-2410 Metadata gives both slotBasis (customer-1) and flowKey (order-7)");
        assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withFlowKey(""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'flowKey'");
    }

    @Test
    void nullsAreRefused() {
        OutgoingRmqMetadata.Builder builder = OutgoingRmqMetadata.builder();

        assertThatThrownBy(() -> builder.withDeliverAt(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("RMQ-2002 Metadata property 'deliverAt' = 'null' is invalid: a non-null value is required");
        assertThatThrownBy(() -> builder.withDelay(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.withTimeRange(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.withSlotBasis(null)).isInstanceOf(IllegalArgumentException.class);
    }

    private static List<Field> instanceFields() {
        List<Field> fields = Arrays.stream(OutgoingRmqMetadata.class.getDeclaredFields())
                .filter(f -> !Modifier.isStatic(f.getModifiers())).toList();
        fields.forEach(f -> f.setAccessible(true));
        return fields;
    }

    @Test
    void aTenantIsOneTo1024Characters() {
        assertThat(OutgoingRmqMetadata.builder().withTenant("acme").build().getTenant()).contains("acme");
        assertThat(OutgoingRmqMetadata.builder().build().getTenant()).isEmpty();
        assertThatThrownBy(() -> OutgoingRmqMetadata.builder().withTenant("")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tenant");
    }
}
