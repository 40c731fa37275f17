package io.rmq.connector.config;

import io.rmq.connector.RmqCodec;
import io.rmq.connector.i18n.RmqExceptions;
import io.rmq.engine.produce.ProducerOptions;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.support.UriCredentials;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.reactive.messaging.spi.ConnectorFactory;

/**
 * Reads one channel's attributes from its {@link Config} and collects every problem instead of
 * stopping at the first. Each reader returns a usable fallback (the default) after recording a
 * problem, so that all attributes get checked. Single use, not thread-safe.
 */
final class ChannelAttributes {

    /** The channel name used in messages when the configuration lacks {@code channel-name}. */
    static final String UNNAMED_CHANNEL = "<unnamed>";

    private static final String TOPIC_TYPES = Arrays.stream(TopicType.values()).map(Enum::name)
            .collect(Collectors.joining(", "));

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
            throw RmqExceptions.ex.invalidConfiguration(problems);
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
            throw new IllegalArgumentException(attribute + " does not apply to " + direction.label() + " channels");
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

    private long bounded(RmqAttribute attribute, String requirement) {
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

    // ---- attribute-specific readers

    String redisUri() {
        String uri = string(RmqAttribute.REDIS_URI);
        RedisUris.problem(uri).ifPresent(reason ->
                problem(RmqAttribute.REDIS_URI, uri, reason + "; " + RedisUris.REQUIREMENT));
        return uri;
    }

    /**
     * How to reach and log in to Redis: {@code redis-uri}, {@code redis-username}, {@code redis-password},
     * {@code redis-tls-ca-file}; {@code null} when one of them has a problem (recorded).
     */
    RedisAccess redisAccess() {
        int before = problems.size();
        String uri = redisUri();
        Optional<String> username = raw(RmqAttribute.REDIS_USERNAME);
        Optional<String> password = secret(RmqAttribute.REDIS_PASSWORD);
        Optional<Path> caFile = raw(RmqAttribute.REDIS_TLS_CA_FILE).flatMap(this::certificateFile);
        if (username.isPresent() && password.isEmpty()) {
            problem(RmqAttribute.REDIS_PASSWORD, null, "a password is required when redis-username is set");
        }
        if (password.isPresent() && UriCredentials.hasUserInfo(uri)) {
            problem(RmqAttribute.REDIS_PASSWORD, password.get(), "redis-uri carries credentials already; give them "
                    + "either in redis-uri or in redis-username and redis-password");
        }
        if (problems.size() > before) {
            return null;
        }
        try {
            return RedisAccess.builder(uri).username(username.orElse(null)).password(password.orElse(null))
                    .trustedCertificates(caFile.orElse(null)).build();
        } catch (IllegalArgumentException e) {
            problem(RmqAttribute.REDIS_URI, uri, e.getMessage());
            return null;
        }
    }

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

    /** The file of {@code redis-tls-ca-file} when it holds at least one PEM certificate, else empty (recorded). */
    private Optional<Path> certificateFile(String value) {
        Path file = Path.of(value);
        String requirement = "a readable PEM file of X.509 certificates (the authorities that sign the server's"
                + " certificate) is required";
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            problem(RmqAttribute.REDIS_TLS_CA_FILE, value, "the file does not exist or cannot be read; " + requirement);
            return Optional.empty();
        }
        try (InputStream in = Files.newInputStream(file)) {
            if (CertificateFactory.getInstance("X.509").generateCertificates(in).isEmpty()) {
                problem(RmqAttribute.REDIS_TLS_CA_FILE, value, "the file holds no certificate; " + requirement);
                return Optional.empty();
            }
            return Optional.of(file);
        } catch (IOException | CertificateException e) {
            problem(RmqAttribute.REDIS_TLS_CA_FILE, value, "the file cannot be read as certificates (" + e.getMessage()
                    + "); " + requirement);
            return Optional.empty();
        }
    }

    /**
     * The ZooKeeper digest credentials {@code user:password} of {@code zookeeper-username} and
     * {@code zookeeper-password}, or empty when neither is set (or one lacks the other: recorded).
     */
    Optional<String[]> zooKeeperCredentials() {
        Optional<String> username = raw(RmqAttribute.ZOOKEEPER_USERNAME);
        Optional<String> password = secret(RmqAttribute.ZOOKEEPER_PASSWORD);
        if (username.isPresent() != password.isPresent()) {
            RmqAttribute missing = username.isPresent() ? RmqAttribute.ZOOKEEPER_PASSWORD : RmqAttribute.ZOOKEEPER_USERNAME;
            problem(missing, null, "zookeeper-username and zookeeper-password are required together");
            return Optional.empty();
        }
        if (username.isPresent() && username.get().contains(":")) {
            problem(RmqAttribute.ZOOKEEPER_USERNAME, username.get(), "a user name without ':' is required");
            return Optional.empty();
        }
        return username.map(u -> new String[] {u, password.get()});
    }

    /** The topic, or {@code null} when one of its attributes has a problem (already recorded). */
    TopicDefinition topic() {
        int before = problems.size();
        Optional<String> configuredName = raw(RmqAttribute.TOPIC);
        String name = configuredName.orElse(channel);
        if (!isValidTopicName(name)) {
            problem(RmqAttribute.TOPIC, name, "a name of letters, digits and ._:- only is required"
                    + (configuredName.isEmpty() ? " (the topic defaults to the channel name; set 'topic')" : ""));
        }
        TopicType type = topicType();
        int slotAmount = slotAmount();
        String keyPrefix = keyPrefix();
        if (problems.size() > before) {
            return null;
        }
        try {
            return new TopicDefinition(name, slotAmount, type, keyPrefix);
        } catch (IllegalArgumentException e) {
            problem(RmqAttribute.TOPIC, name, e.getMessage());
            return null;
        }
    }

