package io.rmq.connector.config;

import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.eclipse.microprofile.config.spi.Converter;

/**
 * A {@link Config} over a map that, unlike SmallRye Config, returns empty strings as they are, as
 * some runtimes do. Only String values are supported.
 */
final class MapConfig implements Config {

    private final Map<String, String> values;

    MapConfig(Map<String, String> values) {
        this.values = Map.copyOf(values);
    }

    @Override
    public <T> T getValue(String propertyName, Class<T> propertyType) {
        return getOptionalValue(propertyName, propertyType).orElseThrow(() -> new NoSuchElementException(propertyName));
    }

    @Override
    public ConfigValue getConfigValue(String propertyName) {
        throw new UnsupportedOperationException();
    }

    @Override
    public <T> Optional<T> getOptionalValue(String propertyName, Class<T> propertyType) {
        if (propertyType != String.class) {
            throw new IllegalArgumentException("only String values are supported");
        }
        return Optional.ofNullable(values.get(propertyName)).map(propertyType::cast);
    }

    @Override
    public Iterable<String> getPropertyNames() {
        return values.keySet();
    }

    @Override
    public Iterable<ConfigSource> getConfigSources() {
        return java.util.List.of();
    }

    @Override
    public <T> Optional<Converter<T>> getConverter(Class<T> forType) {
        return Optional.empty();
    }

    @Override
    public <T> T unwrap(Class<T> type) {
        throw new IllegalArgumentException("cannot unwrap to " + type);
    }
}
