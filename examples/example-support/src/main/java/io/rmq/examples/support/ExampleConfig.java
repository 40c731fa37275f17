package io.rmq.examples.support;

import java.util.Map;

import org.eclipse.microprofile.config.spi.ConfigProviderResolver;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * The MicroProfile Config of an example program, built and registered for the program's class
 * loader before Weld starts, so that every part of the runtime (the config extension, SmallRye
 * Reactive Messaging, the connector) sees the same configuration from the first moment.
 *
 * <p>It holds the usual sources (system properties, environment variables,
 * {@code META-INF/microprofile-config.properties}), with one configuration profile active, plus the
 * program's own properties (ordinal {@value #PROGRAM_ORDINAL}: above the properties file, below
 * environment variables and system properties, so {@code -D} still overrides them).
 */
public final class ExampleConfig implements AutoCloseable {

    /** The ordinal of the properties a program sets in code. */
    public static final int PROGRAM_ORDINAL = 275;

    private final SmallRyeConfig config;

    private ExampleConfig(SmallRyeConfig config) {
        this.config = config;
    }

    /** Builds the configuration (not registered): to read settings before the program's own properties are known. */
    public static SmallRyeConfig read(String profile) {
        return builder(profile).build();
    }

    /** Builds the configuration with {@code properties} added, and registers it for the current class loader. */
    public static ExampleConfig register(String profile, Map<String, String> properties) {
        SmallRyeConfig config = builder(profile)
                .withSources(new PropertiesConfigSource(properties, "rmq-example-" + profile, PROGRAM_ORDINAL))
                .build();
        ConfigProviderResolver.instance().registerConfig(config, Thread.currentThread().getContextClassLoader());
        return new ExampleConfig(config);
    }

    private static SmallRyeConfigBuilder builder(String profile) {
        return new SmallRyeConfigBuilder()
                .forClassLoader(Thread.currentThread().getContextClassLoader())
                .addDefaultInterceptors()
                .addDefaultSources()
                .addDiscoveredSources()
                .addDiscoveredConverters()
                .addDiscoveredInterceptors()
                .withProfile(profile);
    }

    public SmallRyeConfig config() {
        return config;
    }

    /** Unregisters the configuration. */
    @Override
    public void close() {
        ConfigProviderResolver.instance().releaseConfig(config);
    }
}
