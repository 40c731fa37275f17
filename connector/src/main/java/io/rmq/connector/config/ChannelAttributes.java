package io.rmq.connector.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Consumer;
import java.util.function.Function;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.reactive.messaging.spi.ConnectorFactory;

import io.rmq.connector.i18n.RmqExceptions;

/**
 * Reads one channel's attributes from its {@link Config}, typed by their declarations, and collects
 * every problem instead of stopping at the first. Each reader returns a usable fallback (the default)
 * after recording a problem, so that all attributes get checked. The engine's values are built from
 * them elsewhere: the Redis access by {@link RedisAccessAttributes}, the topic by {@link TopicAttributes},
 * the codec by {@link CodecAttribute}, the coordination by {@link CoordinationAttributes}, the durability
 * by {@link DurabilityAttributes}. Single use, not thread-safe.
 */
final class ChannelAttributes {

    /** The channel name used in messages when the configuration lacks {@code channel-name}. */
    static final String UNNAMED_CHANNEL = "<unnamed>";

    private final Config config;
    private final Direction direction;
    private final String channel;
    private final List<ConfigProblem> problems = new ArrayList<>();

    ChannelAttributes(Config config, Direction direction) {
        this.config = Objects.requireNonNull(config, "config");
        this.direction = direction;
        Optional<String> name = Optional.empty();
        String unreadable = null;
        try {
            name = config.getOptionalValue(ConnectorFactory.CHANNEL_NAME_ATTRIBUTE, String.class)
                    .filter(s -> !s.isBlank());
        } catch (RuntimeException e) {
            unreadable = String.valueOf(e.getMessage());
        }
        this.channel = name.orElse(UNNAMED_CHANNEL);
        if (name.isEmpty()) {
            problems.add(new ConfigProblem(channel, direction, ConnectorFactory.CHANNEL_NAME_ATTRIBUTE, null,
                    unreadable == null ? "the runtime must give the channel name" : "it cannot be read: " + unreadable));
        }
    }

    String channel() {
        return channel;
    }

    Direction direction() {
        return direction;
    }

    List<ConfigProblem> problems() {
        return List.copyOf(problems);
    }

    boolean hasProblems() {
        return !problems.isEmpty();
    }

    void throwIfProblems() {
        if (!problems.isEmpty()) {
            throw RmqConfigurationException.of(problems);
        }
    }

    /**
     * Reads a channel's configuration with {@code reader}, which records problems instead of throwing.
     *
     * @throws RmqConfigurationException naming every problem found, when there is at least one
     */
    static <T> T readOrThrow(Config config, Direction direction, Function<ChannelAttributes, T> reader) {
        ChannelAttributes attributes = new ChannelAttributes(config, direction);
        T result = reader.apply(attributes);
        attributes.throwIfProblems();
        UnknownProperties.warnAbout(config, attributes.channel(), direction);
        return Objects.requireNonNull(result);
    }

    /** Every problem {@code reader} finds in a channel's configuration; empty when it is usable. */
    static List<ConfigProblem> problemsOf(Config config, Direction direction, Function<ChannelAttributes, ?> reader) {
        ChannelAttributes attributes = new ChannelAttributes(config, direction);
        reader.apply(attributes);
        return attributes.problems();
    }

    /** The attribute's value, trimmed; empty when it is not set or blank. */
    Optional<String> raw(RmqAttribute attribute) {
        if (!attribute.direction().appliesTo(direction)) {
            throw RmqExceptions.ex.attributeNotForDirection(attribute.attributeName(), direction.label());
        }
        try {
            return config.getOptionalValue(attribute.attributeName(), String.class).map(String::trim)
                    .filter(s -> !s.isEmpty());
        } catch (RuntimeException e) {
            problem(attribute, null, "it cannot be read: " + e.getMessage());
            return Optional.empty();
        }
    }

    void problem(RmqAttribute attribute, String value, String requirement) {
        problems.add(new ConfigProblem(channel, direction, attribute.attributeName(),
                value == null ? null : attribute.displayValue(value), requirement));
    }

    /** A problem of a property that is no attribute of the table: a schedule's setting ({@code schedules.<name>.<field>}). */
    void problem(String property, String value, String requirement) {
        problems.add(new ConfigProblem(channel, direction, property, value, requirement));
    }

    /** The channel's configuration, for properties whose names are not fixed (the schedules'). */
    Config config() {
        return config;
    }

    /** How many problems are recorded so far: a reader compares it before and after to see whether it found any. */
    int problemCount() {
        return problems.size();
    }

