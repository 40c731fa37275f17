package io.rmq.badinput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.HashMap;
import java.util.Map;

import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.rmq.connector.config.IncomingChannelConfig;
import io.rmq.connector.config.OutgoingChannelConfig;
import io.rmq.connector.config.RmqConfigurationException;
import io.rmq.connector.i18n.RmqLogging;
import io.rmq.testing.LogRecorder;

/**
 * The catalogue of bad configuration values (docs/bad-input.md): each is refused when the channel is
 * created, before any connection, with RMQ-2001 naming the channel, the attribute, the value found
 * and what is allowed. No channel exists, so no message can be taken in and lost.
 */
class BadConfigurationTest {

    @Test
    void anUnknownTopicTypeIsRefused() {
        assertThat(incomingProblems("orders", "topic-type", "FIFO")).isEqualTo("RMQ-2001 Channel 'orders' (incoming):"
                + " attribute 'topic-type' = 'FIFO' is invalid: one of RANGE_MERGE, PRIORITY, FIXED_TIME is required");
    }

    @Test
    void aMissingTopicTypeIsRefused() {
        assertThat(outgoingProblems("orders")).isEqualTo("RMQ-2001 Channel 'orders' (outgoing): attribute"
                + " 'topic-type' is missing: one of RANGE_MERGE, PRIORITY, FIXED_TIME is required");
    }

    @Test
    void aSlotAmountThatIsNotAPowerOfTwoIsRefused() {
        assertThat(incomingProblems("orders", "topic-type", "PRIORITY", "slot-amount", "12"))
                .endsWith("attribute 'slot-amount' = '12' is invalid: a power of two from 1 to 16384 is required");
    }

    @Test
    void aSlotAmountOfZeroOrLessIsRefused() {
        assertThat(incomingProblems("orders", "topic-type", "PRIORITY", "slot-amount", "0"))
                .endsWith("attribute 'slot-amount' = '0' is invalid: a power of two from 1 to 16384 is required");
        assertThat(incomingProblems("orders", "topic-type", "PRIORITY", "slot-amount", "-16"))
                .endsWith("attribute 'slot-amount' = '-16' is invalid: a power of two from 1 to 16384 is required");
    }

    @Test
    void aHugeSlotAmountIsRefused() {
        assertThat(incomingProblems("orders", "topic-type", "PRIORITY", "slot-amount", "32768"))
                .endsWith("attribute 'slot-amount' = '32768' is invalid: a power of two from 1 to 16384 is required");
        // beyond an int: no overflow into a small valid value
        assertThat(incomingProblems("orders", "topic-type", "PRIORITY", "slot-amount", "4294967312"))
                .endsWith("attribute 'slot-amount' = '4294967312' is invalid: a power of two from 1 to 16384 is required");
    }

    @Test
    void aNegativeDurationIsRefused() {
        assertThat(incomingProblems("orders", "topic-type", "PRIORITY", "prepare-timeout", "-1"))
                .contains("attribute 'prepare-timeout' = '-1' is invalid: a whole number of milliseconds >= 100");
        assertThat(incomingProblems("orders", "topic-type", "PRIORITY", "retry-backoff", "-5"))
                .contains("attribute 'retry-backoff' = '-5' is invalid");
    }

    @Test
    void aNonNumericDurationIsRefused() {
        // durations are whole milliseconds: "5s" or ISO-8601 "PT5S" is a mistake, not 5 seconds
        assertThat(incomingProblems("orders", "topic-type", "PRIORITY", "poll-interval", "5s"))
                .contains("attribute 'poll-interval' = '5s' is invalid: a whole number of milliseconds");
        assertThat(incomingProblems("orders", "topic-type", "PRIORITY", "shutdown-timeout", "PT5S"))
                .contains("attribute 'shutdown-timeout' = 'PT5S' is invalid");
    }

    @Test
    void aBadRedisUriIsRefusedWithoutShowingItsPassword() {
        String problems = incomingProblems("orders", "topic-type", "PRIORITY", "redis-uri", "http://ops:s3cret@cache:6379");
        assertThat(problems).contains("attribute 'redis-uri' = 'http://***@cache:6379' is invalid: scheme 'http' is"
                + " not supported").doesNotContain("s3cret");
        assertThat(incomingProblems("orders", "topic-type", "PRIORITY", "redis-uri", "cache:6379"))
                .contains("attribute 'redis-uri' = 'cache:6379' is invalid: it has no scheme");
    }

    @Test
    void anUnknownPayloadTypeIsRefused() {
        assertThat(incomingProblems("orders", "topic-type", "PRIORITY", "payload-type", "json"))
                .endsWith("attribute 'payload-type' = 'json' is invalid: 'string' or 'bytes' is required");
    }

    @Test
    void credentialsGivenTwiceAreRefused() {
        assertThat(incomingProblems("orders", "topic-type", "PRIORITY", "redis-uri", "redis://u:p@cache:6379",
                "redis-password", "other")).contains("attribute 'redis-password' = '***' is invalid: redis-uri carries"
                        + " credentials already").doesNotContain("other");
    }

    @Test
    void aZooKeeperUserWithoutPasswordIsRefused() {
        assertThat(incomingProblems("orders", "topic-type", "PRIORITY", "zookeeper-connect", "zk:2181",
                "zookeeper-username", "rmq")).contains("zookeeper-username and zookeeper-password are required together");
    }