    private TopicType topicType() {
        Optional<String> value = raw(RmqAttribute.TOPIC_TYPE);
        String requirement = "one of " + TOPIC_TYPES + " is required";
        if (value.isEmpty()) {
            problem(RmqAttribute.TOPIC_TYPE, null, requirement);
            return null;
        }
        try {
            return TopicType.valueOf(value.get().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            problem(RmqAttribute.TOPIC_TYPE, value.get(), requirement);
            return null;
        }
    }

    private int slotAmount() {
        String requirement = "a power of two from 1 to " + TopicDefinition.MAX_SLOT_AMOUNT + " is required";
        int before = problems.size();
        int n = (int) bounded(RmqAttribute.SLOT_AMOUNT, requirement);
        if (problems.size() == before && !TopicDefinition.isValidSlotAmount(n)) {
            problem(RmqAttribute.SLOT_AMOUNT, String.valueOf(n), requirement);
        }
        return n;
    }

    private String keyPrefix() {
        String prefix = string(RmqAttribute.KEY_PREFIX);
        boolean bad = prefix.codePoints().anyMatch(c -> c == '{' || c == '}' || Character.isWhitespace(c)
                || Character.isISOControl(c) || Character.isSpaceChar(c));
        if (bad) {
            problem(RmqAttribute.KEY_PREFIX, prefix,
                    "a prefix without braces, blanks or control characters is required (braces would break the "
                            + "keys' hash tags)");
        }
        return prefix;
    }

    /** The DURABILITY value's syntax, as the requirement of a problem says it. */
    static final String DURABILITY_REQUIREMENT = "'none' or 'replicas:<n>' with n from 1 to "
            + ProducerOptions.MAX_DURABLE_REPLICAS + " is required";

    /** How an outgoing channel confirms its sends: {@code durability} and {@code durability-timeout}. */
    ProducerOptions producerOptions() {
        int replicas = durableReplicas(string(RmqAttribute.DURABILITY));
        Duration timeout = millis(RmqAttribute.DURABILITY_TIMEOUT);
        return ProducerOptions.builder().durableReplicas(replicas).durabilityTimeout(timeout).build();
    }

    /** The replicas {@code durability} asks for: 0 for {@code none}; a problem and 0 for anything but replicas:n. */
    private int durableReplicas(String value) {
        if (value.equalsIgnoreCase("none")) {
            return 0;
        }
        String prefix = "replicas:";
        if (value.regionMatches(true, 0, prefix, 0, prefix.length())) {
            try {
                int n = Integer.parseInt(value.substring(prefix.length()).trim());
                if (n >= 1 && n <= ProducerOptions.MAX_DURABLE_REPLICAS) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        problem(RmqAttribute.DURABILITY, value, DURABILITY_REQUIREMENT);
        return 0;
    }

    PayloadType payloadType() {
        String value = string(RmqAttribute.PAYLOAD_TYPE);
        Optional<PayloadType> type = PayloadType.fromAttributeValue(value);
        if (type.isEmpty()) {
            problem(RmqAttribute.PAYLOAD_TYPE, value, "'string' or 'bytes' is required");
        }
        return type.orElse(PayloadType.STRING);
    }

    /**
     * The codec named by {@code className} (the raw {@code codec} value), instantiated; empty when none is
     * named or it cannot be created (recorded).
     */
    Optional<RmqCodec> codec(Optional<String> className) {
        if (className.isEmpty()) {
            return Optional.empty();
        }
        String name = className.get();
        try {
            Class<?> type = loadClass(name);
            if (!RmqCodec.class.isAssignableFrom(type)) {
                return codecProblem(name, "the class does not implement " + RmqCodec.class.getName());
            }
            if (type.isInterface() || Modifier.isAbstract(type.getModifiers())) {
                return codecProblem(name, "the class is abstract");
            }
            Object codec = type.getConstructor().newInstance();
            return Optional.of((RmqCodec) codec);
        } catch (ClassNotFoundException | LinkageError e) {
            return codecProblem(name, "the class cannot be loaded (" + e + ")");
        } catch (NoSuchMethodException e) {
            return codecProblem(name, "the class has no public no-arg constructor");
        } catch (InvocationTargetException e) {
            return codecProblem(name, "its constructor threw " + e.getCause());
        } catch (ReflectiveOperationException | RuntimeException e) {
            return codecProblem(name, "it cannot be instantiated (" + e + ")");
        }
    }

    private Optional<RmqCodec> codecProblem(String className, String reason) {
        problem(RmqAttribute.CODEC, className, reason + "; the fully qualified name of a class implementing "
                + RmqCodec.class.getName() + " with a public no-arg constructor is required");
        return Optional.empty();
    }

    /** Loads with the thread context class loader (the application's) first, then with the connector's. */
    private static Class<?> loadClass(String name) throws ClassNotFoundException {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        if (context != null) {
            try {
                return Class.forName(name, false, context);
            } catch (ClassNotFoundException e) {
                // fall back to the connector's loader
            }
        }
        return Class.forName(name, false, RmqCodec.class.getClassLoader());
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
