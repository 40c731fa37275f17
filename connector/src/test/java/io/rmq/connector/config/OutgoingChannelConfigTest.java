package io.rmq.connector.config;

import static io.rmq.connector.config.TestConfigs.channel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.rmq.engine.produce.ProducerOptions;
import io.rmq.engine.topic.PriorityAging;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;

class OutgoingChannelConfigTest {

    @Test
    void defaultsApplyWhenOnlyTheTopicTypeIsSet() {
        OutgoingChannelConfig config = OutgoingChannelConfig.from(channel("price-updates", "topic-type", "PRIORITY"));

        assertThat(config.channel()).isEqualTo("price-updates");
        assertThat(config.redisUri()).isEqualTo("redis://localhost:6379");
        assertThat(config.topic()).isEqualTo(new TopicDefinition("price-updates", 16, TopicType.PRIORITY, ""));
        assertThat(config.defaultTimeRange()).isEmpty();
        assertThat(config.defaultPriority()).isEmpty();
        assertThat(config.maxInflight()).isEqualTo(OutgoingChannelConfig.DEFAULT_MAX_INFLIGHT).isEqualTo(1024);
        assertThat(config.codec()).isEmpty();
        assertThat(config.codecClassName()).isEmpty();
    }

    @Test
    void everyAttributeIsRead() {
        OutgoingChannelConfig config = OutgoingChannelConfig.from(channel("out",
                "redis-uri", "redis-sentinel://s1:26379,s2:26379/0#mymaster",
                "topic", "prices",
                "topic-type", "range_merge",
                "slot-amount", "4",
                "key-prefix", "eu:",
                "time-range", "60000",
                "priority", "-2.5",
                "max-inflight", "16",
                "codec", TestCodecs.Upper.class.getName()));

        assertThat(config.redisUri()).isEqualTo("redis-sentinel://s1:26379,s2:26379/0#mymaster");
        assertThat(config.topic()).isEqualTo(new TopicDefinition("prices", 4, TopicType.RANGE_MERGE, "eu:"));
        assertThat(config.defaultTimeRange()).contains(Duration.ofMinutes(1));
        assertThat(config.defaultPriority()).hasValue(-2.5);
        assertThat(config.maxInflight()).isEqualTo(16);
        assertThat(config.codecClassName()).contains(TestCodecs.Upper.class.getName());
        assertThat(config.codec()).get().isInstanceOf(TestCodecs.Upper.class);
        assertThat(config).asString().contains("defaultTimeRange=60000 ms", "defaultPriority=-2.5", "maxInflight=16");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-5", "abc", "1.5", "PT1M", "253402300800000"})
    void invalidTimeRanges(String value) {
        assertThat(problem(channel("c", "topic-type", "RANGE_MERGE", "time-range", value)).describe())
                .isEqualTo("attribute 'time-range' = '" + value + "' is invalid: "
                        + "a whole number of milliseconds from 1 to 253402300799999 is required");
    }

    @ParameterizedTest
    @ValueSource(strings = {"NaN", "Infinity", "-Infinity", "high", "1e400"})
    void invalidPriorities(String value) {
        assertThat(problem(channel("c", "topic-type", "PRIORITY", "priority", value)).describe())
                .isEqualTo("attribute 'priority' = '" + value + "' is invalid: a finite decimal number is required");
    }

    @ParameterizedTest
    @CsvSource({"0, 0.0", "-1, -1.0", "1e3, 1000.0", "3.25, 3.25"})
    void validPriorities(String value, double expected) {
        assertThat(OutgoingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "priority", value))
                .defaultPriority()).hasValue(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "lots", "2147483648"})
    void invalidMaxInflight(String value) {
        assertThat(problem(channel("c", "topic-type", "PRIORITY", "max-inflight", value)).describe())
                .isEqualTo("attribute 'max-inflight' = '" + value + "' is invalid: an integer >= 1 is required");
    }

    @Test
    void sendsAreNotDurableByDefault() {
        OutgoingChannelConfig config = OutgoingChannelConfig.from(channel("c", "topic-type", "PRIORITY"));

        assertThat(config.producerOptions()).isEqualTo(ProducerOptions.defaults());
        assertThat(config).asString().contains("durability=none");
    }

    @ParameterizedTest
    @CsvSource({"replicas:1, 1", "REPLICAS:2, 2", "replicas: 3 , 3", "replicas:1000, 1000"})
    void durabilityNamesTheReplicasToWaitFor(String value, int replicas) {
        OutgoingChannelConfig config = OutgoingChannelConfig.from(channel("c", "topic-type", "PRIORITY",
                "durability", value, "durability-timeout", "250"));

        assertThat(config.producerOptions().durableReplicas()).isEqualTo(replicas);
        assertThat(config.producerOptions().durabilityTimeout()).isEqualTo(Duration.ofMillis(250));
        assertThat(config).asString().contains("durability=replicas:" + replicas + " within 250 ms");
    }

    @ParameterizedTest
    @ValueSource(strings = {"None", "NONE", "none"})
    void noneIsCaseInsensitive(String value) {
        assertThat(OutgoingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "durability", value))
                .producerOptions().durable()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"replicas:0", "replicas:-1", "replicas:1001", "replicas:", "replicas:two", "replicas",
            "all", "1", "replicas:1.5", "replicas:99999999999"})
    void invalidDurability(String value) {
        assertThat(problem(channel("c", "topic-type", "PRIORITY", "durability", value)).describe())
                .isEqualTo("attribute 'durability' = '" + value + "' is invalid: "
                        + "'none' or 'replicas:<n>' with n from 1 to 1000 is required");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "5001", "1s", "1.5"})
    void invalidDurabilityTimeouts(String value) {
        assertThat(problem(channel("c", "topic-type", "PRIORITY", "durability", "replicas:1",
                "durability-timeout", value)).describe())
                .isEqualTo("attribute 'durability-timeout' = '" + value + "' is invalid: "
                        + "a whole number of milliseconds from 1 to 5000 is required");
    }

    @Test
    void priorityAgingGivesTheStartingPaceOfAPriorityTopic() {
        OutgoingChannelConfig config = OutgoingChannelConfig.from(channel("c", "topic-type", "PRIORITY",
                "priority-aging", "1/10s"));

        assertThat(config.producerOptions().priorityAging()).isEqualTo(new PriorityAging(0.0001, 0));
        assertThat(config).asString().contains("priorityAging=1.0E-4/ms");
        assertThat(OutgoingChannelConfig.from(channel("c", "topic-type", "PRIORITY")).producerOptions().priorityAging())
                .isEqualTo(PriorityAging.OFF);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "0/s", "-1/s", "1/d", "often"})
    void invalidPriorityAging(String value) {
        assertThat(problem(channel("c", "topic-type", "PRIORITY", "priority-aging", value)).describe())
                .isEqualTo("attribute 'priority-aging' = '" + value + "' is invalid: " + AgingAttributes.PACE_REQUIREMENT);
    }

    @ParameterizedTest
    @ValueSource(strings = {"FIXED_TIME", "RANGE_MERGE"})
    void priorityAgingIsRefusedForATimedTopic(String type) {
        assertThat(problem(channel("c", "topic", "orders", "topic-type", type, "priority-aging", "1/10s")).describe())
                .isEqualTo("attribute 'priority-aging' = '1/10s' is invalid: it applies only to PRIORITY topics: topic"
                        + " 'orders' is " + type + " (remove the attribute or use a PRIORITY topic)");
    }

    @Test
    void durabilityAttributesAreOutgoingOnly() {
        assertThat(IncomingChannelConfig.validate(channel("c", "topic-type", "PRIORITY", "durability", "bogus",
                "durability-timeout", "x"))).isEmpty();
    }

    @Test
    void oneExceptionNamesEveryProblemOfTheChannel() {
        RmqConfigurationException e = catchThrowableOfType(RmqConfigurationException.class,
                () -> OutgoingChannelConfig.from(channel("out", "topic-type", "LIFO", "time-range", "0",
                        "codec", "com.example.Missing")));

        assertThat(e.getMessage()).startsWith("RMQ-2001 Channel 'out' (outgoing): attribute 'topic-type' = 'LIFO'")
                .contains("; attribute 'time-range' = '0' is invalid: ", "; attribute 'codec' = 'com.example.Missing'");
        assertThat(e.problems()).extracting(ConfigProblem::attribute)
                .containsExactly("topic-type", "time-range", "codec");
        assertThat(e.problems()).extracting(ConfigProblem::direction).containsOnly(Direction.OUTGOING);
    }

    @Test
    void sharedAttributesAreCheckedToo() {
        List<ConfigProblem> problems = OutgoingChannelConfig.validate(channel("c", "redis-uri", "tcp://x",
                "slot-amount", "10", "key-prefix", "a b"));

        assertThat(problems).extracting(ConfigProblem::attribute)
                .containsExactly("redis-uri", "topic-type", "slot-amount", "key-prefix");
    }

    @Test
    void incomingAttributesAreIgnored() {
        assertThat(OutgoingChannelConfig.validate(channel("c", "topic-type", "PRIORITY", "batch-size", "0",
                "max-retries", "-1", "prepare-timeout", "x", "payload-type", "json"))).isEmpty();
    }

    @Test
    void credentialsAreMaskedInToString() {
        assertThat(OutgoingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "redis-uri",
                "rediss://:hunter2@cache:6380"))).asString().doesNotContain("hunter2").contains("rediss://***@cache:6380");
    }

    private static ConfigProblem problem(org.eclipse.microprofile.config.Config config) {
        List<ConfigProblem> problems = OutgoingChannelConfig.validate(config);
        assertThat(problems).hasSize(1);
        return problems.get(0);
    }

    @Test
    void tenantFromKeyTakesTheGroupOfTheSlotBasis() {
        OutgoingChannelConfig config = OutgoingChannelConfig.from(channel("c", "topic-type", "PRIORITY",
                "tenant-from-key", "^([^:]+):"));

        assertThat(config.tenantFromKey("acme:order-1")).contains("acme");
        assertThat(config.tenantFromKey("no-colon")).isEmpty();
        assertThat(config.tenantFromKey(null)).isEmpty();
        assertThat(OutgoingChannelConfig.from(channel("c", "topic-type", "PRIORITY")).tenantFromKey("acme:1")).isEmpty();
    }

    @Test
    void tenantFromKeyNeedsAnExpressionWithOneGroup() {
        assertThatThrownBy(() -> OutgoingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "tenant-from-key",
                "^[^:]+:"))).hasMessageContaining("attribute 'tenant-from-key' = '^[^:]+:' is invalid: a regular"
                        + " expression with exactly one group is required");
        assertThatThrownBy(() -> OutgoingChannelConfig.from(channel("c", "topic-type", "PRIORITY", "tenant-from-key",
                "(("))).hasMessageContaining("'tenant-from-key' = '((' is invalid");
    }
}