    @Test
    void aDurabilityThatIsNotNoneOrReplicasIsRefused() {
        assertThat(outgoingProblems("orders", "topic-type", "PRIORITY", "durability", "replicas:0",
                "durability-timeout", "10000")).isEqualTo("RMQ-2001 Channel 'orders' (outgoing): attribute 'durability'"
                        + " = 'replicas:0' is invalid: 'none' or 'replicas:<n>' with n from 1 to 1000 is required;"
                        + " attribute 'durability-timeout' = '10000' is invalid: a whole number of milliseconds from 1"
                        + " to 5000 is required");
    }

    @Test
    void aChannelWithoutTopicWhoseNameIsNoTopicNameIsRefused() {
        // the topic defaults to the channel name, which may hold characters a topic name may not
        assertThat(outgoingProblems("orders/eu", "topic-type", "FIXED_TIME"))
                .startsWith("RMQ-2001 Channel 'orders/eu' (outgoing): attribute 'topic' = 'orders/eu' is invalid:"
                        + " a name of letters, digits and ._:- only is required");
    }

    @Test
    void aKeyPrefixWithABraceIsRefused() {
        // a brace would move the slot's keys out of their shared hash tag
        assertThat(incomingProblems("orders", "topic-type", "PRIORITY", "key-prefix", "app{1}:"))
                .contains("attribute 'key-prefix' = 'app{1}:' is invalid");
    }

    @Test
    void anUnknownCodecClassIsRefused() {
        assertThat(outgoingProblems("orders", "topic-type", "PRIORITY", "codec", "com.example.NoSuchCodec"))
                .contains("attribute 'codec' = 'com.example.NoSuchCodec' is invalid: the class cannot be loaded");
    }

    @Test
    void aZeroTimeRangeOrANonFinitePriorityDefaultIsRefused() {
        assertThat(outgoingProblems("prices", "topic-type", "RANGE_MERGE", "time-range", "0"))
                .contains("attribute 'time-range' = '0' is invalid");
        assertThat(outgoingProblems("tasks", "topic-type", "PRIORITY", "priority", "NaN"))
                .contains("attribute 'priority' = 'NaN' is invalid: a finite decimal number is required");
    }

    @Test
    void aTimeRangeDefaultBeyondTheYear9999IsRefused() {
        // a message that would never be due is a mistake, as in OutgoingRmqMetadata.withTimeRange
        assertThat(outgoingProblems("prices", "topic-type", "RANGE_MERGE", "time-range", "9223372036854775807"))
                .contains("attribute 'time-range' = '9223372036854775807' is invalid: a whole number of milliseconds"
                        + " from 1 to 253402300799999");
    }

    @Test
    void aMaxMessageSizeOutOfBoundsIsRefused() {
        assertThat(outgoingProblems("orders", "topic-type", "FIXED_TIME", "max-message-size", "0"))
                .contains("attribute 'max-message-size' = '0' is invalid: an integer from 1 to 536870912 is required");
        assertThat(outgoingProblems("orders", "topic-type", "FIXED_TIME", "max-message-size", "1GB"))
                .contains("attribute 'max-message-size' = '1GB' is invalid");
    }

    @Test
    void everyProblemOfAChannelIsReportedAtOnce() {
        String problems = incomingProblems("orders", "topic-type", "FIFO", "slot-amount", "12", "batch-size", "0",
                "max-retries", "-1");
        assertThat(problems).contains("'topic-type' = 'FIFO'", "'slot-amount' = '12'", "'batch-size' = '0'",
                "'max-retries' = '-1'");
    }

    @Test
    void aMisspeltAttributeIsReportedWithTheAttributeItMostLikelyMeans() {
        try (LogRecorder log = LogRecorder.record(RmqLogging.LOGGER_NAME)) {
            IncomingChannelConfig.from(config("orders", "topic-type", "PRIORITY", "prepare-timout", "60000",
                    "connector", "smallrye-redis-rmq", "max-message-size", "1024", "colour", "blue"));
            assertThat(log.messagesContaining("RMQ-1080")).containsExactly(
                    "RMQ-1080 Channel 'orders' (incoming): property 'colour' is not an attribute of the smallrye-redis-rmq"
                            + " connector and is ignored. The attributes are listed in docs/configuration.md",
                    "RMQ-1080 Channel 'orders' (incoming): property 'prepare-timout' is not an attribute of the"
                            + " smallrye-redis-rmq connector and is ignored; did you mean 'prepare-timeout'? The attributes"
                            + " are listed in docs/configuration.md");
        }
    }

    private static String incomingProblems(String channel, String... attributes) {
        return catchThrowableOfType(RmqConfigurationException.class,
                () -> IncomingChannelConfig.from(config(channel, attributes))).getMessage();
    }

    private static String outgoingProblems(String channel, String... attributes) {
        return catchThrowableOfType(RmqConfigurationException.class,
                () -> OutgoingChannelConfig.from(config(channel, attributes))).getMessage();
    }

    /** A channel's config as the runtime hands it to the connector: attribute names without prefixes. */
    private static Config config(String channel, String... attributes) {
        Map<String, String> map = new HashMap<>();
        map.put("channel-name", channel);
        for (int i = 0; i + 1 < attributes.length; i += 2) {
            map.put(attributes[i], attributes[i + 1]);
        }
        return new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(map, "test", 100)).build();
    }
}
