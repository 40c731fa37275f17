package io.rmq.connector.config;

import static io.rmq.connector.config.TestConfigs.channel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.flow.AdaptiveSlowDown;
import io.rmq.engine.consume.flow.FlowLimit;
import io.rmq.engine.topic.FairShare;
import io.rmq.engine.topic.KeyLimits;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;

class IncomingChannelConfigTest {

    @Test
    void priorityAgingTellsTheConsumerOfAPriorityTopic() {
        IncomingChannelConfig config = IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY",
                "priority-aging", "5/m"));

        assertThat(config.consumerOptions().priorityAging().pacePerMilli()).isEqualTo(5.0 / 60_000);
        assertThat(config.consumerOptions().toBuilder().build().priorityAging())
                .isEqualTo(config.consumerOptions().priorityAging());
    }

    @Test
    void defaultsApplyWhenOnlyTheTopicTypeIsSet() {
        IncomingChannelConfig config = IncomingChannelConfig.from(channel("prices", "topic-type", "RANGE_MERGE"));

        assertThat(config.channel()).isEqualTo("prices");
        assertThat(config.redisUri()).isEqualTo("redis://localhost:6379");
        assertThat(config.topic()).isEqualTo(new TopicDefinition("prices", 16, TopicType.RANGE_MERGE, ""));
        assertThat(config.consumerOptions()).hasToString(ConsumerOptions.defaults().toString());
        assertThat(config.maxRetries()).isEqualTo(ConsumerOptions.DEFAULT_MAX_RETRIES);
        assertThat(config.prepareTimeout()).isEqualTo(ConsumerOptions.DEFAULT_PREPARE_TIMEOUT);
        assertThat(config.batchSize()).isEqualTo(ConsumerOptions.DEFAULT_BATCH_SIZE);
        assertThat(config.retryBackoff()).isEqualTo(ConsumerOptions.DEFAULT_RETRY_BACKOFF);
        assertThat(config.retryBackoffMax()).isEqualTo(ConsumerOptions.DEFAULT_RETRY_BACKOFF_MAX);
        assertThat(config.pollInterval()).isEqualTo(ConsumerOptions.DEFAULT_POLL_INTERVAL);
        assertThat(config.shutdownTimeout()).isEqualTo(ConsumerOptions.DEFAULT_SHUTDOWN_TIMEOUT);
        assertThat(config.payloadType()).isEqualTo(PayloadType.STRING);
        assertThat(config.codec()).isEmpty();
        assertThat(config.codecClassName()).isEmpty();
    }

    @Test
    void everyAttributeIsRead() {
        IncomingChannelConfig config = IncomingChannelConfig.from(channel("in",
                "redis-uri", "rediss://app:secret@cache:6380/2",
                "topic", "orders.close",
                "topic-type", "FIXED_TIME",
                "slot-amount", "64",
                "key-prefix", "shop:",
                "max-retries", "3",
                "prepare-timeout", "5000",
                "batch-size", "100",
                "retry-backoff", "250",
                "retry-backoff-max", "8000",
                "poll-interval", "700",
                "shutdown-timeout", "0",
                "payload-type", "bytes",
                "codec", TestCodecs.Upper.class.getName()));

        assertThat(config.redisUri()).isEqualTo("rediss://app:secret@cache:6380/2");
        assertThat(config.topic()).isEqualTo(new TopicDefinition("orders.close", 64, TopicType.FIXED_TIME, "shop:"));
        ConsumerOptions options = config.consumerOptions();
        assertThat(options.maxRetries()).isEqualTo(3);
        assertThat(options.prepareTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(options.batchSize()).isEqualTo(100);
        assertThat(options.retryBackoff()).isEqualTo(Duration.ofMillis(250));
        assertThat(options.retryBackoffMax()).isEqualTo(Duration.ofSeconds(8));
        assertThat(options.pollInterval()).isEqualTo(Duration.ofMillis(700));
        assertThat(options.shutdownTimeout()).isEqualTo(Duration.ZERO);
        assertThat(config.payloadType()).isEqualTo(PayloadType.BYTES);
        assertThat(config.codecClassName()).contains(TestCodecs.Upper.class.getName());
        assertThat(config.codec()).get().isInstanceOf(TestCodecs.Upper.class);
    }

    @Test
    void valuesAreTrimmed() {
        IncomingChannelConfig config = IncomingChannelConfig.from(channel("c", "topic-type", " PRIORITY ",
                "slot-amount", " 8 ", "batch-size", "7 "));

        assertThat(config.topic().type()).isEqualTo(TopicType.PRIORITY);
        assertThat(config.topic().slotAmount()).isEqualTo(8);
        assertThat(config.batchSize()).isEqualTo(7);
    }

    @ParameterizedTest
    @CsvSource({"RANGE_MERGE, RANGE_MERGE", "range_merge, RANGE_MERGE", "Priority, PRIORITY", "fixed_time, FIXED_TIME"})
    void topicTypeIgnoresCase(String value, TopicType expected) {
        assertThat(IncomingChannelConfig.from(channel("c", "topic-type", value)).topic().type()).isEqualTo(expected);
    }

    @Test
    void expiredToDeadIsFalseUnlessSetAndMustBeTrueOrFalse() {
        assertThat(IncomingChannelConfig.from(channel("c", "topic-type", "FIXED_TIME")).consumerOptions().expiredToDead())
                .isFalse();
        assertThat(IncomingChannelConfig.from(channel("c", "topic-type", "FIXED_TIME", "expired-to-dead", "TRUE"))
                .consumerOptions().expiredToDead()).isTrue();
        RmqConfigurationException e = catchThrowableOfType(RmqConfigurationException.class,
                () -> IncomingChannelConfig.from(channel("c", "topic-type", "FIXED_TIME", "expired-to-dead", "yes")));
        assertThat(e).hasMessage("RMQ-2001 Channel 'c' (incoming): attribute 'expired-to-dead' = 'yes' is invalid: "
                + "'true' or 'false' is required");
    }

    @Test
    void rateLimitIsNoneUnlessSetAndReadsAnAmountPerUnitWithItsBurst() {
        assertThat(IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY")).consumerOptions().rateLimit()).isEmpty();
        assertThat(IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "rate-limit", "500/s", "rate-limit-burst", "50"))
                .consumerOptions().rateLimit()).contains(new FlowLimit(500, 50));
        assertThat(IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "rate-limit", "30/m")).consumerOptions().rateLimit())
                .contains(new FlowLimit(0.5, 0));
    }

    @Test
    void keyLimitsAreNoneUnlessSet() {
        assertThat(IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY")).consumerOptions().keyLimits())
                .isEqualTo(KeyLimits.NONE);
        assertThat(IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "key-concurrency", "2",
                "key-rate-limit", "30/m", "key-rate-limit-burst", "3")).consumerOptions().keyLimits())
                .isEqualTo(new KeyLimits(2, 0.5, 3));
    }

    @Test
    void keyLimitsThatCannotBeReadAreProblems() {
        RmqConfigurationException zero = catchThrowableOfType(RmqConfigurationException.class,
                () -> IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "key-concurrency", "0")));
        RmqConfigurationException rate = catchThrowableOfType(RmqConfigurationException.class,
                () -> IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "key-rate-limit", "fast")));
        RmqConfigurationException alone = catchThrowableOfType(RmqConfigurationException.class,
                () -> IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "key-rate-limit-burst", "4")));

        assertThat(zero).hasMessage("RMQ-2001 Channel 'c' (incoming): attribute 'key-concurrency' = '0' is invalid:"
                + " a whole number of messages, 1 or more, is required");
        assertThat(rate).hasMessageContaining("'key-rate-limit' = 'fast' is invalid");
        assertThat(alone).hasMessageContaining("it applies only with key-rate-limit, which is not set");
    }

    @Test
    void aRateLimitThatCannotBeReadOrABurstWithoutOneIsAProblem() {
        RmqConfigurationException bad = catchThrowableOfType(RmqConfigurationException.class,
                () -> IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "rate-limit", "500 per second")));
        RmqConfigurationException zero = catchThrowableOfType(RmqConfigurationException.class,
                () -> IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "rate-limit", "0/s")));
        RmqConfigurationException alone = catchThrowableOfType(RmqConfigurationException.class,
                () -> IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "rate-limit-burst", "10")));

        assertThat(bad).hasMessage("RMQ-2001 Channel 'c' (incoming): attribute 'rate-limit' = '500 per second' is"
                + " invalid: <amount>/s, <amount>/m or <amount>/h with an amount above 0 is required, e.g. 500/s");
        assertThat(zero).hasMessageContaining("'rate-limit' = '0/s' is invalid");
        assertThat(alone).hasMessage("RMQ-2001 Channel 'c' (incoming): attribute 'rate-limit-burst' = '10' is"
                + " invalid: it applies only with rate-limit, which is not set");
    }

    @Test
    void theAdaptiveSlowDownIsOffUnlessSetAndReadsItsThresholdAndFloor() {
        assertThat(IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY")).consumerOptions().adaptiveSlowDown())
                .isEmpty();
        assertThat(IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "adaptive-slow-down", "true"))
                .consumerOptions().adaptiveSlowDown()).contains(new AdaptiveSlowDown(0.5, 0));
        assertThat(IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "adaptive-slow-down", "true",
                "adaptive-failure-threshold", "0.2", "adaptive-floor", "120/m")).consumerOptions().adaptiveSlowDown())
                .contains(new AdaptiveSlowDown(0.2, 2));
    }

    @Test
    void adaptiveSettingsThatCannotBeReadOrWithoutTheSlowDownAreProblems() {
        RmqConfigurationException ratio = catchThrowableOfType(RmqConfigurationException.class,
                () -> IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "adaptive-slow-down", "true",
                        "adaptive-failure-threshold", "1.5")));
        RmqConfigurationException floor = catchThrowableOfType(RmqConfigurationException.class,
                () -> IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "adaptive-slow-down", "true",
                        "adaptive-floor", "slow")));
        RmqConfigurationException alone = catchThrowableOfType(RmqConfigurationException.class,
                () -> IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "adaptive-floor", "5/s")));

        assertThat(ratio).hasMessage("RMQ-2001 Channel 'c' (incoming): attribute 'adaptive-failure-threshold' = '1.5'"
                + " is invalid: a ratio above 0 and below 1 is required, e.g. 0.5");
        assertThat(floor).hasMessageContaining("'adaptive-floor' = 'slow' is invalid");
        assertThat(alone).hasMessage("RMQ-2001 Channel 'c' (incoming): attribute 'adaptive-floor' = '5/s' is"
                + " invalid: it applies only with adaptive-slow-down=true, which is not set");
    }

    @Test
    void fairShareIsOffUnlessSetAndReadsTheTenantWeights() {
        assertThat(IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY")).consumerOptions().fairShare())
                .isEqualTo(FairShare.OFF);
        FairShare fair = IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "fair-share", "true",
                "tenant-weights", "a:3,b:1")).consumerOptions().fairShare();

        assertThat(fair.on()).isTrue();
        assertThat(fair.weights()).containsOnly(java.util.Map.entry("a", 3.0), java.util.Map.entry("b", 1.0));
        assertThat(fair.defaultWeight()).isEqualTo(1.0);
    }

    @Test
    void limitsPerKeyAndFairShareOnOneChannelAreAProblem() {
        RmqConfigurationException both = catchThrowableOfType(RmqConfigurationException.class,
                () -> IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "fair-share", "true",
                        "key-concurrency", "1")));

        assertThat(both).hasMessageContaining("attribute 'fair-share' = 'true' is invalid")
                .hasMessageContaining("not both");
    }

    @Test
    void badTenantWeightsOrWeightsWithoutFairShareAreAProblem() {
        RmqConfigurationException bad = catchThrowableOfType(RmqConfigurationException.class,
                () -> IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "fair-share", "true",
                        "tenant-weights", "a:0")));
        RmqConfigurationException alone = catchThrowableOfType(RmqConfigurationException.class,
                () -> IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "tenant-weights", "a:3")));

        assertThat(bad).hasMessageContaining("attribute 'tenant-weights' = 'a:0' is invalid")
                .hasMessageContaining("RMQ-0636");
        assertThat(alone).hasMessage("RMQ-2001 Channel 'c' (incoming): attribute 'tenant-weights' = 'a:3' is"
                + " invalid: it applies only with fair-share=true");
    }

    @Test
    void oneExceptionNamesEveryProblemOfTheChannel() {
        RmqConfigurationException e = catchThrowableOfType(RmqConfigurationException.class,
                () -> IncomingChannelConfig.from(channel("prices", "slot-amount", "12")));

        assertThat(e).hasMessage("RMQ-2001 Channel 'prices' (incoming): "
                + "attribute 'topic-type' is missing: one of RANGE_MERGE, PRIORITY, FIXED_TIME is required; "
                + "attribute 'slot-amount' = '12' is invalid: a power of two from 1 to 16384 is required");
        assertThat(e.problems()).extracting(ConfigProblem::attribute).containsExactly("topic-type", "slot-amount");
        assertThat(e).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everyBadAttributeIsReported() {
        Map<String, String> bad = Map.ofEntries(
                Map.entry("channel-name", "everything-wrong"),
                Map.entry("redis-uri", "http://nowhere"),
                Map.entry("topic", "bad topic"),
                Map.entry("topic-type", "FIFO"),
                Map.entry("slot-amount", "3"),
                Map.entry("key-prefix", "{x}"),
                Map.entry("max-retries", "-1"),
                Map.entry("prepare-timeout", "soon"),
                Map.entry("batch-size", "0"),
                Map.entry("retry-backoff", "-5"),
                Map.entry("retry-backoff-max", "1.5"),
                Map.entry("poll-interval", "1"),
                Map.entry("shutdown-timeout", "-1"),
                Map.entry("payload-type", "json"),
                Map.entry("codec", "com.example.Missing"));

        List<ConfigProblem> problems = IncomingChannelConfig.validate(TestConfigs.of(bad));

        assertThat(problems).extracting(ConfigProblem::attribute).containsExactly("redis-uri", "topic", "topic-type",
                "slot-amount", "key-prefix", "max-retries", "prepare-timeout", "batch-size", "retry-backoff",
                "retry-backoff-max", "poll-interval", "shutdown-timeout", "payload-type", "codec");
        assertThat(problems).allSatisfy(p -> {
            assertThat(p.channel()).isEqualTo("everything-wrong");
            assertThat(p.direction()).isEqualTo(Direction.INCOMING);
            assertThat(p.foundValue()).contains(bad.get(p.attribute()));
        });
        assertThatThrownBy(() -> IncomingChannelConfig.from(TestConfigs.of(bad)))
                .isInstanceOf(RmqConfigurationException.class)
                .satisfies(e -> assertThat(((RmqConfigurationException) e).problems()).isEqualTo(problems));
    }

    @Test
    void validateReturnsNothingForAUsableConfiguration() {
        assertThat(IncomingChannelConfig.validate(channel("ok", "topic-type", "PRIORITY"))).isEmpty();
    }

    @Test
    void unknownTopicType() {
        assertThat(problem(channel("c", "topic-type", "FIFO"))).hasToString(
                "Channel 'c' (incoming): attribute 'topic-type' = 'FIFO' is invalid: "
                        + "one of RANGE_MERGE, PRIORITY, FIXED_TIME is required");
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "12", "0", "-4", "1.5", "32768", "99999999999", "0x10"})
    void invalidSlotAmounts(String value) {
        assertThat(problem(channel("c", "topic-type", "PRIORITY", "slot-amount", value)).describe())
                .isEqualTo("attribute 'slot-amount' = '" + value + "' is invalid: "
                        + "a power of two from 1 to 16384 is required");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 1024, 16384})
    void validSlotAmounts(int value) {
        assertThat(IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "slot-amount",
                String.valueOf(value))).topic().slotAmount()).isEqualTo(value);
    }

    @ParameterizedTest
    @CsvSource({
            "max-retries, -1, an integer >= 0 is required",
            "max-retries, many, an integer >= 0 is required",
            "max-retries, 3000000000, an integer >= 0 is required",
            "batch-size, 0, an integer from 1 to 10000 is required",
            "batch-size, 10001, an integer from 1 to 10000 is required",
            "batch-size, 3.5, an integer from 1 to 10000 is required",
            "prepare-timeout, 99, a whole number of milliseconds >= 100 is required",
            "prepare-timeout, -1, a whole number of milliseconds >= 100 is required",
            "prepare-timeout, 30s, a whole number of milliseconds >= 100 is required",
            "retry-backoff, -1, a whole number of milliseconds >= 0 is required",
            "retry-backoff, x, a whole number of milliseconds >= 0 is required",
            "retry-backoff-max, -1, a whole number of milliseconds >= 0 is required",
            "poll-interval, 9, a whole number of milliseconds >= 10 is required",
            "shutdown-timeout, -1, a whole number of milliseconds >= 0 is required",
            "shutdown-timeout, 1e3, a whole number of milliseconds >= 0 is required"})
    void invalidCountsAndTimeouts(String attribute, String value, String requirement) {
        ConfigProblem problem = problem(channel("c", "topic-type", "PRIORITY", attribute, value));

        assertThat(problem.attribute()).isEqualTo(attribute);
        assertThat(problem.describe())
                .isEqualTo("attribute '" + attribute + "' = '" + value + "' is invalid: " + requirement);
    }

    @ParameterizedTest
    @CsvSource({"max-retries, 0", "batch-size, 1", "batch-size, 10000", "prepare-timeout, 100",
            "retry-backoff, 0", "retry-backoff-max, 0", "poll-interval, 10", "shutdown-timeout, 0"})
    void boundaryValuesAreAccepted(String attribute, String value) {
        assertThat(IncomingChannelConfig.validate(channel("c", "topic-type", "PRIORITY", attribute, value))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"my topic", "price/eu", "prix-\u00e9t\u00e9", "a{b}"})
    void invalidTopicNames(String name) {
        assertThat(problem(channel("c", "topic-type", "PRIORITY", "topic", name)).describe())
                .isEqualTo("attribute 'topic' = '" + name + "' is invalid: "
                        + "a name of letters, digits and ._:- only is required");
    }

    @Test
    void aTopicNameTakenFromAnUnusableChannelNameSaysSo() {
        assertThat(problem(channel("prices/eu", "topic-type", "PRIORITY")).describe())
                .isEqualTo("attribute 'topic' = 'prices/eu' is invalid: a name of letters, digits and ._:- only "
                        + "is required (the topic defaults to the channel name; set 'topic')");
        assertThat(IncomingChannelConfig.from(channel("prices/eu", "topic-type", "PRIORITY", "topic", "prices_eu"))
                .topic().name()).isEqualTo("prices_eu");
    }

    @ParameterizedTest
    @ValueSource(strings = {"{app}", "a}", "my app:", "a\tb", "a\nb", "a\u00a0b", "be\u0007ll"})
    void invalidKeyPrefixes(String prefix) {
        assertThat(problem(channel("c", "topic-type", "PRIORITY", "key-prefix", prefix)).attribute())
                .isEqualTo("key-prefix");
    }

    @ParameterizedTest
    @ValueSource(strings = {"redis://localhost", "redis://h:6379/3", "rediss://u:p@h:6380",
            "redis-sentinel://s1:26379,s2:26379/0#mymaster", "rediss-sentinel://s1#m", "redis://h?timeout=10s"})
    void validRedisUris(String uri) {
        assertThat(IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "redis-uri", uri)).redisUri())
                .isEqualTo(uri);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "localhost:6379 | it has no scheme",
            "REDIS://h | scheme 'REDIS' is not supported",
            "cache | it has no scheme",
            "http://cache | scheme 'http' is not supported",
            "redis-socket:///tmp/redis.sock | scheme 'redis-socket' is not supported",
            "redis://h:99999 | Lettuce refuses it: Port out of range: 99999",
            "redis-sentinel://s1:26379 | Lettuce refuses it: URI must contain the sentinelMasterId",
            "redis://h/db | Lettuce refuses it: a number was expected"})
    void invalidRedisUris(String uri, String reason) {
        ConfigProblem problem = problem(channel("c", "topic-type", "PRIORITY", "redis-uri", uri));

        assertThat(problem.attribute()).isEqualTo("redis-uri");
        assertThat(problem.requirement()).startsWith(reason)
                .endsWith("a redis://, rediss://, redis-sentinel:// or rediss-sentinel:// URI is required");
    }

    @Test
    void credentialsNeverAppearInMessages() {
        String uri = "redis://admin:s3cr3t@cache:99999/0";
        RmqConfigurationException e = catchThrowableOfType(RmqConfigurationException.class,
                () -> IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "redis-uri", uri)));

        assertThat(e.getMessage()).doesNotContain("s3cr3t").contains("'redis://***@cache:99999/0'");
        assertThat(e.problems().get(0).value()).isEqualTo("redis://***@cache:99999/0");

        String good = "redis://admin:s3cr3t@cache:6379";
        assertThat(IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "redis-uri", good)))
                .asString().doesNotContain("s3cr3t").contains("redis://***@cache:6379");
    }

    @ParameterizedTest
    @CsvSource({"string, STRING", "bytes, BYTES", "BYTES, BYTES", "String, STRING"})
    void payloadTypes(String value, PayloadType expected) {
        assertThat(IncomingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "payload-type", value))
                .payloadType()).isEqualTo(expected);
    }

    @Test
    void unknownPayloadType() {
        assertThat(problem(channel("c", "topic-type", "PRIORITY", "payload-type", "json")).describe())
                .isEqualTo("attribute 'payload-type' = 'json' is invalid: 'string' or 'bytes' is required");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "com.example.NoSuchCodec | the class cannot be loaded (java.lang.ClassNotFoundException: com.example.NoSuchCodec)",
            "io.rmq.connector.config.TestCodecs$NotACodec | the class does not implement io.rmq.connector.RmqCodec",
            "io.rmq.connector.config.TestCodecs$NeedsArgument | the class has no public no-arg constructor",
            "io.rmq.connector.config.TestCodecs$Exploding | its constructor threw java.lang.IllegalStateException: boom",
            "io.rmq.connector.config.TestCodecs$Abstract | the class is abstract",
            "io.rmq.connector.RmqCodec | the class is abstract"})
    void unusableCodecs(String className, String reason) {
        ConfigProblem problem = problem(channel("c", "topic-type", "PRIORITY", "codec", className));

        assertThat(problem.describe()).isEqualTo("attribute 'codec' = '" + className + "' is invalid: " + reason
                + "; the fully qualified name of a class implementing io.rmq.connector.RmqCodec with a public "
                + "no-arg constructor is required");
    }

    @Test
    void eachChannelGetsItsOwnCodecInstance() {
        var config = channel("c", "topic-type", "PRIORITY", "codec", TestCodecs.Upper.class.getName());

        assertThat(IncomingChannelConfig.from(config).codec().orElseThrow())
                .isNotSameAs(IncomingChannelConfig.from(config).codec().orElseThrow());
    }

    @Test
    void outgoingAttributesAreIgnored() {
        assertThat(IncomingChannelConfig.validate(channel("c", "topic-type", "PRIORITY", "time-range", "-1",
                "priority", "NaN", "max-inflight", "0"))).isEmpty();
    }

    @Test
    void blankValuesCountAsUnset() {
        Config blank = new MapConfig(Map.of("channel-name", "c", "topic-type", "PRIORITY", "batch-size", "  ",
                "key-prefix", ""));

        IncomingChannelConfig config = IncomingChannelConfig.from(blank);

        assertThat(config.batchSize()).isEqualTo(ConsumerOptions.DEFAULT_BATCH_SIZE);
        assertThat(config.topic().keyPrefix()).isEmpty();
    }

    @Test
    void aMissingChannelNameIsReported() {
        List<ConfigProblem> problems = IncomingChannelConfig.validate(TestConfigs.of(Map.of("topic-type", "PRIORITY")));

        assertThat(problems).extracting(ConfigProblem::attribute).contains("channel-name");
        assertThat(problems.get(0)).hasToString("Channel '<unnamed>' (incoming): attribute 'channel-name' is missing: "
                + "the runtime must give the channel name");
    }

    private static ConfigProblem problem(Config config) {
        List<ConfigProblem> problems = IncomingChannelConfig.validate(config);
        assertThat(problems).hasSize(1);
        return problems.get(0);
    }
}
