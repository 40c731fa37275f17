package io.rmq.engine.scripts;

import static io.rmq.testing.Bytes.text;
import static io.rmq.testing.Bytes.utf8;
import static io.rmq.testing.Bytes.utf8Array;
import static io.rmq.testing.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.engine.redis.RedisScript;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;

/** {@code register_topic.lua}: the topic registry, against a real Redis. */
@RedisTest
class RegisterTopicScriptIT {

    private static final TopicDefinition PRICE = new TopicDefinition("price", 16, TopicType.PRIORITY);
    private static final String REGISTRY = TopicKeys.registryKey("");

    private RedisCommands<String, String> sync;
    private ScriptRunner scripts;

    @BeforeEach
    void setUp(RedisConnections redis) {
        this.sync = redis.sync();
        this.scripts = new ScriptRunner(redis.binary().async());
    }

    @Test
    void aNewTopicIsRecordedAndItsDefinitionReturned() {
        String recorded = register(REGISTRY, PRICE);

        assertThat(recorded).isEqualTo("PRIORITY:16").isEqualTo(PRICE.registryValue());
        assertThat(sync.hgetall("rmq:topics")).containsExactly(entry("price", "PRIORITY:16"));
    }

    @Test
    void theSameDefinitionAgainReturnsIt() {
        register(REGISTRY, PRICE);

        String recorded = register(REGISTRY, new TopicDefinition("price", 16, TopicType.PRIORITY));

        assertThat(recorded).isEqualTo("PRIORITY:16");
        assertThat(sync.hlen(REGISTRY)).isEqualTo(1);
    }

    @Test
    void aConflictingDefinitionReturnsTheEarlierOneAndChangesNothing() {
        register(REGISTRY, PRICE);

        String otherSlots = register(REGISTRY, new TopicDefinition("price", 8, TopicType.PRIORITY));
        String otherType = register(REGISTRY, new TopicDefinition("price", 16, TopicType.FIXED_TIME));

        assertThat(otherSlots).isEqualTo("PRIORITY:16");
        assertThat(otherType).isEqualTo("PRIORITY:16");
        assertThat(sync.hget(REGISTRY, "price")).isEqualTo("PRIORITY:16");
    }

    @Test
    void topicsAreRecordedPerKeyPrefix() {
        register(REGISTRY, PRICE);
        TopicDefinition shopPrice = new TopicDefinition("price", 4, TopicType.RANGE_MERGE, "shop:");

        String recorded = register(TopicKeys.registryKey("shop:"), shopPrice);

        assertThat(recorded).isEqualTo("RANGE_MERGE:4");
        assertThat(sync.hget("shop:rmq:topics", "price")).isEqualTo("RANGE_MERGE:4");
        assertThat(sync.hget("rmq:topics", "price")).isEqualTo("PRIORITY:16");
    }

    @Test
    void otherTopicsDoNotConflict() {
        register(REGISTRY, PRICE);

        String recorded = register(REGISTRY, new TopicDefinition("stock", 1, TopicType.FIXED_TIME));

        assertThat(recorded).isEqualTo("FIXED_TIME:1");
        assertThat(sync.hlen(REGISTRY)).isEqualTo(2);
    }

    private String register(String registry, TopicDefinition topic) {
        Object recorded = await(scripts.run(RedisScript.REGISTER_TOPIC, utf8Array(registry), utf8(topic.name()), utf8(topic.registryValue())));
        return text(recorded);
    }
}
