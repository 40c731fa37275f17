package io.rmq.connector.config;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;

/**
 * Builds a channel's {@link TopicDefinition} from {@code topic} (else the channel name),
 * {@code topic-type}, {@code slot-amount} and {@code key-prefix}. Stateless.
 */
final class TopicAttributes {

    private static final String TOPIC_TYPES = Arrays.stream(TopicType.values()).map(Enum::name)
            .collect(Collectors.joining(", "));

    private TopicAttributes() {
    }

    /** The topic, or {@code null} when one of its attributes has a problem (already recorded). */
    static TopicDefinition topic(ChannelAttributes a) {
        int before = a.problemCount();
        Optional<String> configuredName = a.raw(RmqAttribute.TOPIC);
        String name = configuredName.orElse(a.channel());
        if (!isValidTopicName(name)) {
            a.problem(RmqAttribute.TOPIC, name, "a name of letters, digits and ._:- only is required"
                    + (configuredName.isEmpty() ? " (the topic defaults to the channel name; set 'topic')" : ""));
        }
        TopicType type = topicType(a);
        int slotAmount = slotAmount(a);
        String keyPrefix = keyPrefix(a);
        if (a.problemCount() > before) {
            return null;
        }
        try {
            return new TopicDefinition(name, slotAmount, type, keyPrefix);
        } catch (IllegalArgumentException e) {
            a.problem(RmqAttribute.TOPIC, name, e.getMessage());
            return null;
        }
    }

    private static TopicType topicType(ChannelAttributes a) {
        Optional<String> value = a.raw(RmqAttribute.TOPIC_TYPE);
        String requirement = "one of " + TOPIC_TYPES + " is required";
        if (value.isEmpty()) {
            a.problem(RmqAttribute.TOPIC_TYPE, null, requirement);
            return null;
        }
        try {
            return TopicType.valueOf(value.get().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            a.problem(RmqAttribute.TOPIC_TYPE, value.get(), requirement);
            return null;
        }
    }

    private static int slotAmount(ChannelAttributes a) {
        String requirement = "a power of two from 1 to " + TopicDefinition.MAX_SLOT_AMOUNT + " is required";
        int before = a.problemCount();
        int n = (int) a.bounded(RmqAttribute.SLOT_AMOUNT, requirement);
        if (a.problemCount() == before && !TopicDefinition.isValidSlotAmount(n)) {
            a.problem(RmqAttribute.SLOT_AMOUNT, String.valueOf(n), requirement);
        }
        return n;
    }

    private static String keyPrefix(ChannelAttributes a) {
        String prefix = a.string(RmqAttribute.KEY_PREFIX);
        boolean bad = prefix.codePoints().anyMatch(c -> c == '{' || c == '}' || Character.isWhitespace(c)
                || Character.isISOControl(c) || Character.isSpaceChar(c));
        if (bad) {
            a.problem(RmqAttribute.KEY_PREFIX, prefix,
                    "a prefix without braces, blanks or control characters is required (braces would break the "
                            + "keys' hash tags)");
        }
        return prefix;
    }

    /** The engine's {@link TopicDefinition} is the authority on names; slot amount 1 is always valid. */
    private static boolean isValidTopicName(String name) {
        try {
            new TopicDefinition(name, 1, TopicType.PRIORITY);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
