package io.rmq.engine.topic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;

class FairShareTest {

    @Test
    void absentFieldsMeanOff() {
        assertThat(FairShare.fromFlowFields(Map.of())).isEqualTo(FairShare.OFF);
        assertThat(FairShare.fromFlowFields(Map.of("fair", "off", "w:a", "3")).on()).isFalse();
    }

    @Test
    void theFlowHashGivesWeightsAndTheDefault() {
        FairShare fair = FairShare.fromFlowFields(Map.of("fair", "on", "w:a", "3", "w:b:c", "0.5", "w.default", "2",
                "rate", "100"));

        assertThat(fair.on()).isTrue();
        assertThat(fair.weights()).containsOnly(Map.entry("a", 3.0), Map.entry("b:c", 0.5));
        assertThat(fair.defaultWeight()).isEqualTo(2.0);
        assertThat(FairShare.fromFlowFields(Map.of("fair", "draining")).on()).as("consumers drain tenant queues").isTrue();
    }

    @Test
    void theAttributeListsTenantsWithWeights() {
        FairShare fair = FairShare.of(true, "a:3, b:1");

        assertThat(fair.weights()).containsOnly(Map.entry("a", 3.0), Map.entry("b", 1.0));
        assertThat(fair.defaultWeight()).isEqualTo(1.0);
        assertThat(FairShare.of(false, "a:3")).isEqualTo(FairShare.OFF);
    }

    @Test
    void badWeightsAreRefusedNamingTheSetting() {
        assertThatThrownBy(() -> FairShare.of(true, "a:0")).hasMessageStartingWith("RMQ-0636").hasMessageContaining("w:a");
        assertThatThrownBy(() -> FairShare.of(true, "a")).hasMessageStartingWith("RMQ-0637");
        assertThatThrownBy(() -> FairShare.fromFlowFields(Map.of("fair", "on", "w.default", "x")))
                .hasMessageStartingWith("RMQ-0636").hasMessageContaining("w.default");
    }

    @Test
    void tenantNamesKeepTextAndEncodeTagBytes() {
        assertThat(TenantName.encode(null)).isEmpty();
        assertThat(TenantName.encode("éa:b")).isEqualTo("éa:b");
        assertThat(TenantName.encode("{x}")).isEqualTo("%7Bx%7D");
        assertThat(TenantName.queue("p_1", "")).isEqualTo("p_1");
        assertThat(TenantName.queue("p_1", "t")).isEqualTo("tq:t{p_1}");
    }
}
