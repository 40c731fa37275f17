package io.rmq.engine.scripts;

import static io.rmq.testing.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.engine.redis.RedisScript;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.scripts.TopicScripts.FlowFieldsReply;
import io.rmq.engine.scripts.TopicScripts.FlowSetReply;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;

/** {@code flow_set.lua} against a real Redis: configuration gives the starting value, a live change stands. */
@RedisTest
class FlowSetScriptIT {

    private static final TopicKeys TOPIC = new TopicKeys(new TopicDefinition("orders", 4, TopicType.PRIORITY));

    private RedisCommands<String, String> sync;
    private ScriptRunner runner;
    private TopicScripts scripts;

    @BeforeEach
    void setUp(RedisConnections redis) {
        this.sync = redis.sync();
        this.runner = new ScriptRunner(redis.binary().async());
        this.scripts = new TopicScripts(() -> runner, TOPIC);
    }

    @Test
    void configurationWritesTheLimitOnceAndAgainOnlyWhenItChanges() {
        FlowSetReply first = await(scripts.flowSet(false, 500, 50));
        FlowSetReply same = await(scripts.flowSet(false, 500, 50));
        FlowSetReply other = await(scripts.flowSet(false, 2.5, 0));

        assertThat(first).isEqualTo(new FlowSetReply(true, 1, "", ""));
        assertThat(same).isEqualTo(new FlowSetReply(false, 1, "500", "50"));
        assertThat(other).isEqualTo(new FlowSetReply(true, 2, "500", "50"));
        assertThat(sync.hgetall(TOPIC.flow())).containsEntry("rate", "2.5").doesNotContainKey("burst")
                .containsEntry("cfg:rate", "2.5").containsEntry("cfg:burst", "").containsKey("tat");
    }

    @Test
    void aLiveChangeStandsWhileTheConfigurationStaysTheSame() {
        await(scripts.flowSet(false, 500, 50));

        FlowSetReply live = await(scripts.flowSet(true, 1000, 100));
        FlowSetReply restart = await(scripts.flowSet(false, 500, 50));

        assertThat(live).isEqualTo(new FlowSetReply(true, 2, "500", "50"));
        assertThat(restart.changed()).isFalse();
        assertThat(sync.hmget(TOPIC.flow(), "rate", "burst", "gen")).extracting(kv -> kv.getValue())
                .containsExactly("1000", "100", "2");
    }

    @Test
    void aLiveChangeToNoLimitRemovesIt() {
        await(scripts.flowSet(true, 500, 0));

        await(scripts.flowSet(true, 0, 0));

        assertThat(await(scripts.flowAcquire(300, 0, 0)).limited()).isFalse();
    }

    @Test
    void setsAndRemovesEveryKindOfSettingInOneGenerationStep() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("key.conc", "3");
        fields.put("key.rate", "50");
        fields.put("key.burst", "5");
        fields.put("fair", "on");
        fields.put("w:acme", "3");
        fields.put("w.default", "1.5");
        fields.put("aging.pace", "0.0001");
        fields.put("a.on", "1");
        fields.put("a.threshold", "0.5");
        fields.put("a.floor", "2");

        FlowFieldsReply set = await(scripts.flowSet(true, fields));
        FlowFieldsReply removed = await(scripts.flowSet(true, Map.of("w:acme", "", "key.conc", "")));

