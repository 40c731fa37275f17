package io.rmq.testing;

import java.util.HashMap;
import java.util.Map;

import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.smallrye.config.inject.ConfigExtension;
import io.smallrye.reactive.messaging.providers.MediatorFactory;
import io.smallrye.reactive.messaging.providers.connectors.ExecutionHolder;
import io.smallrye.reactive.messaging.providers.connectors.WorkerPoolRegistry;
import io.smallrye.reactive.messaging.providers.extension.ChannelProducer;
import io.smallrye.reactive.messaging.providers.extension.EmitterFactoryImpl;
import io.smallrye.reactive.messaging.providers.extension.HealthCenter;
import io.smallrye.reactive.messaging.providers.extension.LegacyEmitterFactoryImpl;
import io.smallrye.reactive.messaging.providers.extension.MediatorManager;
import io.smallrye.reactive.messaging.providers.extension.MutinyEmitterFactoryImpl;
import io.smallrye.reactive.messaging.providers.extension.ReactiveMessagingExtension;
import io.smallrye.reactive.messaging.providers.impl.ConfiguredChannelFactory;
import io.smallrye.reactive.messaging.providers.impl.ConnectorFactories;
import io.smallrye.reactive.messaging.providers.impl.InternalChannelRegistry;
import io.smallrye.reactive.messaging.providers.wiring.Wiring;

/**
 * A SmallRye Reactive Messaging application on Weld SE for tests: the given beans (application
 * beans and connectors), no classpath discovery, and a MicroProfile Config built from a map and
 * registered for the test's class loader. Close it to stop the application (which stops its
 * channels gracefully) and unregister the config.
 *
 * <pre>{@code
 * try (WeldApp app = WeldApp.builder().beans(RedisRmqConnector.class, MyConsumer.class)
 *         .config("mp.messaging.incoming.prices.connector", "smallrye-redis-rmq").start()) {
 *     MyConsumer consumer = app.get(MyConsumer.class);
 * }
 * }</pre>
 */
public final class WeldApp implements AutoCloseable {

    private final WeldContainer container;
    private final SmallRyeConfig config;

    private WeldApp(WeldContainer container, SmallRyeConfig config) {
        this.container = container;
        this.config = config;
    }

    public static Builder builder() {
        return new Builder();
    }

    public <T> T get(Class<T> type) {
        return container.select(type).get();
    }

    public WeldContainer container() {
        return container;
    }

    @Override
    public void close() {
        try {
            if (container.isRunning()) {
                container.shutdown();
            }
        } finally {
            ConfigProviderResolver.instance().releaseConfig(config);
        }
    }

    /** Collects beans and configuration; {@link #start()} boots the container. */
    public static final class Builder {
        private final Weld weld = new Weld().disableDiscovery()
                .property("org.jboss.weld.construction.relaxed", true);
        private final Map<String, String> properties = new HashMap<>();

        private Builder() {
            weld.addExtension(new ConfigExtension());
            weld.addExtension(new ReactiveMessagingExtension());
            weld.addBeanClasses(MediatorFactory.class, MediatorManager.class, InternalChannelRegistry.class,
                    ConnectorFactories.class, ConfiguredChannelFactory.class, ChannelProducer.class,
                    ExecutionHolder.class, WorkerPoolRegistry.class, HealthCenter.class, Wiring.class,
                    EmitterFactoryImpl.class, MutinyEmitterFactoryImpl.class, LegacyEmitterFactoryImpl.class);
        }

        public Builder beans(Class<?>... classes) {
            weld.addBeanClasses(classes);
            return this;
        }

        public Builder extension(jakarta.enterprise.inject.spi.Extension extension) {
            weld.addExtension(extension);
            return this;
        }

        public Builder config(String key, Object value) {
            properties.put(key, String.valueOf(value));
            return this;
        }

        /** Sets {@code mp.messaging.incoming.<channel>.<attribute>} for each pair of {@code attributes}. */
        public Builder incoming(String channel, String connector, Object... attributes) {
            return channel("incoming", channel, connector, attributes);
        }

        /** Sets {@code mp.messaging.outgoing.<channel>.<attribute>} for each pair of {@code attributes}. */
        public Builder outgoing(String channel, String connector, Object... attributes) {
            return channel("outgoing", channel, connector, attributes);
        }

        private Builder channel(String direction, String channel, String connector, Object... attributes) {
            String prefix = "mp.messaging." + direction + "." + channel + ".";
            properties.put(prefix + "connector", connector);
            for (int i = 0; i + 1 < attributes.length; i += 2) {
                properties.put(prefix + attributes[i], String.valueOf(attributes[i + 1]));
            }
            return this;
        }

        public WeldApp start() {
            SmallRyeConfig config = registerConfig(properties);
            try {
                return new WeldApp(weld.initialize(), config);
            } catch (RuntimeException e) {
                ConfigProviderResolver.instance().releaseConfig(config);
                throw e;
            }
        }
    }

    /**
     * Builds a MicroProfile Config from {@code properties} and registers it for the current thread's
     * class loader, replacing any config registered there; release it with
     * {@code ConfigProviderResolver.instance().releaseConfig(config)}.
     */
    public static SmallRyeConfig registerConfig(Map<String, String> properties) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(properties, "test", 500))
                .addDefaultInterceptors()
                .forClassLoader(loader)
                .build();
        ConfigProviderResolver resolver = ConfigProviderResolver.instance();
        try {
            resolver.releaseConfig(resolver.getConfig(loader));
        } catch (RuntimeException ignored) {
            // nothing registered yet
        }
        resolver.registerConfig(config, loader);
        return config;
    }
}
