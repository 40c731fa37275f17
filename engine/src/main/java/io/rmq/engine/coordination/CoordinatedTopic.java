package io.rmq.engine.coordination;

import java.util.Objects;

import io.rmq.engine.i18n.EngineArguments;
import io.rmq.engine.topic.TopicDefinition;

/**
 * What the coordination needs to know of a topic: its key prefix and name (which place it in
 * ZooKeeper) and its slot amount (what the leader assigns). Immutable.
 *
 * @param keyPrefix  the topic's key prefix, possibly empty
 * @param name       the topic's name
 * @param slotAmount the topic's number of slots
 */
public record CoordinatedTopic(String keyPrefix, String name, int slotAmount) {

    /** What the ZooKeeper coordination needs of {@code topic}. */
    public static CoordinatedTopic of(TopicDefinition topic) {
        return new CoordinatedTopic(topic.keyPrefix(), topic.name(), topic.slotAmount());
    }

    public CoordinatedTopic {
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        Objects.requireNonNull(name, "name");
        if (slotAmount < 1) {
            throw EngineArguments.arg.coordinatedSlotAmountBelowOne(slotAmount);
        }
    }
}