        assertThat(set.changed()).isTrue();
        assertThat(set.gen()).isEqualTo(1);
        assertThat(set.previous()).containsOnlyKeys(fields.keySet()).allSatisfy((k, v) -> assertThat(v).isEmpty());
        assertThat(removed.gen()).isEqualTo(2);
        assertThat(removed.previous()).containsEntry("w:acme", "3").containsEntry("key.conc", "3");
        assertThat(sync.hgetall(TOPIC.flow())).containsEntry("key.rate", "50").containsEntry("fair", "on")
                .containsEntry("w.default", "1.5").containsEntry("aging.pace", "0.0001").containsEntry("a.on", "1")
                .containsKey("aging.epoch").doesNotContainKeys("w:acme", "key.conc");
    }

    @Test
    void aWeightOrKeyLimitChangeLeavesTheLimitersClockAlone() {
        await(scripts.flowSet(true, 500, 0));
        String tat = sync.hget(TOPIC.flow(), "tat");

        await(scripts.flowSet(true, Map.of("w:acme", "2", "key.conc", "1")));

        assertThat(sync.hget(TOPIC.flow(), "tat")).isEqualTo(tat);
        assertThat(sync.hget(TOPIC.flow(), "gen")).isEqualTo("2");
    }

    @Test
    void configurationGivesTheStartingValueOfAnySetting() {
        await(scripts.flowSet(false, Map.of("key.conc", "2", "w:acme", "3")));
        await(scripts.flowSet(true, Map.of("key.conc", "5")));

        FlowFieldsReply restart = await(scripts.flowSet(false, Map.of("key.conc", "2", "w:acme", "3")));
        FlowFieldsReply reconfigured = await(scripts.flowSet(false, Map.of("key.conc", "4", "w:acme", "3")));

        assertThat(restart.changed()).isFalse();
        assertThat(reconfigured.changed()).isTrue();
        assertThat(reconfigured.previous()).containsEntry("key.conc", "2");
        assertThat(sync.hgetall(TOPIC.flow())).containsEntry("key.conc", "4").containsEntry("cfg:key.conc", "4")
                .containsEntry("w:acme", "3");
    }

    @Test
    void theAgingEpochIsSetOnce() {
        await(scripts.flowSet(true, Map.of("aging.pace", "0.001")));
        String epoch = sync.hget(TOPIC.flow(), "aging.epoch");

        await(scripts.flowSet(true, Map.of("aging.pace", "0.002", "aging.epoch", epoch)));

        assertThat(epoch).matches("\\d{13}");
        assertThatThrownBy(() -> await(scripts.flowSet(true, Map.of("aging.epoch", "5"))))
                .hasStackTraceContaining("RMQ_BAD_VALUE aging.epoch=5");
        assertThatThrownBy(() -> await(scripts.flowSet(true, Map.of("aging.epoch", ""))))
                .hasStackTraceContaining("RMQ_BAD_VALUE aging.epoch=");
        assertThat(sync.hget(TOPIC.flow(), "aging.epoch")).isEqualTo(epoch);
    }

    @ParameterizedTest
    @CsvSource({ "rate,0", "rate,-1", "rate,1e3", "rate,inf", "rate,0x10", "burst,2.5", "key.conc,0", "key.burst,0",
            "key.rate,abc", "fair,yes", "w:acme,0", "w.default,-2", "aging.pace,0", "aging.epoch,-5", "a.on,true",
            "a.threshold,1", "a.threshold,0", "a.floor,0" })
    void refusesAValueNamingTheFieldAndWritesNothing(String field, String value) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("w:first", "2");
        fields.put(field, value);

        assertThatThrownBy(() -> await(scripts.flowSet(true, fields)))
                .hasStackTraceContaining("RMQ_BAD_VALUE " + field + "=" + value);
        assertThat(sync.exists(TOPIC.flow())).isZero();
    }

    @Test
    void refusesAnUnknownField() {
        assertThatThrownBy(() -> await(scripts.flowSet(true, Map.of("w:", "2"))))
                .hasStackTraceContaining("RMQ_BAD_SELECTION field=w:");
        assertThatThrownBy(() -> await(scripts.flowSet(true, Map.of("gen", "7"))))
                .hasStackTraceContaining("RMQ_BAD_SELECTION field=gen");
    }

    @Test
    void refusesAnUnknownMode() {
        byte[][] keys = { TOPIC.flow().getBytes() };
        assertThatThrownBy(() -> await(runner.run(RedisScript.FLOW_SET, keys, "later".getBytes(), "5".getBytes(),
                "0".getBytes()))).hasStackTraceContaining("RMQ_BAD_SELECTION");
    }
}
