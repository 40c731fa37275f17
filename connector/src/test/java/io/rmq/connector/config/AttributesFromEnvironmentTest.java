package io.rmq.connector.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.smallrye.reactive.messaging.providers.impl.ConnectorConfig;
import io.rmq.connector.i18n.RmqLogging;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.testing.LogRecorder;

/**
 * Attributes set through environment variables ({@code MP_MESSAGING_CONNECTOR_SMALLRYE_REDIS_RMQ_REDIS_URI},
 * {@code MP_MESSAGING_INCOMING_ORDERS_PREPARE_TIMEOUT}), read through SmallRye's own channel configuration,
 * which lists such a property under its environment spelling ({@code REDIS_URI}): each is recognised
 * without RMQ-1080, and a misspelt one is still reported, with the attribute it meant.
 */
class AttributesFromEnvironmentTest {

    private static final String CONNECTOR_ENV = "MP_MESSAGING_CONNECTOR_SMALLRYE_REDIS_RMQ_";

    /** Properties of SmallRye Reactive Messaging and MicroProfile, with values that leave the channel as it is. */
    private static final Map<String, String> RUNTIME_PROPERTIES = Map.of("CONNECTOR", "smallrye-redis-rmq",
            "ENABLED", "true", "MERGE", "false", "BROADCAST", "false", "CONCURRENCY", "1", "PAUSABLE", "false",
            "INITIALLY_PAUSED", "false");

    @Test
    void everyIncomingAttributeSetForTheWholeConnectorIsRecognised() {
        Map<String, String> env = defaultsOfEveryAttribute(Direction.INCOMING, CONNECTOR_ENV);
        env.put(CONNECTOR_ENV + "REDIS_URI", "redis://env-host:6380");
        env.put(CONNECTOR_ENV + "PREPARE_TIMEOUT", "61000");
        env.put("MP_MESSAGING_INCOMING_ORDERS_CONNECTOR", "smallrye-redis-rmq");
        try (LogRecorder log = LogRecorder.record(RmqLogging.LOGGER_NAME)) {
            IncomingChannelConfig config = IncomingChannelConfig.from(channel(Direction.INCOMING, "orders", env, Map.of()));
            assertThat(config.redisUri()).isEqualTo("redis://env-host:6380");
            assertThat(config.prepareTimeout()).isEqualTo(Duration.ofMillis(61_000));
            assertThat(log.messagesContaining("RMQ-1080")).isEmpty();
        }
    }

    @Test
    void everyOutgoingAttributeSetForTheWholeConnectorIsRecognised() {
        Map<String, String> env = defaultsOfEveryAttribute(Direction.OUTGOING, CONNECTOR_ENV);
        env.put(CONNECTOR_ENV + "REDIS_URI", "redis://env-host:6380");
        env.put(CONNECTOR_ENV + "MAX_INFLIGHT", "77");
        env.put("MP_MESSAGING_OUTGOING_PRICE_UPDATES_CONNECTOR", "smallrye-redis-rmq");
        try (LogRecorder log = LogRecorder.record(RmqLogging.LOGGER_NAME)) {
            OutgoingChannelConfig config = OutgoingChannelConfig.from(
                    channel(Direction.OUTGOING, "price-updates", env, Map.of()));
            assertThat(config.redisUri()).isEqualTo("redis://env-host:6380");
            assertThat(config.maxInflight()).isEqualTo(77);
            assertThat(log.messagesContaining("RMQ-1080")).isEmpty();
        }
    }

    @Test
    void everyAttributeAndRuntimePropertySetForOneChannelIsRecognised() {
        String incoming = "MP_MESSAGING_INCOMING_ORDERS_";
        Map<String, String> env = defaultsOfEveryAttribute(Direction.INCOMING, incoming);
        RUNTIME_PROPERTIES.forEach((name, value) -> env.put(incoming + name, value));
        env.put(incoming + "MAX_RETRIES", "5");
        String outgoing = "MP_MESSAGING_OUTGOING_PRICE_UPDATES_";
        env.putAll(defaultsOfEveryAttribute(Direction.OUTGOING, outgoing));
        RUNTIME_PROPERTIES.forEach((name, value) -> env.put(outgoing + name, value));
        env.put(outgoing + "MAX_MESSAGE_SIZE", "2048");
        try (LogRecorder log = LogRecorder.record(RmqLogging.LOGGER_NAME)) {
            assertThat(IncomingChannelConfig.from(channel(Direction.INCOMING, "orders", env, Map.of())).maxRetries())
                    .isEqualTo(5);
            assertThat(OutgoingChannelConfig.from(channel(Direction.OUTGOING, "price-updates", env, Map.of()))
                    .maxMessageSize()).isEqualTo(2048);
            assertThat(log.messagesContaining("RMQ-1080")).isEmpty();
        }
    }

