package io.rmq.engine.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rmq.engine.EngineFixture;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.flow.FlowLimit;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;

/** {@link RmqAdmin#flow}: reading and changing a topic's flow settings live, against a real Redis. */
@RedisTest
class TopicFlowIT {

    private static final Duration WAIT = Duration.ofSeconds(20);

    EngineFixture fx;
    private RmqAdmin admin;
    private TopicDefinition topic;
    private TopicFlow flow;

    @BeforeEach
    void setUp(RedisTestServer redis) {
        String uri = uri(redis);
        fx = fixture(uri);
        admin = RmqAdmin.connect(uri);
        topic = new TopicDefinition("flow-" + UUID.randomUUID(), 4, TopicType.PRIORITY);
        flow = admin.flow(topic);
    }

    /** The Redis the tests run against: the shared server; a subclass runs them on a cluster. */
    String uri(RedisTestServer redis) {
        return redis.uri();
    }

    EngineFixture fixture(String redisUri) {
        return new EngineFixture(redisUri);
    }

    @AfterEach
    void tearDown() throws Exception {
        admin.close();
        fx.close();
    }

    @Test
    void aTopicWithoutSettingsShowsNone() {
        TopicFlowSettings settings = flow.settings();

        assertThat(settings.gen()).isZero();
        assertThat(settings.rate()).isEmpty();
        assertThat(settings.effectiveRate()).isEmpty();
        assertThat(settings.fair()).isEqualTo("off");
        assertThat(settings.weights()).isEmpty();
        assertThat(settings.adaptive().on()).isFalse();
    }

    @Test
    void eachSetterShowsInTheSettingsAndStepsTheGeneration() {
        assertThat(flow.setRate(500, 50)).isEqualTo(1);
        assertThat(flow.setKeyLimits(2, 50, 5)).isEqualTo(2);
        assertThat(flow.setFair(true)).isEqualTo(3);
        assertThat(flow.setWeight("acme", 3)).isEqualTo(4);
        assertThat(flow.setWeight("globex", 0.5)).isEqualTo(5);
        assertThat(flow.setDefaultWeight(2)).isEqualTo(6);
        assertThat(flow.setAgingPace(0.0001)).isEqualTo(7);
        assertThat(flow.setAdaptive(0.4, 5)).isEqualTo(8);

        TopicFlowSettings s = flow.settings();

        assertThat(s.gen()).isEqualTo(8);
        assertThat(s.rate()).hasValue(500);
        assertThat(s.burst()).hasValue(50);
        assertThat(s.keyConcurrency()).hasValue(2);
        assertThat(s.keyRate()).hasValue(50);
        assertThat(s.keyBurst()).hasValue(5);
        assertThat(s.fair()).isEqualTo("on");
        assertThat(s.weights()).isEqualTo(Map.of("acme", 3.0, "globex", 0.5));
        assertThat(s.defaultWeight()).hasValue(2);
        assertThat(s.agingPace()).hasValue(0.0001);
        assertThat(s.agingEpoch()).isPresent();
        assertThat(s.adaptive().on()).isTrue();
        assertThat(s.adaptive().threshold()).hasValue(0.4);
        assertThat(s.adaptive().floor()).hasValue(5);
        assertThat(s.effectiveRate()).hasValue(500);
    }

    @Test
    void theSameValueAgainChangesNothing() {
        flow.setRate(500, 50);

        assertThat(flow.setRate(500, 50)).isEqualTo(1);
    }

    @Test
    void removersTakeTheSettingsAway() {
        flow.apply(FlowUpdate.builder().rate(100, 0).keyConcurrency(1).keyRate(10, 0).weight("acme", 2)
                .defaultWeight(3).agingPace(0.01).adaptive(true).build());

        flow.removeRate();
        flow.removeKeyLimits();
        flow.removeWeight("acme");
        flow.removeDefaultWeight();
        flow.removeAging();
        long gen = flow.setAdaptive(false);

        TopicFlowSettings s = flow.settings();
        assertThat(gen).isEqualTo(7);
        assertThat(s.rate()).isEmpty();
        assertThat(s.burst()).isEmpty();
        assertThat(s.keyConcurrency()).isEmpty();
        assertThat(s.keyRate()).isEmpty();
        assertThat(s.weights()).isEmpty();
        assertThat(s.defaultWeight()).isEmpty();
        assertThat(s.agingPace()).isEmpty();
        assertThat(s.agingEpoch()).as("the epoch stays recorded").isPresent();
        assertThat(s.adaptive().on()).isFalse();
    }

    @Test
    void configurationAskingForAnotherValueReplacesALiveChange() {
        RmqEngine engine = fx.client();
        TopicKeys keys = EngineFixture.register(engine, topic);
        fx.consume(engine, keys, ConsumerOptions.builder().rateLimit(FlowLimit.parse("100/s", 0)).build())
                .consumer.request(1);
        Awaitility.await().atMost(WAIT).until(() -> flow.settings().rate().orElse(0) == 100);

        flow.setRate(1000, 0);
        assertThat(flow.settings().configured()).containsEntry("rate", "100");
        fx.consume(engine, keys, ConsumerOptions.builder().rateLimit(FlowLimit.parse("200/s", 0)).build())
                .consumer.request(1);

        Awaitility.await().atMost(WAIT).until(() -> flow.settings().rate().orElse(0) == 200);
        assertThat(flow.settings().gen()).isEqualTo(3);
    }

    @Test
    void theAdaptiveStateShowsAndLowersTheEffectiveRate() {
        flow.setRate(500, 0);
        flow.setAdaptive(true);
        fx.redis().hset(new TopicKeys(topic).flow(), Map.of("a.rate", "125", "a.reason", "failures 80% > 50% in 1s",
                "a.changed", "1764316800000"));

        TopicFlowSettings s = flow.settings();

        assertThat(s.adaptive().rate()).hasValue(125);
        assertThat(s.adaptive().reason()).isEqualTo("failures 80% > 50% in 1s");
        assertThat(s.adaptive().changed()).hasValueSatisfying(t -> assertThat(t.toEpochMilli()).isEqualTo(1764316800000L));
        assertThat(s.effectiveRate()).hasValue(125);
    }

    @Test
    void refusesBadValuesNamingTheSettingAndChangesNothing() {
        flow.setRate(100, 0);

        assertThatThrownBy(() -> flow.setWeight("acme", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("RMQ-0675").hasMessageContaining("'w:acme'");
        assertThatThrownBy(() -> flow.setWeight("", 1)).hasMessageStartingWith("RMQ-0677");
        assertThatThrownBy(() -> flow.setAdaptive(1.5, 1)).hasMessageStartingWith("RMQ-0675")
                .hasMessageContaining("a.threshold");
        assertThatThrownBy(() -> flow.apply(FlowUpdate.builder().build())).hasMessageStartingWith("RMQ-0680");
        assertThatThrownBy(() -> FlowUpdate.builder().field("speed", "5")).hasMessageStartingWith("RMQ-0676")
                .hasMessageContaining("key.conc");
        assertThat(flow.settings().gen()).isEqualTo(1);
    }

    @Test
    void theAgingEpochIsSetOnce() {
        flow.setAgingPace(0.001);
        String epoch = Long.toString(flow.settings().agingEpoch().getAsLong());

        assertThat(flow.apply(FlowUpdate.builder().field(FlowField.AGING_EPOCH, epoch).build())).isEqualTo(1);
        assertThatThrownBy(() -> flow.apply(FlowUpdate.builder().field(FlowField.AGING_EPOCH, "5").build()))
                .hasMessageStartingWith("RMQ-0678").hasMessageContaining(epoch);
    }
}
