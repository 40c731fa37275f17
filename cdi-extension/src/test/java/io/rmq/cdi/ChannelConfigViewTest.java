package io.rmq.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.stream.Stream;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.eclipse.microprofile.config.spi.Converter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.rmq.connector.config.ConfigProblem;
import io.rmq.connector.config.Direction;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * The per-channel view of the configuration and the discovery of the connector's channels, on two
 * MicroProfile Config implementations: SmallRye Config, and a bare one over a map.
 */
class ChannelConfigViewTest {

    private static final String RMQ = "smallrye-redis-rmq";
    private static final String CONNECTOR = "mp.messaging.connector." + RMQ + ".";

    interface Configs {
        Config of(Map<String, String> properties);
    }

    static Stream<Arguments> configs() {
        Configs smallrye = properties -> new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(properties, "test", 100)).build();
        Configs bare = MapConfig::new;
        return Stream.of(Arguments.of("SmallRye Config", smallrye), Arguments.of("a bare Config", bare));
    }

    private static Map<String, String> properties(String... pairs) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void aChannelLevelAttributeWinsOverTheConnectorLevelOne(String name, Configs configs) {
        Config root = configs.of(properties(
                CONNECTOR + "slot-amount", "8",
                CONNECTOR + "redis-uri", "redis://shared:6379",
                "mp.messaging.incoming.prices.slot-amount", "32"));
        ChannelConfigView prices = new ChannelConfigView(root, Direction.INCOMING, "prices", RMQ);
        ChannelConfigView orders = new ChannelConfigView(root, Direction.INCOMING, "orders", RMQ);

        assertThat(prices.getValue("slot-amount", String.class)).isEqualTo("32");
        assertThat(orders.getValue("slot-amount", String.class)).isEqualTo("8");
        assertThat(prices.getOptionalValue("redis-uri", String.class)).contains("redis://shared:6379");
        assertThat(prices.getOptionalValue("topic", String.class)).isEmpty();
        assertThatThrownBy(() -> prices.getValue("topic", String.class)).isInstanceOf(NoSuchElementException.class)
                .hasMessageContaining("mp.messaging.incoming.prices.topic");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void theChannelNameIsTheChannelAndPropertyNamesComeFromBothLevels(String name, Configs configs) {
        Config root = configs.of(properties(
                CONNECTOR + "redis-uri", "redis://shared:6379",
                "mp.messaging.outgoing.orders.topic-type", "FIXED_TIME",
                "mp.messaging.outgoing.orders.connector", RMQ,
                "mp.messaging.incoming.orders.topic", "not-this-direction"));
        ChannelConfigView orders = new ChannelConfigView(root, Direction.OUTGOING, "orders", RMQ);

        assertThat(orders.getValue("channel-name", String.class)).isEqualTo("orders");
        assertThat(orders.getPropertyNames()).containsExactlyInAnyOrder("channel-name", "redis-uri", "topic-type",
                "connector");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void aDottedChannelNameIsQuotedInPropertyNames(String name, Configs configs) {
        Config root = configs.of(properties(
                "mp.messaging.incoming.\"eu.prices\".connector", RMQ,
                "mp.messaging.incoming.\"eu.prices\".topic-type", "PRIORITY"));

        List<ChannelConfigView> channels = ConfiguredChannels.in(root);

        assertThat(channels).extracting(ChannelConfigView::channel).containsExactly("eu.prices");
        assertThat(channels.get(0).getValue("topic-type", String.class)).isEqualTo("PRIORITY");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void onlyEnabledChannelsOfThisConnectorAreChecked(String name, Configs configs) {
        Config root = configs.of(properties(
                CONNECTOR + "slot-amount", "3",
                "mp.messaging.incoming.a.connector", RMQ,
                "mp.messaging.outgoing.b.connector", RMQ,
                "mp.messaging.outgoing.b.topic-type", "PRIORITY",
                "mp.messaging.incoming.kafka-in.connector", "smallrye-kafka",
                "mp.messaging.incoming.off.connector", RMQ,
                "mp.messaging.incoming.off.enabled", "false"));

        assertThat(ConfiguredChannels.in(root)).extracting(ChannelConfigView::direction, ChannelConfigView::channel)
                .containsExactly(tuple(Direction.INCOMING, "a"), tuple(Direction.OUTGOING, "b"));
        assertThat(ConfiguredChannels.problems(root))
                .extracting(ConfigProblem::channel, ConfigProblem::attribute, ConfigProblem::value)
                .containsExactlyInAnyOrder(
                        tuple("a", "topic-type", null),
                        tuple("a", "slot-amount", "3"),
                        tuple("b", "slot-amount", "3"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void aWellConfiguredApplicationHasNoProblem(String name, Configs configs) {
        Config root = configs.of(properties(
                CONNECTOR + "redis-uri", "redis://localhost:6379",
                "mp.messaging.incoming.in.connector", RMQ,
                "mp.messaging.incoming.in.topic-type", "FIXED_TIME",
                "mp.messaging.outgoing.out.connector", RMQ,
                "mp.messaging.outgoing.out.topic", "in",
                "mp.messaging.outgoing.out.topic-type", "FIXED_TIME"));

        assertThat(ConfiguredChannels.problems(root)).isEmpty();
    }

    /** A MicroProfile Config over a map, with nothing of SmallRye: String values only. */
    private static final class MapConfig implements Config {
        private final Map<String, String> values;

        MapConfig(Map<String, String> values) {
            this.values = Map.copyOf(values);
        }

        @Override
        public <T> T getValue(String propertyName, Class<T> propertyType) {
            return getOptionalValue(propertyName, propertyType).orElseThrow(NoSuchElementException::new);
        }

        @Override
        public ConfigValue getConfigValue(String propertyName) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <T> Optional<T> getOptionalValue(String propertyName, Class<T> propertyType) {
            return Optional.ofNullable(values.get(propertyName)).map(propertyType::cast);
        }

        @Override
        public Iterable<String> getPropertyNames() {
            return values.keySet();
        }

        @Override
        public Iterable<ConfigSource> getConfigSources() {
            return List.of();
        }

        @Override
        public <T> Optional<Converter<T>> getConverter(Class<T> forType) {
            return Optional.empty();
        }

        @Override
        public <T> T unwrap(Class<T> type) {
            throw new IllegalArgumentException();
        }
    }
}
