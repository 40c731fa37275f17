package io.rmq.connector.config;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.microprofile.config.Config;

/**
 * Builds a channel's {@link Config} as the runtime hands it to the connector: attribute names
 * without prefixes, channel and connector levels already merged.
 */
final class TestConfigs {

    private TestConfigs() {
    }

    /** A config holding {@code channel-name} and the given attribute/value pairs. */
    static Config channel(String channel, String... attributesAndValues) {
        Map<String, String> map = new HashMap<>();
        map.put("channel-name", channel);
        for (int i = 0; i < attributesAndValues.length; i += 2) {
            map.put(attributesAndValues[i], attributesAndValues[i + 1]);
        }
        return of(map);
    }

    static Config of(Map<String, String> map) {
        return new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(map, "test", 100)).build();
    }
}
