package io.rmq.tck.arquillian;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.BeforeShutdown;
import jakarta.enterprise.inject.spi.Extension;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;

/**
 * Weld embedded only: creates the deployment's MicroProfile Config (for the deployment's class
 * loader, so it reads the deployment's {@code microprofile-config.properties}) before any bean needs
 * it, and releases it when the deployment stops. An application server does this for each
 * application; on bare Weld, SmallRye Reactive Messaging would otherwise ask SmallRye Config for the
 * configuration before SmallRye Config's own extension has created it.
 */
public class DeploymentConfig implements Extension {

    private Config config;

    void create(@Observes BeforeBeanDiscovery event) {
        config = ConfigProvider.getConfig(Thread.currentThread().getContextClassLoader());
    }

    void release(@Observes BeforeShutdown event) {
        if (config != null) {
            ConfigProviderResolver.instance().releaseConfig(config);
        }
    }
}
