package io.rmq.tck.arquillian;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import org.jboss.arquillian.container.test.spi.client.deployment.ApplicationArchiveProcessor;
import org.jboss.arquillian.test.spi.TestClass;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.Node;
import org.jboss.shrinkwrap.api.asset.ArchiveAsset;
import org.jboss.shrinkwrap.api.container.ClassContainer;
import org.jboss.shrinkwrap.api.container.ServiceProviderContainer;

import jakarta.enterprise.inject.spi.Extension;

import io.smallrye.reactive.messaging.providers.MediatorFactory;
import io.smallrye.reactive.messaging.providers.connectors.ExecutionHolder;
import io.smallrye.reactive.messaging.providers.connectors.WorkerPoolRegistry;
import io.smallrye.reactive.messaging.providers.extension.ChannelProducer;
import io.smallrye.reactive.messaging.providers.extension.EmitterFactoryImpl;
import io.smallrye.reactive.messaging.providers.extension.HealthCenter;
import io.smallrye.reactive.messaging.providers.extension.LegacyEmitterFactoryImpl;
import io.smallrye.reactive.messaging.providers.extension.MediatorManager;
import io.smallrye.reactive.messaging.providers.extension.MutinyEmitterFactoryImpl;
import io.smallrye.reactive.messaging.providers.extension.PausableChannelDecorator;
import io.smallrye.reactive.messaging.providers.impl.ConfiguredChannelFactory;
import io.smallrye.reactive.messaging.providers.impl.ConnectorFactories;
import io.smallrye.reactive.messaging.providers.impl.InternalChannelRegistry;
import io.smallrye.reactive.messaging.providers.wiring.Wiring;

/**
 * Makes Weld embedded a MicroProfile Reactive Messaging runtime: adds SmallRye Reactive Messaging's
 * beans to every deployment, as an application server would provide them, and {@link DeploymentConfig}.
 * (The CDI extensions of SmallRye Reactive Messaging and SmallRye Config are on the test class path,
 * where Weld finds them; so is the connector's, {@code io.rmq.cdi.RedisRmqExtension}, whose jar is one of
 * the deployment's libraries: Weld reads {@code META-INF/services} through the deployment's class
 * loader, which delegates to the test class path.) It leaves out the WAR's libraries that hold no beans
 * (no {@code beans.xml}, or one with {@code bean-discovery-mode="none"} as the extension's jar has): Weld
 * runs in the test JVM, whose class path has them.
 * Open Liberty gets the WARs as they are.
 */
public class WeldEmbeddedRuntime implements ApplicationArchiveProcessor {

    static final Class<?>[] SMALLRYE_BEANS = {
        MediatorFactory.class, MediatorManager.class, InternalChannelRegistry.class, ConnectorFactories.class,
        ConfiguredChannelFactory.class, ChannelProducer.class, ExecutionHolder.class, WorkerPoolRegistry.class,
        HealthCenter.class, Wiring.class, EmitterFactoryImpl.class, MutinyEmitterFactoryImpl.class,
        LegacyEmitterFactoryImpl.class, PausableChannelDecorator.class,
    };

    @Override
    public void process(Archive<?> archive, TestClass testClass) {
        // The libraries are on the test class path already; Weld needs only the bean archives among
        // them (to find their beans.xml), and reading the others through the WAR's class loader on
        // every resource look-up would cost seconds per deployment.
        archive.getContent(path -> path.get().startsWith("/WEB-INF/lib/")).forEach((path, node) -> {
            if (!(node.getAsset() instanceof ArchiveAsset library) || discoversNoBeans(library.getArchive())) {
                archive.delete(path);
            }
        });
        if (archive instanceof ClassContainer<?> classes) {
            classes.addClasses(SMALLRYE_BEANS);
            classes.addClass(DeploymentConfig.class);
        }
        if (archive instanceof ServiceProviderContainer<?> services) {
            services.addAsServiceProvider(Extension.class, DeploymentConfig.class);
        }
    }

    /**
     * A library whose {@code beans.xml} says {@code bean-discovery-mode="none"} (the CDI extension's jar):
     * no beans to find in it, and its extension is found on the test class path already; kept in the
     * WAR, Weld could find that extension a second time.
     */
    private static boolean discoversNoBeans(Archive<?> library) {
        Node beansXml = library.get("META-INF/beans.xml");
        if (beansXml == null || beansXml.getAsset() == null) {
            return false;
        }
        try (InputStream in = beansXml.getAsset().openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace('\'', '"')
                    .contains("bean-discovery-mode=\"none\"");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the beans.xml of " + library.getName(), e);
        }
    }
}