    @Test
    void anEnvironmentVariableInLowerCaseIsRecognisedToo() {
        Map<String, String> env = new HashMap<>(Map.of("mp_messaging_incoming_orders_connector", "smallrye-redis-rmq",
                "mp_messaging_incoming_orders_topic_type", "PRIORITY", "mp_messaging_incoming_orders_batch_size", "7",
                "mp_messaging_connector_smallrye_redis_rmq_redis_uri", "redis://env-host:6380"));
        try (LogRecorder log = LogRecorder.record(RmqLogging.LOGGER_NAME)) {
            IncomingChannelConfig config = IncomingChannelConfig.from(channel(Direction.INCOMING, "orders", env, Map.of()));
            assertThat(config.batchSize()).isEqualTo(7);
            assertThat(config.redisUri()).isEqualTo("redis://env-host:6380");
            assertThat(log.messagesContaining("RMQ-1080")).isEmpty();
        }
    }

    @Test
    void aMisspeltAttributeIsReportedInEveryFormWithTheAttributeItMeant() {
        Map<String, String> env = Map.of("MP_MESSAGING_INCOMING_ORDERS_CONNECTOR", "smallrye-redis-rmq",
                "MP_MESSAGING_INCOMING_ORDERS_TOPIC_TYPE", "PRIORITY",
                CONNECTOR_ENV + "REDIS_UIR", "redis://env-host:6380",
                "MP_MESSAGING_INCOMING_ORDERS_PREPARE_TIMOUT", "61000",
                "mp_messaging_incoming_orders_max_retires", "3",
                "MP_MESSAGING_INCOMING_ORDERS_CONCURENCY", "4",
                "MP_MESSAGING_INCOMING_ORDERS_COLOUR", "blue");
        // in a properties file only the dashed name is read: poll_interval is a mistake there
        Map<String, String> properties = Map.of("mp.messaging.incoming.orders.batch-sise", "10",
                "mp.messaging.connector.smallrye-redis-rmq.poll_interval", "500");
        try (LogRecorder log = LogRecorder.record(RmqLogging.LOGGER_NAME)) {
            IncomingChannelConfig config = IncomingChannelConfig.from(
                    channel(Direction.INCOMING, "orders", env, properties));
            assertThat(config.redisUri()).isEqualTo(RmqAttribute.REDIS_URI.defaultValue().orElseThrow());
            assertThat(config.prepareTimeout()).isEqualTo(ConsumerOptions.DEFAULT_PREPARE_TIMEOUT);
            assertThat(config.pollInterval()).isEqualTo(ConsumerOptions.DEFAULT_POLL_INTERVAL);
            assertThat(log.messagesContaining("RMQ-1080")).containsExactlyInAnyOrder(
                    unknown("COLOUR", null),
                    unknown("CONCURENCY", null),
                    unknown("PREPARE_TIMOUT", "prepare-timeout"),
                    unknown("REDIS_UIR", "redis-uri"),
                    unknown("batch-sise", "batch-size"),
                    unknown("max_retires", "max-retries"),
                    unknown("poll_interval", "poll-interval"));
        }
    }

    @Test
    void noTwoAttributesShareAnEnvironmentVariable() {
        List<String> forms = Arrays.stream(RmqAttribute.values())
                .map(a -> UnknownProperties.environmentForm(a.attributeName())).collect(Collectors.toList());
        assertThat(forms).doesNotHaveDuplicates();
        assertThat(UnknownProperties.environmentForm("redis-uri")).isEqualTo("REDIS_URI");
        assertThat(UnknownProperties.environmentForm("mp.messaging.incoming.\"a.b\".topic"))
                .isEqualTo("MP_MESSAGING_INCOMING__A_B__TOPIC");
    }

    private static String unknown(String property, String closest) {
        return "RMQ-1080 Channel 'orders' (incoming): property '" + property + "' is not an attribute of the"
                + " smallrye-redis-rmq connector and is ignored" + (closest == null ? "." : "; did you mean '"
                + closest + "'?") + " The attributes are listed in docs/configuration.md";
    }

    /**
     * Every attribute of the direction that has a default, set to it under {@code prefix}, and the mandatory
     * {@code topic-type}.
     */
    private static Map<String, String> defaultsOfEveryAttribute(Direction direction, String prefix) {
        Map<String, String> env = new HashMap<>();
        for (RmqAttribute attribute : RmqAttribute.values()) {
            if (attribute.direction().appliesTo(direction)) {
                attribute.defaultValue().filter(v -> !v.isBlank()).ifPresent(v -> env.put(prefix
                        + UnknownProperties.environmentForm(attribute.attributeName()), v));
            }
        }
        env.put(prefix + "TOPIC_TYPE", "PRIORITY");
        return env;
    }

    /**
     * The channel's configuration exactly as SmallRye Reactive Messaging hands it to the connector (its
     * {@link ConnectorConfig}), over environment variables and an application's properties.
     */
    private static Config channel(Direction direction, String channel, Map<String, String> env,
            Map<String, String> properties) {
        Config overall = new SmallRyeConfigBuilder()
                .withSources(new EnvConfigSource(env, EnvConfigSource.ORDINAL),
                        new PropertiesConfigSource(properties, "application.properties", 250))
                .build();
        return new ConnectorConfig("mp.messaging." + direction.label() + ".", overall, channel) {
        };
    }
}
