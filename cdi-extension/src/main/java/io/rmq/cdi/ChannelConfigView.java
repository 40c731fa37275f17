package io.rmq.cdi;

import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.eclipse.microprofile.config.spi.Converter;
import org.eclipse.microprofile.reactive.messaging.spi.ConnectorFactory;

import io.rmq.cdi.i18n.CdiExceptions;
import io.rmq.connector.config.Direction;

/**
 * One channel's configuration as a connector sees it, built on the application's {@link Config}: an
 * attribute is read from {@code mp.messaging.<direction>.<channel>.<attribute>} when set there, and
 * otherwise from {@code mp.messaging.connector.<connector>.<attribute>}; {@code channel-name} is the
 * channel's name. This is how the runtime merges the two levels before it calls the connector
 * (SmallRye's {@code ConnectorConfig} does the same), so the connector's own checks give the same
 * verdict here as they will at channel creation.
 *
 * <p>Only the MicroProfile Config API is used, so any implementation works. A channel name
 * containing a dot is written in quotes in property names ({@code mp.messaging.incoming."a.b".topic}),
 * as SmallRye expects. Immutable; as thread-safe as the underlying {@code Config}.
 */
final class ChannelConfigView implements Config {

    private final Config root;
    private final Direction direction;
    private final String channel;
    private final String channelPrefix;
    private final String connectorPrefix;

    /**
     * @param root      the application's configuration
     * @param direction {@link Direction#INCOMING} or {@link Direction#OUTGOING}
     * @param channel   the channel name, unquoted
     * @param connector the connector name, e.g. {@code smallrye-redis-rmq}
     */
    ChannelConfigView(Config root, Direction direction, String channel, String connector) {
        if (direction == Direction.INCOMING_AND_OUTGOING) {
            throw CdiExceptions.ex.channelOfBothDirections();
        }
        this.root = Objects.requireNonNull(root, "root");
        this.direction = direction;
        this.channel = Objects.requireNonNull(channel, "channel");
        this.channelPrefix = channelPrefix(direction, channel);
        this.connectorPrefix = "mp.messaging.connector." + Objects.requireNonNull(connector, "connector") + ".";
    }

    /** {@code mp.messaging.incoming.prices.}, or {@code mp.messaging.incoming."a.b".} for a dotted name. */
    static String channelPrefix(Direction direction, String channel) {
        String name = channel.contains(".") ? "\"" + channel + "\"" : channel;
        return "mp.messaging." + direction.label() + "." + name + ".";
    }

    Direction direction() {
        return direction;
    }

    String channel() {
        return channel;
    }

    /** The property that holds {@code attribute} for this channel: the channel-level one if it is set. */
    private String key(String attribute) {
        String channelKey = channelPrefix + attribute;
        return root.getOptionalValue(channelKey, String.class).isPresent() ? channelKey : connectorPrefix + attribute;
    }

    private static boolean isChannelName(String attribute) {
        return ConnectorFactory.CHANNEL_NAME_ATTRIBUTE.equals(attribute);
    }

    @Override
    public <T> T getValue(String propertyName, Class<T> propertyType) {
        return getOptionalValue(propertyName, propertyType)
                .orElseThrow(() -> CdiExceptions.ex.attributeNotSet(channel, propertyName, channelPrefix + propertyName,
                        connectorPrefix + propertyName));
    }

    @Override
    public <T> Optional<T> getOptionalValue(String propertyName, Class<T> propertyType) {
        if (isChannelName(propertyName)) {
            return Optional.of(convert(channel, propertyType));
        }
        return root.getOptionalValue(key(propertyName), propertyType);
    }

    @Override
    public ConfigValue getConfigValue(String propertyName) {
        if (isChannelName(propertyName)) {
            return new ChannelNameValue(channel);
        }
        return root.getConfigValue(key(propertyName));
    }

    /** The attribute names set for this channel at either level, and {@code channel-name}. */
    @Override
    public Iterable<String> getPropertyNames() {
        Set<String> names = new LinkedHashSet<>();
        names.add(ConnectorFactory.CHANNEL_NAME_ATTRIBUTE);
        for (String name : root.getPropertyNames()) {
            if (name.startsWith(channelPrefix) && name.length() > channelPrefix.length()) {
                names.add(name.substring(channelPrefix.length()));
            } else if (name.startsWith(connectorPrefix) && name.length() > connectorPrefix.length()) {
                names.add(name.substring(connectorPrefix.length()));
            }
        }
        return names;
    }

    @Override
    public Iterable<ConfigSource> getConfigSources() {
        return root.getConfigSources();
    }

    @Override
    public <T> Optional<Converter<T>> getConverter(Class<T> forType) {
        return root.getConverter(forType);
    }

    @Override
    public <T> T unwrap(Class<T> type) {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        return root.unwrap(type);
    }

    private <T> T convert(String value, Class<T> type) {
        if (type == String.class || type == Object.class) {
            return type.cast(value);
        }
        return root.getConverter(type)
                .map(c -> c.convert(value))
                .orElseThrow(() -> CdiExceptions.ex.noConverter(type.getName()));
    }

    @Override
    public String toString() {
        return "ChannelConfigView[" + direction.label() + " channel '" + channel + "']";
    }

    /** The value of {@code channel-name}, which no config source holds. */
    private record ChannelNameValue(String channel) implements ConfigValue {
        @Override
        public String getName() {
            return ConnectorFactory.CHANNEL_NAME_ATTRIBUTE;
        }

        @Override
        public String getValue() {
            return channel;
        }

        @Override
        public String getRawValue() {
            return channel;
        }

        @Override
        public String getSourceName() {
            return ChannelConfigView.class.getSimpleName();
        }

        @Override
        public int getSourceOrdinal() {
            return 0;
        }
    }
}
