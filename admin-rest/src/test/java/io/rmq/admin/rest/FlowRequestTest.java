package io.rmq.admin.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import jakarta.json.JsonObject;

import org.junit.jupiter.api.Test;

import io.rmq.engine.admin.TopicFlowSettings;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;

/** The body of {@code PUT topics/{topic}/flow} and the JSON of the settings, without a server. */
class FlowRequestTest {

    @Test
    void readsOnlyTheMembersGivenAndNullRemoves() {
        assertThat(FlowRequest.read("{\"rate\":\"30/m\",\"keyConcurrency\":1,\"fair\":true,\"aging\":\"1/10s\","
                + "\"adaptive\":false,\"adaptiveFloor\":\"5/s\",\"defaultWeight\":2}").fields())
                .containsExactly(Map.entry("rate", "0.5"), Map.entry("key.conc", "1"), Map.entry("fair", "on"),
                        Map.entry("w.default", "2"), Map.entry("aging.pace", "0.0001"), Map.entry("a.on", "0"),
                        Map.entry("a.floor", "5"));
        assertThat(FlowRequest.read("{\"rate\":null,\"keyRate\":null,\"aging\":null}").fields())
                .containsExactly(Map.entry("rate", ""), Map.entry("burst", ""), Map.entry("key.rate", ""),
                        Map.entry("aging.pace", ""));
    }

    @Test
    void refusesBadValuesNamingThem() {
        assertThatThrownBy(() -> FlowRequest.read("{\"rate\":\"fast\"}")).hasMessageStartingWith("RMQ-0675 Flow setting 'rate'");
        assertThatThrownBy(() -> FlowRequest.read("{\"rate\":500}")).hasMessageStartingWith("RMQ-0904 'rate' must be a string");
        assertThatThrownBy(() -> FlowRequest.read("{\"burst\":-1}")).hasMessageStartingWith("RMQ-0910 'burst'");
        assertThatThrownBy(() -> FlowRequest.read("{\"keyConcurrency\":0}")).hasMessageStartingWith("RMQ-0910 'keyConcurrency'");
        assertThatThrownBy(() -> FlowRequest.read("{\"fair\":\"on\"}")).hasMessageStartingWith("RMQ-0904 'fair'");
        assertThatThrownBy(() -> FlowRequest.read("{\"adaptiveThreshold\":1.5}")).hasMessageContaining("'a.threshold'");
        assertThatThrownBy(() -> FlowRequest.read("{\"aging\":\"1/0s\"}")).hasMessageContaining("'aging.pace'");
        assertThatThrownBy(() -> FlowRequest.read("{\"speed\":1}")).hasMessageStartingWith("RMQ-0903");
        assertThatThrownBy(() -> FlowRequest.read("{\"defaultWeight\":1e999}")).hasMessageStartingWith("RMQ-0904");
        assertThatThrownBy(() -> FlowRequest.weight("{}")).hasMessageStartingWith("RMQ-0904 'weight'");
        assertThat(FlowRequest.weight("{\"weight\":0.25}")).isEqualTo(0.25);
    }

    @Test
    void showsEverySettingAndNullForThoseNotSet() {
        JsonObject json = FlowJson.settings(new TopicDefinition("orders", 2, TopicType.PRIORITY),
                TopicFlowSettings.of(Map.of("gen", "3", "rate", "500", "w:acme", "3", "aging.pace", "0.0001",
                        "cfg:rate", "100", "a.on", "1", "a.rate", "125", "a.reason", "failures 80% > 50% in 1s")));

        assertThat(json.getInt("gen")).isEqualTo(3);
        assertThat(json.getString("rateText")).isEqualTo("500/s");
        assertThat(json.getString("effectiveRateText")).isEqualTo("125/s");
        assertThat(json.isNull("burst")).isTrue();
        assertThat(json.getJsonObject("weights").getJsonNumber("acme").doubleValue()).isEqualTo(3);
        assertThat(json.getString("aging")).isEqualTo("1/10s");
        assertThat(json.getJsonObject("adaptive").getString("reason")).isEqualTo("failures 80% > 50% in 1s");
        assertThat(json.getJsonObject("configured").getString("rate")).isEqualTo("100");
    }

    @Test
    void theAnswerIsTheOneTheDocumentShows() {
        JsonObject json = FlowJson.settings(new TopicDefinition("orders", 2, TopicType.PRIORITY),
                TopicFlowSettings.of(Map.of("gen", "5", "rate", "500", "burst", "50", "fair", "on", "w:acme", "3",
                        "aging.pace", "0.0001", "aging.epoch", "1764316800000", "cfg:rate", "100", "cfg:burst", "",
                        "tat", "1764316800123")));

        assertThat(json.toString()).isEqualTo("{\"topic\":\"orders\",\"gen\":5,\"rate\":500,\"rateText\":\"500/s\","
                + "\"burst\":50,\"effectiveRate\":500,\"effectiveRateText\":\"500/s\",\"keyConcurrency\":null,"
                + "\"keyRate\":null,\"keyRateText\":null,\"keyBurst\":null,\"fair\":\"on\",\"weights\":{\"acme\":3},"
                + "\"defaultWeight\":null,\"agingPace\":0.0001,\"aging\":\"1/10s\",\"agingEpoch\":1764316800000,"
                + "\"adaptive\":{\"on\":false,\"threshold\":null,\"floor\":null,\"floorText\":null,\"rate\":null,"
                + "\"rateText\":null,\"reason\":\"\",\"changed\":null},\"configured\":{\"burst\":\"\",\"rate\":\"100\"}}");
    }
}
