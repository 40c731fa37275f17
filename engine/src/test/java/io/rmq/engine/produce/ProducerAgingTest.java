package io.rmq.engine.produce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.rmq.engine.scripts.TopicScripts;
import io.rmq.engine.topic.PriorityAging;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;

/** Priority aging is for PRIORITY topics only: a producer of another type refuses it, naming the topic and its type. */
class ProducerAgingTest {

    @ParameterizedTest
    @EnumSource(value = TopicType.class, names = { "RANGE_MERGE", "FIXED_TIME" })
    void aTimedTopicsProducerRefusesAging(TopicType type) {
        TopicScripts scripts = new TopicScripts(() -> {
            throw new AssertionError("no script is run");
        }, new TopicKeys(new TopicDefinition("timed", 2, type)));
        ProducerOptions aged = ProducerOptions.builder().priorityAging(PriorityAging.parse("1/s")).build();

        assertThatThrownBy(() -> new TopicProducer(scripts, aged, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("priority aging is for PRIORITY topics only: topic 'timed' is " + type);
        TopicProducer plain = new TopicProducer(scripts, ProducerOptions.defaults(), null);
        assertThatThrownBy(() -> plain.updatePriorityAging(PriorityAging.parse("1/s")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(plain.updatePriorityAging(PriorityAging.OFF).toCompletableFuture().join()).isEqualTo(PriorityAging.OFF);
    }
}