    /**
     * Hands a value to an options builder, which has the last word on what it accepts; a refusal becomes a
     * problem of the attribute (the declared bounds normally prevent it).
     */
    <T> void apply(RmqAttribute attribute, T value, Consumer<T> setter) {
        try {
            setter.accept(value);
        } catch (IllegalArgumentException e) {
            Object shown = value instanceof Duration d ? d.toMillis() : value;
            problem(attribute, String.valueOf(shown), e.getMessage());
        }
    }

    // ---- generic readers, driven by the declaration's type, default and bounds

    String string(RmqAttribute attribute) {
        return raw(attribute).orElseGet(() -> attribute.defaultValue().orElse(null));
    }

    int integer(RmqAttribute attribute) {
        return (int) bounded(attribute, integerRequirement(attribute));
    }

    Duration millis(RmqAttribute attribute) {
        return Duration.ofMillis(bounded(attribute, millisRequirement(attribute)));
    }

    Optional<Duration> optionalMillis(RmqAttribute attribute) {
        Optional<String> value = raw(attribute);
        if (value.isEmpty()) {
            return Optional.empty();
        }
        Long millis = parseBounded(attribute, value.get(), millisRequirement(attribute));
        return millis == null ? Optional.empty() : Optional.of(Duration.ofMillis(millis));
    }

    OptionalDouble optionalFiniteDouble(RmqAttribute attribute) {
        Optional<String> value = raw(attribute);
        if (value.isEmpty()) {
            return OptionalDouble.empty();
        }
        try {
            double d = Double.parseDouble(value.get());
            if (Double.isFinite(d)) {
                return OptionalDouble.of(d);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problem(attribute, value.get(), "a finite decimal number is required");
        return OptionalDouble.empty();
    }

    /** The attribute as a number within its bounds (unmet: {@code requirement} recorded); its default when unset. */
    long bounded(RmqAttribute attribute, String requirement) {
        long fallback = Long.parseLong(attribute.defaultValue().orElseThrow());
        Optional<String> value = raw(attribute);
        if (value.isEmpty()) {
            return fallback;
        }
        Long parsed = parseBounded(attribute, value.get(), requirement);
        return parsed == null ? fallback : parsed;
    }

    private Long parseBounded(RmqAttribute attribute, String value, String requirement) {
        try {
            long n = Long.parseLong(value);
            if (n >= attribute.min() && n <= attribute.max()) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problem(attribute, value, requirement);
        return null;
    }

    private static String integerRequirement(RmqAttribute attribute) {
        return attribute.max() >= Integer.MAX_VALUE
                ? "an integer >= " + attribute.min() + " is required"
                : "an integer from " + attribute.min() + " to " + attribute.max() + " is required";
    }

    private static String millisRequirement(RmqAttribute attribute) {
        return attribute.max() == Long.MAX_VALUE || attribute.max() == Integer.MAX_VALUE
                ? "a whole number of milliseconds >= " + attribute.min() + " is required"
                : "a whole number of milliseconds from " + attribute.min() + " to " + attribute.max() + " is required";
    }

    // ---- attributes read in a particular way

    /** The value of a secret attribute, as given (not trimmed); empty when not set. */
    Optional<String> secret(RmqAttribute attribute) {
        try {
            return config.getOptionalValue(attribute.attributeName(), String.class).filter(s -> !s.isEmpty());
        } catch (RuntimeException e) {
            // the reason is not shown: a converter's message may quote the value
            problem(attribute, null, "it cannot be read (" + e.getClass().getSimpleName() + ")");
            return Optional.empty();
        }
    }

    /** A {@code true}/{@code false} attribute (any case), its default when unset; anything else is a problem. */
    boolean flag(RmqAttribute attribute) {
        String value = string(attribute);
        if ("true".equalsIgnoreCase(value)) {
            return true;
        }
        if (!"false".equalsIgnoreCase(value)) {
            problem(attribute, value, "'true' or 'false' is required");
        }
        return false;
    }

    PayloadType payloadType() {
        String value = string(RmqAttribute.PAYLOAD_TYPE);
        Optional<PayloadType> type = PayloadType.fromAttributeValue(value);
        if (type.isEmpty()) {
            problem(RmqAttribute.PAYLOAD_TYPE, value, "'string' or 'bytes' is required");
        }
        return type.orElse(PayloadType.STRING);
    }

    FailureStrategy failureStrategy() {
        String value = string(RmqAttribute.FAILURE_STRATEGY);
        Optional<FailureStrategy> strategy = FailureStrategy.fromAttributeValue(value);
        if (strategy.isEmpty()) {
            problem(RmqAttribute.FAILURE_STRATEGY, value, "one of " + FailureStrategy.accepted() + " is required");
        }
        return strategy.orElse(FailureStrategy.RETRY);
    }
}
