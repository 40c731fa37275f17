package io.rmq.engine.topic;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

import io.rmq.engine.i18n.EngineArguments;

/**
 * A topic: its name, its number of slots and its type, plus the key prefix of the keyspace it
 * lives in. The same name always has the same slot amount and type; {@code RmqEngine.registerTopic}
 * refuses a conflicting definition. Immutable.
 *
 * @param name       letters, digits and {@code ._:-} only
 * @param slotAmount a power of two from 1 to {@value #MAX_SLOT_AMOUNT}
 * @param type       the topic type
 * @param keyPrefix  prepended to every key of the topic; may be empty, never {@code null}
 */
public record TopicDefinition(String name, int slotAmount, TopicType type, String keyPrefix) {

    /** The largest slot amount. */
    public static final int MAX_SLOT_AMOUNT = 16384;
    /** The slot amount used when none is given. */
    public static final int DEFAULT_SLOT_AMOUNT = 16;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._:-]+");

    public TopicDefinition {
        Objects.requireNonNull(type, "type");
        keyPrefix = keyPrefix == null ? "" : keyPrefix;
        if (name == null || !NAME.matcher(name).matches() || name.equals(".") || name.equals("..")) {
            // a URL path cannot carry . or .. as a segment
            throw EngineArguments.arg.badTopicName(name);
        }
        if (!isValidSlotAmount(slotAmount)) {
            throw EngineArguments.arg.badSlotAmount(name, slotAmount, MAX_SLOT_AMOUNT);
        }
    }

    public TopicDefinition(String name, int slotAmount, TopicType type) {
        this(name, slotAmount, type, "");
    }

    /** Whether {@code n} is a power of two from 1 to {@value #MAX_SLOT_AMOUNT}. */
    public static boolean isValidSlotAmount(int n) {
        return n >= 1 && n <= MAX_SLOT_AMOUNT && Integer.bitCount(n) == 1;
    }

    /**
     * A definition as recorded in the topic registry ({@code <TYPE>:<slot amount>}); empty when the
     * value is not one this version writes.
     */
    public static Optional<TopicDefinition> fromRegistry(String name, String value, String keyPrefix) {
        int colon = value == null ? -1 : value.indexOf(':');
        try {
            return Optional.of(new TopicDefinition(name, Integer.parseInt(value.substring(colon + 1)),
                    TopicType.valueOf(value.substring(0, colon)), keyPrefix));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The definition as recorded in the topic registry: {@code <TYPE>:<slot amount>}. */
    public String registryValue() {
        return type.name() + ":" + slotAmount;
    }
}
