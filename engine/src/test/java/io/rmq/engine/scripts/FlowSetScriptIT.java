package io.rmq.engine.scripts;

import static io.rmq.testing.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.engine.redis.RedisScript;
import io.rmq.engine.redis.ScriptRunner;
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
    void refusesAnUnknownMode() {
        byte[][] keys = { TOPIC.flow().getBytes() };
        assertThatThrownBy(() -> await(runner.run(RedisScript.FLOW_SET, keys, "later".getBytes(), "5".getBytes(),
                "0".getBytes()))).hasStackTraceContaining("RMQ_BAD_SELECTION");
    }
}
