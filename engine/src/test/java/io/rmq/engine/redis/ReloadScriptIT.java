package io.rmq.engine.redis;

import static io.rmq.testing.Bytes.text;
import static io.rmq.testing.Bytes.utf8;
import static io.rmq.testing.Bytes.utf8Array;
import static io.rmq.testing.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;

/**
 * Every script is known to Redis by the SHA that {@link RedisScript} computes, and {@link ScriptRunner}
 * loads a script again when Redis answers {@code NOSCRIPT} (flushed script cache, restarted server).
 */
@RedisTest
class ReloadScriptIT {

    private static final String REGISTRY = TopicKeys.registryKey("");

    private RedisConnections redis;
    private RedisCommands<String, String> sync;
    private ScriptRunner scripts;

    @BeforeEach
    void setUp(RedisConnections redis) {
        this.redis = redis;
        this.sync = redis.sync();
        this.scripts = new ScriptRunner(redis.binary().async());
    }

    @ParameterizedTest
    @EnumSource(RedisScript.class)
    void redisKnowsEachScriptByItsSha(RedisScript script) {
        String sha = redis.binary().sync().scriptLoad(script.source());

        assertThat(sha).isEqualTo(script.sha());
    }

    @Test
    void aScriptMissingFromTheCacheIsLoadedAndRun() {
        assertThat(sync.scriptExists(RedisScript.REGISTER_TOPIC.sha())).containsExactly(false);

        assertThat(register("price", "PRIORITY:16")).isEqualTo("PRIORITY:16");
        assertThat(sync.scriptExists(RedisScript.REGISTER_TOPIC.sha())).containsExactly(true);
    }

    @Test
    void aScriptIsLoadedAgainAfterScriptFlush() {
        register("price", "PRIORITY:16");
        sync.scriptFlush();
        assertThat(sync.scriptExists(RedisScript.REGISTER_TOPIC.sha())).containsExactly(false);

        String recorded = register("price", "FIXED_TIME:4");

        assertThat(recorded).as("ran against the data written before the flush").isEqualTo("PRIORITY:16");
        assertThat(sync.scriptExists(RedisScript.REGISTER_TOPIC.sha())).containsExactly(true);
    }

    @Test
    void aScriptIsLoadedAgainAfterTheServerRestarts(RedisTestServer server) {
        register("price", "PRIORITY:16");

        server.stop();
        server.start();

        assertThat(register("price", "FIXED_TIME:4")).as("the restarted server is empty").isEqualTo("FIXED_TIME:4");
        assertThat(sync.scriptExists(RedisScript.REGISTER_TOPIC.sha())).containsExactly(true);
    }

    private String register(String topic, String definition) {
        return text(await(scripts.run(RedisScript.REGISTER_TOPIC, utf8Array(REGISTRY), utf8(topic), utf8(definition))));
    }
}
